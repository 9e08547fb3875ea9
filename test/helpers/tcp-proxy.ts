// A TCP proxy a test can cut and restore: stands between the service and a real server (the shared Postgres).
import net from "node:net";

export type TcpProxy = {
  port: number;
  /** Closes every connection and refuses new ones (ECONNREFUSED), as a stopped server would. */
  down(): Promise<void>;
  /** Accepts connections again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
};

export async function startTcpProxy(targetHost: string, targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(targetPort, targetHost);
    sockets.add(client);
    sockets.add(upstream);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on("error", end).on("close", end);
    upstream.on("error", end).on("close", end);
    client.pipe(upstream);
    upstream.pipe(client);
  });
  const listen = (port: number) => new Promise<void>((resolve, reject) => server.once("error", reject).listen(port, "127.0.0.1", resolve));
  await listen(0);
  const port = (server.address() as net.AddressInfo).port;
  const down = async () => {
    if (!server.listening) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    await closed;
  };
  return {
    port,
    down,
    up: async () => {
      if (!server.listening) await listen(port);
    },
    close: down,
  };
}
