// Node 24 entry: HTTP and graphql-ws on one port; SIGTERM drains in-flight requests, then exits.
import { createServer, type IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import { getRequestListener, type HttpBindings } from "@hono/node-server";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer } from "ws";
import { type Config, loadConfig } from "../config/config.ts";
import { createGateway } from "./gateway.ts";
import { graphqlWsOptions } from "./graphql-ws.ts";
import { createLayoutStream } from "./layout-stream.ts";
import { upgradeAllowed } from "./web-security.ts";

/** The upgrade request's headers as fetch Headers. */
function headersOf(request: IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return headers;
}

function peer(socket: Socket | undefined): string {
  return socket?.remoteAddress ?? "unknown";
}

export async function startNodeServer(config: Config = loadConfig()) {
  const gateway = await createGateway(config);
  const { logger } = gateway;
  const listener = getRequestListener((request, env) => {
    const { incoming } = env as HttpBindings;
    return gateway.fetch(request, {
      clientAddress: peer(incoming.socket),
      requestBody: () => incoming,
    });
  });
  const server = createServer(listener);
  // A graphql-ws message is held to the same size as a /graphql body (1009 "message too big" past it).
  const wss = new WebSocketServer({ noServer: true, maxPayload: config.maxJsonBodyBytes });
  const wsServer = useServer(
    graphqlWsOptions(gateway.yoga as never, (extra: { request: IncomingMessage }) => ({
      clientAddress: peer(extra.request.socket),
      request: new Request(`http://localhost${extra.request.url ?? "/graphql"}`, {
        headers: Object.entries(extra.request.headers).flatMap(([k, v]) =>
          v === undefined ? [] : Array.isArray(v) ? v.map((x): [string, string] => [k, x]) : [[k, v] as [string, string]],
        ),
      }),
    })),
    wss,
  );
  // Live layout frames: /graph/data/<session>/layout/stream.
  const layoutStream = createLayoutStream(gateway.services, { clientAddress: (request) => peer(request.socket) });
  server.on("upgrade", (request, socket, head) => {
    // Another site's page may not open a socket that the browser would send this site's cookie on.
    if (!upgradeAllowed(headersOf(request), { corsOrigins: config.corsOrigins, publicUrl: config.publicUrl })) {
      socket.end("HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
      return;
    }
    if (layoutStream.handle(request, socket, head)) return;
    if (new URL(request.url ?? "/", "http://localhost").pathname !== "/graphql") {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => wss.emit("connection", ws, request));
  });

  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  logger.info("listening", { port, host: config.host, database: config.databaseProvider, redis: Boolean(config.redisUrl) });

  let stopping: Promise<void> | undefined;
  function stop(signal: string): Promise<void> {
    stopping ??= (async () => {
      logger.info("draining", { signal });
      await wsServer.dispose();
      layoutStream.close();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      const timer = setTimeout(() => server.closeAllConnections(), config.shutdownGraceMs);
      await closed;
      clearTimeout(timer);
      await gateway.close();
      logger.info("stopped");
    })();
    return stopping;
  }
  return { server, port, gateway, stop };
}

if (import.meta.main) {
  const running = await startNodeServer();
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    process.once(signal, () => {
      running.stop(signal).then(
        () => process.exit(0),
        (error) => {
          console.error(error);
          process.exit(1);
        },
      );
    });
  }
}
