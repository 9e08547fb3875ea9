// Starts the real service as a child process (Node or Deno) on a free port and waits until it listens.
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

export type ServerProcess = {
  url: string;
  port: number;
  child: ChildProcess;
  logs: string[];
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
};

/** The Deno binary: DENO_BIN, the `deno` devDependency's (npm ci installs it), or none. */
export function findDeno(): string | undefined {
  const candidates = [process.env.DENO_BIN, path.join(ROOT, "node_modules/.bin/deno")];
  return candidates.find((c): c is string => Boolean(c) && existsSync(c as string));
}

export async function startServer(env: Record<string, string>, runtime: "node" | "deno" = "node"): Promise<ServerProcess> {
  const command =
    runtime === "node" ? { bin: process.execPath, args: ["src/server/node.ts"] } : { bin: findDeno() ?? "deno", args: ["task", "start"] };
  // deno.json's tasks call `env deno`: the same binary, found on PATH.
  const PATH = runtime === "deno" ? `${path.dirname(command.bin)}${path.delimiter}${process.env.PATH ?? ""}` : process.env.PATH;
  const child = spawn(command.bin, command.args, {
    cwd: ROOT,
    // ENV_FILE="": a developer's own .env in the project root stays out of the tests.
    env: { ...process.env, PATH, ENV_FILE: "", PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "info", ...env },
    stdio: ["ignore", "pipe", "pipe"],
    // `deno task` runs the server as a child of its own: both in a process group of their own, so that stop() ends
    // the server too (a SIGKILL to the task alone left the server running, orphaned).
    detached: runtime === "deno",
  });
  const logs: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start:\n${logs.join("")}`)), 45_000);
    const onData = (chunk: Buffer) => {
      logs.push(chunk.toString());
      for (const line of chunk.toString().split("\n")) {
        // Node logs {"msg":"listening","port":N}; Deno prints its own "Listening on http://host:N/".
        const json = /"msg":"listening".*"port":(\d+)/.exec(line);
        const deno = /Listening on https?:\/\/[^:]+:(\d+)\//.exec(line);
        const found = json?.[1] ?? deno?.[1];
        if (found && Number(found) > 0) {
          clearTimeout(timer);
          resolve(Number(found));
        }
      }
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", onData);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${logs.join("")}`));
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    child,
    logs,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null) {
        // A SIGKILL cannot be passed on by `deno task`: it goes to the whole group. (SIGTERM the task forwards, and
        // answers with the server's own exit code.)
        if (runtime === "deno" && signal === "SIGKILL" && child.pid !== undefined) {
          try {
            process.kill(-child.pid, signal);
          } catch {
            child.kill(signal);
          }
        } else child.kill(signal);
      }
      return exited;
    },
  };
}
