// DATA_DIR is the service user's alone: a folder made earlier with open modes is closed at start, and the database,
// the JWT secret and uploaded tables are written without group or other permissions.
import { chmod, mkdir, readdir, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { ADMIN } from "../helpers/gateway.ts";
import { bearer, postJson } from "../helpers/http.ts";
import { type ServerProcess, startServer } from "../helpers/server-process.ts";

async function walk(dir: string): Promise<string[]> {
  const found: string[] = [dir];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const target = path.join(dir, entry.name);
    if (entry.isDirectory()) found.push(...(await walk(target)));
    else found.push(target);
  }
  return found;
}

describe("DATA_DIR modes", () => {
  let db: TestDatabase;
  let server: ServerProcess;
  let dataDir = "";

  beforeAll(async () => {
    db = await createTestDatabase("sqlite");
    dataDir = path.join(db.dataDir, "open-data");
    await mkdir(dataDir, { mode: 0o755 });
    await chmod(dataDir, 0o755);
    await writeFile(path.join(dataDir, "left-by-hand.txt"), "x", { mode: 0o644 });
    server = await startServer({ DATA_DIR: dataDir, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password });
  });
  afterAll(async () => {
    await server?.stop("SIGKILL");
    await db?.drop();
  });

  it("closes the folder at start and writes every file for the service's user only", async () => {
    const token = String((await postJson(server.url, "/api-token-auth/", ADMIN)).body.token);
    const file = await postJson(server.url, "/api/v2/files/", { file_type: "csv" }, bearer(token));
    const upload = await fetch(`${server.url}/api/v2/upload/files/${file.body.file_id}`, {
      method: "POST",
      headers: bearer(token),
      body: "s,d\na,b\nb,c\n",
    });
    expect(upload.status).toBe(200);
    expect(((await stat(dataDir)).mode & 0o777).toString(8)).toBe("700");
    const everything = await walk(dataDir);
    expect(everything.length).toBeGreaterThan(4); // the database, the secret, the upload's blob and table
    const open = [];
    for (const target of everything) {
      const mode = (await stat(target)).mode & 0o777;
      if ((mode & 0o077) !== 0) open.push(`${path.relative(dataDir, target) || "."} ${mode.toString(8)}`);
    }
    expect(open).toEqual([]);
  });
});
