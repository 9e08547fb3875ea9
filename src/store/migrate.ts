// Applies pending migrations at start-up, serialized across processes by a database lock.
import { mkdir } from "node:fs/promises";
import { createClient } from "@libsql/client";
import pg from "pg";
import type { Config } from "../config/config.ts";
import type { Logger } from "../server/logger.ts";
import { secureDataDir } from "./data-dir.ts";
import { pending, readMigrations } from "./migrations.ts";

const TABLE = `CREATE TABLE IF NOT EXISTS "_gateway_migrations" (
  "name" TEXT PRIMARY KEY, "checksum" TEXT NOT NULL, "applied_at" TEXT NOT NULL)`;
/** Arbitrary constant naming our advisory lock in Postgres. */
const PG_LOCK_KEY = 7_451_203_881;

export async function migrate(config: Config, logger: Logger): Promise<string[]> {
  // first of all: what the service writes under DATA_DIR is its user's alone
  await secureDataDir(config.dataDir);
  return config.databaseProvider === "postgres" ? migratePostgres(config, logger) : migrateSqlite(config, logger);
}

async function migratePostgres(config: Config, logger: Logger): Promise<string[]> {
  const all = await readMigrations("postgres");
  const client = new pg.Client({ connectionString: config.databaseUrl });
  await client.connect();
  try {
    await client.query("BEGIN");
    // Transaction-scoped lock: a second process waits here, then sees the work as done.
    await client.query("SELECT pg_advisory_xact_lock($1)", [PG_LOCK_KEY]);
    await client.query(TABLE);
    const rows = await client.query<{ name: string; checksum: string }>('SELECT name, checksum FROM "_gateway_migrations"');
    const todo = pending(all, new Map(rows.rows.map((r) => [r.name, r.checksum])));
    for (const migration of todo) {
      await client.query(migration.sql);
      await client.query('INSERT INTO "_gateway_migrations" (name, checksum, applied_at) VALUES ($1, $2, $3)', [
        migration.name,
        migration.checksum,
        new Date().toISOString(),
      ]);
      logger.info("migration applied", { provider: "postgres", migration: migration.name });
    }
    await client.query("COMMIT");
    return todo.map((m) => m.name);
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    await client.end();
  }
}

async function migrateSqlite(config: Config, logger: Logger): Promise<string[]> {
  const all = await readMigrations("sqlite");
  await mkdir(config.dataDir, { recursive: true });
  const client = createClient({ url: config.databaseUrl });
  try {
    await client.execute("PRAGMA busy_timeout = 15000");
    await client.execute("PRAGMA journal_mode = WAL");
    // BEGIN IMMEDIATE takes the write lock first, so concurrent starters queue up instead of racing.
    const tx = await client.transaction("write");
    try {
      await tx.execute(TABLE);
      const rows = await tx.execute('SELECT name, checksum FROM "_gateway_migrations"');
      const applied = new Map(rows.rows.map((r) => [String(r.name), String(r.checksum)]));
      const todo = pending(all, applied);
      for (const migration of todo) {
        await tx.executeMultiple(migration.sql);
        await tx.execute({
          sql: 'INSERT INTO "_gateway_migrations" (name, checksum, applied_at) VALUES (?, ?, ?)',
          args: [migration.name, migration.checksum, new Date().toISOString()],
        });
        logger.info("migration applied", { provider: "sqlite", migration: migration.name });
      }
      await tx.commit();
      return todo.map((m) => m.name);
    } catch (error) {
      await tx.rollback().catch(() => {});
      throw error;
    }
  } finally {
    client.close();
  }
}
