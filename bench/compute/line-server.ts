// bench/compute: a child process answering one JSON line per JSON request line, killed and restarted when a request
// runs past its time cap (python-igraph and graphology calls cannot be interrupted from outside otherwise).
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";

export type Reply = Record<string, unknown> & { ok?: boolean; error?: string };
export type Outcome = { reply: Reply } | { timedOut: true } | { crashed: string };

export class LineServer {
  private child: ChildProcessWithoutNullStreams | undefined;
  private buffer = "";
  private waiting: ((outcome: Outcome) => void) | undefined;
  private stderr = "";
  private readonly command: string;
  private readonly args: string[];

  constructor(command: string, args: string[]) {
    this.command = command;
    this.args = args;
  }

  private start(): ChildProcessWithoutNullStreams {
    const child = spawn(this.command, this.args, { stdio: ["pipe", "pipe", "pipe"] });
    this.buffer = "";
    this.stderr = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      // A killed child's last words must not answer the next child's request.
      if (this.child !== child) return;
      this.buffer += chunk;
      const end = this.buffer.indexOf("\n");
      if (end < 0) return;
      const line = this.buffer.slice(0, end);
      this.buffer = this.buffer.slice(end + 1);
      const done = this.waiting;
      this.waiting = undefined;
      done?.({ reply: JSON.parse(line) as Reply });
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      if (this.child === child) this.stderr = (this.stderr + chunk).slice(-2000);
    });
    child.on("exit", (code, signal) => {
      if (this.child !== child) return;
      this.child = undefined;
      const done = this.waiting;
      this.waiting = undefined;
      done?.({ crashed: `exited (${signal ?? code}): ${this.stderr.trim().split("\n").slice(-3).join(" | ")}` });
    });
    this.child = child;
    return child;
  }

  request(body: unknown, timeoutMs: number): Promise<Outcome> {
    const child = this.child ?? this.start();
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting = undefined;
        this.stop();
        resolve({ timedOut: true });
      }, timeoutMs);
      this.waiting = (outcome) => {
        clearTimeout(timer);
        resolve(outcome);
      };
      child.stdin.write(`${JSON.stringify(body)}\n`);
    });
  }

  stop(): void {
    const child = this.child;
    this.child = undefined;
    if (child && child.exitCode === null) child.kill("SIGKILL");
  }
}
