// The upgrade path: a database left at each earlier schema version (migration N), holding the rows that version had
// (accounts, keys, organizations, files with their tables, datasets, live sessions, collections), is brought up to date
// at start and serves them: sign-in, key exchange, file lists, GFQL over the dataset, the session's collections.
import { cp } from "node:fs/promises";
import path from "node:path";
import { createClient } from "@libsql/client";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.ts";
import { createGateway, type Gateway } from "../../src/server/gateway.ts";
import { type Migration, readMigrations } from "../../src/store/migrations.ts";
import { createTestDatabase, PROVIDERS, type Provider, type TestDatabase } from "../helpers/databases.ts";

// biome-ignore lint/suspicious/noExplicitAny: answers of many shapes, read field by field
type Json = Record<string, any>;
type Row = Record<string, unknown>;
const ADMIN = { username: "root", password: "root-password-1" };
const CSV = "s,d,w\na,b,1\nb,c,2\nc,a,3\nc,d,4\n";
const CHAIN = [{ type: "Node" }, { type: "Edge", direction: "forward" }, { type: "Node" }];

/** Plain SQL on either provider. */
type Sql = {
  rows(sql: string, args?: unknown[]): Promise<Row[]>;
  run(sql: string, args?: unknown[]): Promise<void>;
  close(): Promise<void>;
};

async function connect(provider: Provider, env: Record<string, string>): Promise<Sql> {
  const config = loadConfig(env);
  if (provider === "postgres") {
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    // jsonb values come back parsed: written back as JSON text.
    const value = (v: unknown) =>
      v !== null && typeof v === "object" && !(v instanceof Date) && !Buffer.isBuffer(v) ? JSON.stringify(v) : v;
    return {
      rows: async (sql, args = []) => (await client.query(sql, args.map(value))).rows,
      run: async (sql, args = []) => void (await client.query(sql, args.map(value))),
      close: () => client.end(),
    };
  }
  const client = createClient({ url: config.databaseUrl });
  return {
    rows: async (sql, args = []) => {
      const result = await client.execute({ sql: sql.replace(/\$\d+/g, "?"), args: args as never });
      return result.rows.map((row) => Object.fromEntries(result.columns.map((c, i) => [c, row[i]])));
    },
    run: async (sql, args = []) => {
      if (args.length === 0) await client.executeMultiple(sql);
      else await client.execute({ sql: sql.replace(/\$\d+/g, "?"), args: args as never });
    },
    close: async () => client.close(),
  };
}

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
  const gql = async (token: string, query: string, variables: Record<string, unknown> = {}) => {
    const answer = (await call("/graphql", { method: "POST", token, json: { query, variables } })).body;
    if (answer.errors) throw new Error(JSON.stringify(answer.errors));
    return answer.data as Json;
  };
  return { call, login, gql };
}

/** Tables in the order the migrations create them (foreign keys point backwards), with the migration of each. */
function tablesOf(migrations: Migration[]): { table: string; at: number }[] {
  return migrations.flatMap((m, i) =>
    [...m.sql.matchAll(/CREATE TABLE "(\w+)"/g)].map((match) => ({ table: match[1] as string, at: i + 1 })),
  );
}

async function columnsOf(provider: Provider, sql: Sql, table: string): Promise<string[]> {
  const rows =
    provider === "postgres"
      ? await sql.rows(
          "SELECT column_name AS name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1",
          [table],
        )
      : await sql.rows(`SELECT name FROM pragma_table_info('${table}')`);
  return rows.map((r) => String(r.name));
}

describe.each(PROVIDERS)("upgrade from each earlier schema version (%s)", (provider) => {
  let donor: TestDatabase;
  let migrations: Migration[];
  let donorRows: Map<string, Row[]>;
  const made: Json = {};
  const cleanup: (() => Promise<unknown>)[] = [];

  beforeAll(async () => {
    migrations = await readMigrations(provider);
    // The rows: made by today's service through its API, then written into each older schema with the columns it had.
    donor = await createTestDatabase(provider);
    cleanup.push(() => donor.drop());
    const gateway = await createGateway(
      loadConfig({ ...donor.env, ADMIN_USERNAME: ADMIN.username, ADMIN_PASSWORD: ADMIN.password, LOG_LEVEL: "silent" }),
    );
    try {
      const c = client(gateway);
      const token = await c.login();
      await c.gql(token, 'mutation { createOrganization(slug: "acme", name: "Acme") { slug } }');
      made.key = (await c.gql(token, 'mutation { createPersonalKey(name: "old") { credential } }')).createPersonalKey.credential;
      made.fileId = (await c.call("/api/v2/files/", { method: "POST", token, json: { file_type: "csv" } })).body.file_id;
      expect((await c.call(`/api/v2/upload/files/${made.fileId}`, { method: "POST", token, body: CSV })).status).toBe(200);
      made.datasetId = (
        await c.call("/api/v2/upload/datasets/", {
          method: "POST",
          token,
          json: {
            name: "old",
            metadata: {},
            node_encodings: { bindings: {} },
            edge_encodings: { bindings: { source: "s", destination: "d" } },
            edge_files: [made.fileId],
          },
        })
      ).body.data.dataset_id;
      made.sessionId = (
        await c.gql(token, "mutation($d: ID!) { openVizSession(datasetId: $d) { id } }", { d: made.datasetId })
      ).openVizSession.id;
      await c.gql(token, "mutation($i: CreateCollectionInput!) { createCollection(input: $i) { id } }", {
        i: { sessionId: made.sessionId, name: "kept", query: [{ type: "Node", filter_dict: { node: "a" } }] },
      });
      made.edges = (
        await c.call(`/api/v2/etl/datasets/${made.datasetId}/gfql/edges`, { method: "POST", token, json: { gfql_operations: CHAIN } })
      ).body;
      expect(made.edges).toHaveLength(4);
    } finally {
      await gateway.close();
    }
    const sql = await connect(provider, donor.env);
    donorRows = new Map();
    for (const { table } of tablesOf(migrations)) donorRows.set(table, await sql.rows(`SELECT * FROM "${table}"`));
    await sql.close();
  }, 180_000);
  afterAll(async () => {
    for (const step of cleanup.reverse()) await step();
  });

  it("has an older version to start from for every migration but the last", () => {
    expect(migrations.length).toBeGreaterThanOrEqual(12);
  });

  // N = 1 .. (all but the last): the database as that version left it.
  const versions = Array.from({ length: 11 }, (_, i) => i + 1);
  it.concurrent.each(versions)(
    "from migration %i",
    async (n) => {
      const target = await createTestDatabase(provider);
      cleanup.push(() => target.drop());
      const sql = await connect(provider, target.env);
      try {
        await sql.run(
          'CREATE TABLE IF NOT EXISTS "_gateway_migrations" ("name" TEXT PRIMARY KEY, "checksum" TEXT NOT NULL, "applied_at" TEXT NOT NULL)',
        );
        for (const migration of migrations.slice(0, n)) {
          await sql.run(migration.sql);
          await sql.run('INSERT INTO "_gateway_migrations" (name, checksum, applied_at) VALUES ($1, $2, $3)', [
            migration.name,
            migration.checksum,
            new Date().toISOString(),
          ]);
        }
        for (const { table, at } of tablesOf(migrations)) {
          if (at > n) continue;
          const columns = await columnsOf(provider, sql, table);
          for (const row of donorRows.get(table) ?? []) {
            const values = columns.map((column) => row[column]);
            // Before organization roles (0011) there were no owners: the creator was an admin.
            if (table === "memberships" && n < 11 && row.role === "owner") values[columns.indexOf("role")] = "admin";
            const list = columns.map((column) => `"${column}"`).join(", ");
            await sql.run(`INSERT INTO "${table}" (${list}) VALUES (${columns.map((_, i) => `$${i + 1}`).join(", ")})`, values);
          }
          if (provider === "postgres" && typeof donorRows.get(table)?.[0]?.id === "number") {
            await sql.run(`SELECT setval(pg_get_serial_sequence('"${table}"', 'id')::regclass, (SELECT max("id") FROM "${table}"))`);
          }
        }
      } finally {
        await sql.close();
      }
      if (n >= 2) await cp(path.join(donor.dataDir, "blobs"), path.join(target.dataDir, "blobs"), { recursive: true });

      const gateway = await createGateway(loadConfig({ ...target.env, LOG_LEVEL: "silent" }));
      try {
        const c = client(gateway);
        const token = await c.login();
        expect(token).toBeTruthy();
        const exchanged = await c.call("/api/v2/auth/pkey/jwt/", { method: "POST", headers: { authorization: `PersonalKey ${made.key}` } });
        expect(exchanged.status).toBe(200);
        if (n >= 2) {
          const files = (await c.call("/api/v2/files/", { token })).body;
          expect(files.results.map((f: Json) => f.file_id)).toContain(made.fileId);
        }
        if (n >= 3) {
          const edges = (
            await c.call(`/api/v2/etl/datasets/${made.datasetId}/gfql/edges`, { method: "POST", token, json: { gfql_operations: CHAIN } })
          ).body;
          expect(edges).toEqual(made.edges);
        }
        if (n >= 4) {
          const session = await c.gql(token, "query($id: ID!) { vizSession(id: $id) { id collections { name } } }", { id: made.sessionId });
          expect(session.vizSession.collections.map((x: Json) => x.name)).toEqual(n >= 5 ? ["kept"] : []);
        }
        // The organization has its owner (0011 made the earliest admin one).
        const check = await connect(provider, target.env);
        try {
          expect((await check.rows('SELECT "role" FROM "memberships"')).map((r) => r.role)).toEqual(["owner"]);
        } finally {
          await check.close();
        }
        // And it keeps working: a new file, uploaded.
        const next = (await c.call("/api/v2/files/", { method: "POST", token, json: { file_type: "csv" } })).body;
        expect((await c.call(`/api/v2/upload/files/${next.file_id}`, { method: "POST", token, body: CSV })).status).toBe(200);
      } finally {
        await gateway.close();
      }
    },
    180_000,
  ); // one service start each, several at once: slow on a loaded machine
});
