// Test databases: a fresh SQLite folder, or a fresh Postgres database on the local server.
import { randomBytes } from "node:crypto";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pg from "pg";

export type Provider = "sqlite" | "postgres";

/** Both providers, always: the suite must pass on SQLite and on the local Postgres. */
export const PROVIDERS: readonly Provider[] = ["sqlite", "postgres"];

export const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? "postgres://postgres@127.0.0.1:5432/test";

export type TestDatabase = { env: Record<string, string>; dataDir: string; drop(): Promise<void> };

export async function createTestDatabase(provider: Provider): Promise<TestDatabase> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), "gw-test-"));
  if (provider === "sqlite") {
    return { env: { DATA_DIR: dataDir }, dataDir, drop: () => rm(dataDir, { recursive: true, force: true }) };
  }
  const name = `gw_test_${randomBytes(6).toString("hex")}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: url.toString() },
    dataDir,
    async drop() {
      await rm(dataDir, { recursive: true, force: true });
      const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await client.end();
    },
  };
}
