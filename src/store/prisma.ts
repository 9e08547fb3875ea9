// Creates the Prisma client for the configured provider (SQLite through libsql, or Postgres).
import { mkdir } from "node:fs/promises";
import type { PrismaClient } from "../../prisma/generated/sqlite/client.ts";
import type { Config } from "../config/config.ts";

/** Both generated clients share one model; the SQLite client's type stands for either. */
export type Db = PrismaClient;

export async function createDb(config: Config): Promise<Db> {
  if (config.databaseProvider === "postgres") {
    const [{ PrismaPg }, { PrismaClient: PgClient }] = await Promise.all([
      import("@prisma/adapter-pg"),
      import("../../prisma/generated/postgres/client.ts"),
    ]);
    // A connection that cannot be had within 10 s fails (503, src/errors/unavailable.ts) rather than waiting forever;
    // the pool opens fresh connections once Postgres is back, so the service recovers without a restart.
    const adapter = new PrismaPg({ connectionString: config.databaseUrl, max: 10, connectionTimeoutMillis: 10_000 });
    return new PgClient({ adapter }) as unknown as Db;
  }
  await mkdir(config.dataDir, { recursive: true });
  const [{ PrismaLibSqlCaching }, { PrismaClient: SqliteClient }] = await Promise.all([
    import("./libsql-client.ts"),
    import("../../prisma/generated/sqlite/client.ts"),
  ]);
  // Statements prepared once, transactions on the client's one connection (libsql-client.ts): no connection opened per
  // transaction, and the busy_timeout below holds for every statement.
  const db = new SqliteClient({ adapter: new PrismaLibSqlCaching({ url: config.databaseUrl }) });
  // Several processes may share one SQLite file: wait for a lock rather than fail at once.
  await db.$queryRawUnsafe("PRAGMA busy_timeout = 15000");
  // The database is in WAL mode (migrate.ts): commits wait for the disk as SQLITE_SYNCHRONOUS says (config.ts).
  await db.$executeRawUnsafe(`PRAGMA synchronous = ${config.sqliteSynchronous.toUpperCase()}`);
  return db;
}
