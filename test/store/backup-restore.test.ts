// `npm run cli -- backup` / `restore`: an archive of the database and DATA_DIR, taken while the service runs, restored
// onto an empty DATA_DIR and database, gives a service with the same users, files, datasets and signing keys.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { decodeProtectedHeader } from "jose";
import { afterAll, describe, expect, it } from "vitest";
import { main as cli } from "../../src/cli/main.ts";
import { loadConfig } from "../../src/config/config.ts";
import { createGateway, type Gateway } from "../../src/server/gateway.ts";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/databases.ts";

// biome-ignore lint/suspicious/noExplicitAny: answers of many shapes, read field by field
type Json = Record<string, any>;
const ADMIN = { username: "root", password: "root-password-1" };
const CSV = "s,d,w\na,b,1\nb,c,2\nc,a,3\nc,d,4\n";

function client(gateway: Gateway) {
  const call = async (url: string, init: RequestInit & { token?: string; json?: unknown } = {}) => {
    const headers = new Headers(init.headers);
    if (init.token) headers.set("authorization", `Bearer ${init.token}`);
    if (init.json !== undefined) headers.set("content-type", "application/json");
    const body = init.json !== undefined ? JSON.stringify(init.json) : init.body;
    const answer = await gateway.fetch(new Request(`http://t${url}`, { method: init.method, headers, ...(body ? { body } : {}) }), {
      clientAddress: "127.0.0.1",
    });
    const text = await answer.text();
    return { status: answer.status, body: (text ? JSON.parse(text) : {}) as Json };
  };
  const login = async () => (await call("/api-token-auth/", { method: "POST", json: ADMIN })).body.token as string;
  const gql = async (token: string, query: string, variables: Record<string, unknown> = {}) =>
    (await call("/graphql", { method: "POST", token, json: { query, variables } })).body;
  return { call, login, gql };
}

async function quietly(work: () => Promise<number>): Promise<number> {
  const [log, error] = [console.log, console.error];
  const said: string[] = [];
  console.log = (...args) => said.push(args.join(" "));
  console.error = (...args) => said.push(args.join(" "));
  try {
    return await work();
  } finally {
    console.log = log;
    console.error = error;
  }
}

describe.each(PROVIDERS)("backup and restore (%s)", (provider) => {
  const cleanup: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it("restores onto an empty DATA_DIR and database a service with the same files, datasets and tokens", async () => {
    const source: TestDatabase = await createTestDatabase(provider);
    cleanup.push(() => source.drop());
    const sourceConfig = loadConfig({ ...source.env, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: "silent" });
    const first = await createGateway(sourceConfig);
    cleanup.push(() => first.close());
    const a = client(first);
    const legacyToken = await a.login();
    // A rotated signing key: tokens of it must verify after the restore too.
    await first.services.jwtKeys.rotate();
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const token = await a.login();
    expect(decodeProtectedHeader(token).kid).toBeDefined();
    const file = (await a.call("/api/v2/files/", { method: "POST", token, json: { file_type: "csv", name: "edges" } })).body;
    expect((await a.call(`/api/v2/upload/files/${file.file_id}`, { method: "POST", token, body: CSV })).status).toBe(200);
    const made = await a.call("/api/v2/upload/datasets/", {
      method: "POST",
      token,
      json: {
        name: "kept",
        metadata: {},
        node_encodings: { bindings: {} },
        edge_encodings: { bindings: { source: "s", destination: "d" } },
        edge_files: [file.file_id],
      },
    });
    const datasetId = made.body.data.dataset_id as string;
    const edgesOf = async (c: ReturnType<typeof client>, t: string) =>
      (
        await c.call(`/api/v2/etl/datasets/${datasetId}/gfql/edges`, {
          method: "POST",
          token: t,
          json: { gfql_operations: [{ type: "Node" }, { type: "Edge", direction: "forward" }, { type: "Node" }] },
        })
      ).body;
    const edgesBefore = await edgesOf(a, token);
    expect(Array.isArray(edgesBefore) && edgesBefore.length).toBe(4);

    // The backup, with the service running.
    const work = await mkdtemp(path.join(os.tmpdir(), "gw-backup-test-"));
    cleanup.push(() => rm(work, { recursive: true, force: true }));
    const archive = path.join(work, "backup.tar.gz");
    expect(await quietly(() => cli(["backup", archive], sourceConfig))).toBe(0);

    const target = await createTestDatabase(provider);
    cleanup.push(() => target.drop());
    const targetConfig = loadConfig({ ...target.env, LOG_LEVEL: "silent" });
    expect(await quietly(() => cli(["restore", archive], targetConfig))).toBe(0);
    // Never over data: a second restore onto the now filled target is refused.
    expect(await quietly(() => cli(["restore", archive], targetConfig))).toBe(1);
    expect(await quietly(() => cli(["restore", path.join(work, "missing.tar.gz")], targetConfig))).toBe(1);

    const second = await createGateway(targetConfig);
    cleanup.push(() => second.close());
    const b = client(second);
    // Tokens of before the backup, of the legacy secret and of the rotated key, still work; so does the password.
    for (const t of [token, legacyToken]) expect((await b.gql(t, "{ caller { username } }")).data?.caller?.username).toBe(ADMIN.username);
    const fresh = await b.login();
    expect(decodeProtectedHeader(fresh).kid).toBe(decodeProtectedHeader(token).kid);
    const files = (await b.call("/api/v2/files/", { token: fresh })).body;
    expect(files.results.map((f: { file_id: string }) => f.file_id)).toEqual([file.file_id]);
    expect(await edgesOf(b, fresh)).toEqual(edgesBefore);
    const dataset = await b.gql(fresh, "query($id: ID!) { dataset(id: $id) { name edgeCount } }", { id: datasetId });
    expect(dataset.data.dataset).toEqual({ name: "kept", edgeCount: 4 });
    // And it keeps working: a new upload.
    const next = (await b.call("/api/v2/files/", { method: "POST", token: fresh, json: { file_type: "csv" } })).body;
    expect((await b.call(`/api/v2/upload/files/${next.file_id}`, { method: "POST", token: fresh, body: CSV })).status).toBe(200);
  });
});
