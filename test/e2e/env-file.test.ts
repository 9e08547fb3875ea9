// `npm run cli` and `npm start` read the same `.env`: a key the CLI makes is one the server accepts, with the
// database named only in that file. Both run as real processes from a folder holding the .env, as npm runs them
// from the project root.
import { type ChildProcess, execFile, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { ROOT } from "../helpers/server-process.ts";

const run = promisify(execFile);
/** Variables the .env sets, taken out of the children's environment so only the file can set them. */
const FROM_FILE = ["ENV_FILE", "DATA_DIR", "DATABASE_URL", "PORT", "HOST", "LOG_LEVEL"];

describe(".env shared by the CLI and the server", () => {
  let db: TestDatabase;
  let cwd: string;
  let env: NodeJS.ProcessEnv;
  let server: ChildProcess | undefined;
  let url = "";

  const cli = async (...args: string[]) =>
    (await run(process.execPath, [path.join(ROOT, "src/cli/main.ts"), ...args], { cwd, env })).stdout.trim().split("\n");

  beforeAll(async () => {
    db = await createTestDatabase("postgres");
    cwd = await mkdtemp(path.join(os.tmpdir(), "gw-dotenv-"));
    await writeFile(
      path.join(cwd, ".env"),
      [`DATA_DIR=${db.dataDir}`, `DATABASE_URL=${db.env.DATABASE_URL}`, "PORT=0", "HOST=127.0.0.1", "LOG_LEVEL=info", ""].join("\n"),
    );
    env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !FROM_FILE.includes(key)));
  });
  afterAll(async () => {
    server?.kill("SIGKILL");
    await db?.drop();
    await rm(cwd, { recursive: true, force: true });
  });

  it("the CLI creates a user and a key in the database the .env names", async () => {
    await cli("user", "create", "--username", "ops", "--password", "ops-password");
    expect((await cli("user", "list")).join("\n")).toMatch(/\tops\t/);
    // Not in a SQLite database of its own under the working directory.
    expect(existsSync(path.join(cwd, "data"))).toBe(false);
  });

  it("the server started from the same folder accepts that key", async () => {
    const credential = (await cli("key", "create", "--username", "ops")).at(-1) ?? "";
    expect(credential).toMatch(/^[A-Z0-9]+:[A-Za-z0-9_-]+$/);

    const child = spawn(process.execPath, [path.join(ROOT, "src/server/node.ts")], { cwd, env, stdio: ["ignore", "pipe", "pipe"] });
    server = child;
    const listening = await new Promise<{ port: number; host: string; database: string }>((resolve, reject) => {
      let output = "";
      const timer = setTimeout(() => reject(new Error(`server did not start:\n${output}`)), 45_000);
      child.once("exit", (code) => reject(new Error(`server exited with ${code}:\n${output}`)));
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        const line = output.split("\n").find((l) => l.includes('"msg":"listening"') && l.endsWith("}"));
        if (line) {
          clearTimeout(timer);
          resolve(JSON.parse(line));
        }
      };
      child.stdout?.on("data", onData);
      child.stderr?.on("data", onData);
    });
    // PORT=0 and HOST come from the file too.
    expect(listening).toMatchObject({ host: "127.0.0.1", database: "postgres" });
    url = `http://127.0.0.1:${listening.port}`;
    const response = await fetch(`${url}/api/v2/auth/pkey/jwt/`, {
      method: "POST",
      headers: { authorization: `PersonalKey ${credential}` },
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toHaveProperty("token");
  }, 60_000);
});
