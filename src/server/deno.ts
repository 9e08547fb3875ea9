// Deno 2 entry: the same gateway behind Deno.serve, with graphql-ws over Deno's WebSocket upgrade.
import { makeServer } from "graphql-ws";
import { loadConfig } from "../config/config.ts";
import { createGateway } from "./gateway.ts";
import { graphqlWsOptions } from "./graphql-ws.ts";

declare const Deno: {
  serve(
    options: { port: number; hostname: string; signal?: AbortSignal },
    handler: (request: Request, info: { remoteAddr: { hostname: string } }) => Response | Promise<Response>,
  ): { finished: Promise<void>; addr: { port: number } };
  upgradeWebSocket(request: Request, options?: { protocol?: string }): { socket: WebSocket; response: Response };
  addSignalListener(signal: string, handler: () => void): void;
  exit(code: number): never;
};

const config = loadConfig();
const gateway = await createGateway(config);
const ws = makeServer(graphqlWsOptions(gateway.yoga as never, (extra: { request: Request; clientAddress: string }) => extra));

function upgrade(request: Request, clientAddress: string): Response {
  const protocol = request.headers.get("sec-websocket-protocol") ?? undefined;
  const { socket, response } = Deno.upgradeWebSocket(request, protocol ? { protocol: "graphql-transport-ws" } : {});
  socket.onopen = () => {
    const closed = ws.opened(
      {
        protocol: socket.protocol,
        send: (data) => socket.send(data),
        close: (code, reason) => socket.close(code, reason),
        onMessage: (cb) => {
          socket.onmessage = async (event) => {
            try {
              await cb(String(event.data));
            } catch (error) {
              socket.close(4500, error instanceof Error ? error.message : "internal error");
            }
          };
        },
      },
      { request, clientAddress },
    );
    socket.onclose = (event) => void closed(event.code, event.reason);
  };
  return response;
}

const abort = new AbortController();
const server = Deno.serve({ port: config.port, hostname: config.host, signal: abort.signal }, (request, info) => {
  const clientAddress = info.remoteAddr.hostname;
  const isUpgrade = request.headers.get("upgrade")?.toLowerCase() === "websocket";
  if (isUpgrade && new URL(request.url).pathname === "/graphql") return upgrade(request, clientAddress);
  return gateway.fetch(request, { clientAddress, rawGetBody: async () => undefined });
});
gateway.logger.info("listening", { port: server.addr.port, host: config.host, runtime: "deno" });

for (const signal of ["SIGTERM", "SIGINT"]) {
  Deno.addSignalListener(signal, async () => {
    gateway.logger.info("draining", { signal });
    abort.abort();
    await server.finished;
    await gateway.close();
    Deno.exit(0);
  });
}
