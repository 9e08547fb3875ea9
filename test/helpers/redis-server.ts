// A Redis server of a test's own (never the shared one): started on a free port, killed and started again on it.
import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";

export type TestRedis = {
  url: string;
  port: number;
  /** Kills the server at once (SIGKILL), as a crash or a lost host would. */
  kill(): Promise<void>;
  /** Starts it again on the same port (empty: it keeps no data). */
  start(): Promise<void>;
};

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

export async function startTestRedis(): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;

  async function start(): Promise<void> {
    const server = spawn(
      "redis-server",
      ["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--protected-mode", "no"],
      {
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    child = server;
    let output = "";
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`redis-server did not start:\n${output}`)), 15_000);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Ready to accept connections")) {
          clearTimeout(timer);
          resolve();
        }
      };
      server.stdout?.on("data", onData);
      server.stderr?.on("data", onData);
      server.once("exit", (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited with ${code}:\n${output}`));
      });
    });
  }

  async function kill(): Promise<void> {
    const running = child;
    child = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once("exit", resolve));
    running.kill("SIGKILL");
    await exited;
  }

  await start();
  return { url: `redis://127.0.0.1:${port}`, port, kill, start };
}
