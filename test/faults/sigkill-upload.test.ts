// The real server killed with SIGKILL mid-upload and mid-PATCH re-parse, then restarted on the same DATA_DIR: the
// file keeps its valid data, and the startup sweep removes what the killed requests left.
import { readdir, stat } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTable } from "../../src/ingest/table-files.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { type ServerProcess, startServer } from "../helpers/server-process.ts";

const ADMIN = { username: "admin", password: "admin-password-1" };
type FileBody = { file_id: string; is_valid: boolean; bytes_count: number | null; tables_schemas: { num_rows: number }[] };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const found = await probe();
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

describe("SIGKILL mid-upload and mid-re-parse", () => {
  let database: TestDatabase;
  let server: ServerProcess;
  let token = "";
  /** The large file of the re-parse case, which the dataset case builds from. */
  let bigFile = "";
  const env = () => ({ ...database.env, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password });

  const api = async <T>(route: string, init: RequestInit = {}) => {
    const response = await fetch(`${server.url}${route}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json", ...(init.headers as Record<string, string>) },
    });
    return { status: response.status, body: (await response.json()) as T };
  };
  const versions = async (id: string) => (await readdir(path.join(database.dataDir, "blobs", "files", id)).catch(() => [])).sort();
  /** Starts the server again on the same data and waits for its startup sweep to finish. */
  const restart = async () => {
    await server.stop("SIGKILL");
    server = await startServer(env());
    await until("the blob sweep", async () => (server.logs.join("").includes('"msg":"blob sweep"') ? true : undefined));
    token = (await api<{ token: string }>("/api-token-auth/", { method: "POST", body: JSON.stringify(ADMIN) })).body.token;
  };

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    server = await startServer(env());
    token = (await api<{ token: string }>("/api-token-auth/", { method: "POST", body: JSON.stringify(ADMIN) })).body.token;
  }, 60_000);
  afterAll(async () => {
    await server?.stop("SIGKILL");
    await database?.drop();
  });

  it("a killed upload leaves nothing after the restart, and the file keeps its data", async () => {
    const { body: file } = await api<FileBody>("/api/v2/files/", { method: "POST", body: JSON.stringify({ file_type: "csv" }) });
    const first = await api<FileBody>(`/api/v2/upload/files/${file.file_id}`, { method: "POST", body: "a,b\n1,2\n3,4\n" });
    expect(first.body.is_valid).toBe(true);
    const [kept] = await versions(file.file_id);

    // 8 MiB sent, then the body stalls: the server is killed while it receives.
    const chunk = new Uint8Array(1 << 20).fill(97);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (sent >= 8) {
          await sleep(60_000);
          return;
        }
        sent += 1;
        controller.enqueue(chunk);
      },
    });
    const pending = fetch(`${server.url}/api/v2/upload/files/${file.file_id}`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}` },
      body,
      duplex: "half",
    } as RequestInit).catch(() => undefined);
    const partial = await until("a partial version", async () => {
      const other = (await versions(file.file_id)).find((v) => v !== kept);
      if (!other) return undefined;
      const names = await readdir(path.join(database.dataDir, "blobs", "files", file.file_id, other)).catch(() => []);
      // A CSV upload that may be parsed as it arrives is written in place (raw); others under a temporary name.
      const part = names.find((n) => n === "raw" || n.startsWith("raw.part-"));
      if (!part) return undefined;
      const size = (await stat(path.join(database.dataDir, "blobs", "files", file.file_id, other, part)).catch(() => undefined))?.size;
      return size !== undefined && size >= 4 << 20 ? other : undefined;
    });
    await server.stop("SIGKILL");
    await pending;
    expect(await versions(file.file_id)).toEqual([kept, partial].sort());

    await restart();
    expect(await versions(file.file_id)).toEqual([kept]);
    const after = await api<FileBody>(`/api/v2/files/${file.file_id}`);
    expect(after.body).toMatchObject({ is_valid: true, bytes_count: first.body.bytes_count });
  }, 90_000);

  it("a killed PATCH re-parse leaves the file valid with its current version and tables", async () => {
    const { body: file } = await api<FileBody>("/api/v2/files/", { method: "POST", body: JSON.stringify({ file_type: "csv" }) });
    // Big enough that parsing it again takes a while: the kill lands during the re-parse.
    const rows = 400_000;
    const csv = `a,b,c\n${Array.from({ length: rows }, (_, i) => `${i},${i % 97},row ${i}`).join("\n")}\n`;
    const first = await api<FileBody>(`/api/v2/upload/files/${file.file_id}`, { method: "POST", body: csv });
    expect(first.body.is_valid).toBe(true);
    const [kept] = await versions(file.file_id);
    const tables = path.join(database.dataDir, "blobs", "files", file.file_id, kept as string, "tables");

    const pending = api(`/api/v2/upload/files/${file.file_id}/`, {
      method: "PATCH",
      body: JSON.stringify({ parser_options: { sep: "," } }),
    }).catch(() => undefined);
    // The re-parse has begun once a new version exists (or, as the service did, once the current tables went).
    await until("the re-parse to begin", async () => {
      const begun = (await versions(file.file_id)).some((v) => v !== kept);
      const gone = (await readdir(tables).catch(() => [])).length === 0;
      return begun || gone ? true : undefined;
    });
    await server.stop("SIGKILL");
    await pending;

    await restart();
    expect(await versions(file.file_id)).toEqual([kept]);
    const after = await api<FileBody>(`/api/v2/files/${file.file_id}`);
    expect(after.body).toMatchObject({ is_valid: true, tables_schemas: [{ num_rows: rows }] });
    expect(readTable(path.join(tables, "0.arrow")).height).toBe(rows);
    bigFile = file.file_id;
  }, 90_000);

  it("a dataset build killed while it writes its tables is not listed after the restart, and leaves no tables", async () => {
    expect(bigFile).not.toBe("");
    const datasetsDir = path.join(database.dataDir, "blobs", "datasets");
    const before: string[] = await readdir(datasetsDir).catch(() => []);
    const pending = api("/api/v2/upload/datasets/", {
      method: "POST",
      body: JSON.stringify({
        name: "killed-build",
        metadata: {},
        node_encodings: { bindings: {} },
        edge_encodings: { bindings: {} },
        edge_files: [bigFile],
        edge_hypergraph_transform: [{}],
      }),
    }).catch(() => undefined);
    // The build writes its tables: a new dataset folder whose table version is marked as being written. (A kill in
    // the instant between making the folder and marking it leaves an unmarked folder, which the sweep removes only
    // after its 2-minute grace: waiting for the mark keeps this test on the case it is about.)
    const marked = async () => {
      for (const id of await readdir(datasetsDir).catch(() => [])) {
        if (before.includes(id)) continue;
        const tables = path.join(datasetsDir, id, "tables");
        for (const version of await readdir(tables).catch(() => [])) {
          if (
            await stat(path.join(tables, version, ".writing")).then(
              () => true,
              () => false,
            )
          )
            return true;
        }
      }
      return undefined;
    };
    await until("the build to write", marked);
    await server.stop("SIGKILL");
    await pending;

    await restart();
    const listed = await api<{ results: { name: string }[] }>("/api/v2/datasets/?limit=1000");
    expect(listed.body.results.map((d) => d.name)).not.toContain("killed-build");
    expect(await readdir(datasetsDir).catch(() => [])).toEqual(before);
  }, 90_000);
});
