// Postgres cut and restored under a running gateway (a TCP proxy in front of the shared server, never the server
// itself): 503 UNAVAILABLE with Retry-After on REST, GraphQL and /mcp, recovery without a restart, and no data lost
// by a PATCH re-parse or a dataset build that the outage cuts.
import { readdir } from "node:fs/promises";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Viewer } from "../../src/auth/viewer.ts";
import { loadConfig } from "../../src/config/config.ts";
import { createDatasetRows } from "../../src/datasets/dataset-rows.ts";
import { createDatasetService } from "../../src/datasets/datasets-service.ts";
import { asDatabaseUnavailable } from "../../src/errors/unavailable.ts";
import { createFileService, type FileService } from "../../src/files/files-service.ts";
import { parseUpload } from "../../src/ingest/parse.ts";
import { readTable } from "../../src/ingest/table-files.ts";
import { createGateway, type Gateway } from "../../src/server/gateway.ts";
import { createTestDatabase, POSTGRES_ADMIN_URL, type TestDatabase } from "../helpers/databases.ts";
import { startTcpProxy, type TcpProxy } from "../helpers/tcp-proxy.ts";

const ADMIN = { username: "admin", password: "admin-password-1" };
const MCP_INIT = {
  jsonrpc: "2.0",
  id: 1,
  method: "initialize",
  params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "test", version: "1" } },
};
const CSV = "src,dst,w\na,b,1\nb,c,2\nc,a,3\n";

/** A promise the test resolves: holds a step of a service until the database is cut. */
function gate() {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  let reached = () => {};
  const arrived = new Promise<void>((resolve) => {
    reached = resolve;
  });
  return { open, opened, reached, arrived };
}

describe("a Postgres outage under a running gateway", () => {
  let database: TestDatabase;
  let proxy: TcpProxy;
  let gateway: Gateway;
  let token: string;
  let viewer: Viewer;

  const call = (route: string, init: RequestInit = {}) =>
    gateway.fetch(new Request(`http://gateway.test${route}`, init), { clientAddress: "127.0.0.1" });
  const rest = (route: string, init: RequestInit = {}) =>
    call(route, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.headers as Record<string, string>) } });
  const graphql = (query: string) =>
    rest("/graphql", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ query }) });
  const mcp = (body: unknown, headers: Record<string, string> = {}) =>
    call("/mcp", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(body),
    });

  /** The version folders a file has on disk. */
  const versionsOf = async (id: string) => (await readdir(path.join(database.dataDir, "blobs", "files", id)).catch(() => [])).sort();

  beforeAll(async () => {
    database = await createTestDatabase("postgres");
    const target = new URL(POSTGRES_ADMIN_URL);
    proxy = await startTcpProxy(target.hostname, Number(target.port || 5432));
    const url = new URL(database.env.DATABASE_URL as string);
    url.port = String(proxy.port);
    gateway = await createGateway(
      loadConfig({
        ...database.env,
        DATABASE_URL: url.toString(),
        ADMIN_USERNAME: ADMIN.username,
        ADMIN_PASSWORD: ADMIN.password,
        LOG_LEVEL: "silent",
        // no cached viewer: each request reads the account, as a first request after a restart would
        AUTH_CACHE_SECONDS: "0",
      }),
    );
    const login = await call("/api-token-auth/", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(ADMIN),
    });
    token = ((await login.json()) as { token: string }).token;
    const found = await gateway.services.authenticator.authenticate(`Bearer ${token}`);
    if (!found) throw new Error("no viewer for the admin token");
    viewer = found;
  });
  afterAll(async () => {
    await proxy?.up();
    await gateway?.close();
    await proxy?.close();
    await database?.drop();
  });

  it("answers 503 UNAVAILABLE with Retry-After on REST, GraphQL and /mcp while it is down, and recovers by itself", async () => {
    expect((await rest("/api/v2/files/")).status).toBe(200);
    const session = (await mcp(MCP_INIT)).headers.get("mcp-session-id") ?? "";
    expect(session).not.toBe("");

    await proxy.down();
    const listed = await rest("/api/v2/files/");
    expect(listed.status).toBe(503);
    expect(listed.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(((await listed.json()) as { error: { code: string } }).error.code).toBe("UNAVAILABLE");

    const queried = await graphql("{ files(limit: 5) { count } }");
    expect(queried.status).toBe(503);
    expect(queried.headers.get("retry-after")).toMatch(/^\d+$/);
    const body = (await queried.json()) as { errors: { extensions: { code: string } }[] };
    expect(body.errors[0]?.extensions.code).toBe("UNAVAILABLE");

    const tool = await mcp(
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "list_sessions", arguments: {} } },
      { "mcp-session-id": session, authorization: `Bearer ${token}` },
    );
    expect(tool.status).toBe(503);
    expect(tool.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(((await tool.json()) as { error: { code: number } }).error.code).toBe(-32006);

    // The browser's sign-in form says the service is unavailable, not that the password was wrong.
    const signIn = await call("/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ ...ADMIN, next: "/" }).toString(),
    });
    expect(signIn.status).toBe(503);
    expect(signIn.headers.get("retry-after")).toMatch(/^\d+$/);
    const page = await signIn.text();
    expect(page).toContain("cannot sign anyone in right now");
    expect(page).not.toContain("Unable to sign in with those credentials");

    const health = await call("/ht/");
    expect(health.status).toBe(503);
    expect(((await health.json()) as { failing: string[] }).failing).toContain("database");

    await proxy.up();
    expect((await call("/ht/")).status).toBe(200);
    expect((await rest("/api/v2/files/")).status).toBe(200);
    expect((await graphql("{ files(limit: 5) { count } }")).status).toBe(200);
    const after = await mcp(
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "list_sessions", arguments: {} } },
      { "mcp-session-id": session, authorization: `Bearer ${token}` },
    );
    expect(after.status).toBeLessThan(500);
  });

  it("a PATCH re-parse cut by the outage keeps the current version, its tables and the settings", async () => {
    const { db, blobs } = gateway.services;
    const held = gate();
    let holding = false;
    // The real parser, held once it has run until the database is cut: the outage lands between parse and record.
    const files: FileService = createFileService({
      db,
      blobs,
      maxUploadBytes: 1 << 20,
      decompress: { maxBytes: 1 << 24, maxRatio: 100, floorBytes: 1 << 20 },
      parse: async (request, timings) => {
        const schemas = await parseUpload(request, timings);
        if (holding) {
          held.reached();
          await held.opened;
        }
        return schemas;
      },
    });
    const created = await files.create(viewer, { fileType: "csv", name: "edges.csv" });
    const uploaded = await files.upload(viewer, created.id, new Blob([CSV]), true);
    expect(uploaded.isValid).toBe(true);
    const kept = uploaded.dataVersion as string;

    holding = true;
    const patch = files.update(viewer, created.id, { parserOptions: { sep: ";" } }).then(
      () => undefined,
      (error: unknown) => error,
    );
    await held.arrived;
    await proxy.down();
    held.open();
    const failure = await patch;
    expect(asDatabaseUnavailable(failure)?.code).toBe("UNAVAILABLE");
    await proxy.up();

    const after = await files.get(viewer, created.id);
    expect(after).toMatchObject({ isValid: true, dataVersion: kept, parserOptions: uploaded.parserOptions });
    expect(await versionsOf(created.id)).toEqual([kept]);
    const table = readTable(blobs.pathOf("files", created.id, kept, "tables", "0.arrow"));
    expect(table.height).toBe(3);
  });

  it("an upload cut by the outage leaves the current version as it was and no new one", async () => {
    const { db, blobs } = gateway.services;
    const held = gate();
    let holding = false;
    const files: FileService = createFileService({
      db,
      blobs,
      maxUploadBytes: 1 << 20,
      decompress: { maxBytes: 1 << 24, maxRatio: 100, floorBytes: 1 << 20 },
      parse: async (request, timings) => {
        const schemas = await parseUpload(request, timings);
        if (holding) {
          held.reached();
          await held.opened;
        }
        return schemas;
      },
    });
    const created = await files.create(viewer, { fileType: "csv", name: "edges.csv" });
    const kept = (await files.upload(viewer, created.id, new Blob([CSV]), true)).dataVersion as string;

    holding = true;
    const uploading = files.upload(viewer, created.id, new Blob(["src,dst\nx,y\n"]), true).then(
      () => undefined,
      (error: unknown) => error,
    );
    await held.arrived;
    await proxy.down();
    held.open();
    expect(asDatabaseUnavailable(await uploading)?.code).toBe("UNAVAILABLE");
    await proxy.up();

    expect(await files.get(viewer, created.id)).toMatchObject({ isValid: true, dataVersion: kept });
    expect(await versionsOf(created.id)).toEqual([kept]);
  });

  it("a dataset build cut by the outage leaves no listed dataset and no tables", async () => {
    const { db, blobs, files } = gateway.services;
    const file = await files.create(viewer, { fileType: "csv", name: "edges.csv" });
    await files.upload(viewer, file.id, new Blob([CSV]), true);
    const held = gate();
    // The build reads its file through this, then is held until the database is cut.
    const slowFiles = {
      ...files,
      tablePath: async (...args: Parameters<FileService["tablePath"]>) => {
        const found = await files.tablePath(...args);
        held.reached();
        await held.opened;
        return found;
      },
    };
    const datasets = createDatasetService({
      db,
      blobs,
      files: slowFiles,
      maxUploadBytes: 1 << 20,
      decompress: { maxBytes: 1 << 24, maxRatio: 100, floorBytes: 1 << 20 },
      defaultSharingMode: "private",
      datasetRows: createDatasetRows(db),
    });
    const before = await readdir(path.join(database.dataDir, "blobs", "datasets")).catch(() => []);
    const creating = datasets
      .create(viewer, {
        name: "cut",
        metadata: {},
        nodeEncodings: { bindings: {} },
        edgeEncodings: { bindings: {} },
        edgeFiles: [file.id],
        edgeHypergraphTransform: [{ entity_types: ["src", "dst"], direct: true }],
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    await held.arrived;
    await proxy.down();
    held.open();
    expect(asDatabaseUnavailable(await creating)?.code).toBe("UNAVAILABLE");
    await proxy.up();

    expect((await datasets.list(viewer, { limit: 100, offset: 0 })).items.map((d) => d.name)).not.toContain("cut");
    expect(await readdir(path.join(database.dataDir, "blobs", "datasets")).catch(() => [])).toEqual(before);
  });
});
