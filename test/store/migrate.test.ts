// Start-up migrations: idempotent, and safe when several processes start on one database at once.

import { createClient } from "@libsql/client";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.ts";
import { createLogger } from "../../src/server/logger.ts";
import { migrate } from "../../src/store/migrate.ts";
import { readMigrations } from "../../src/store/migrations.ts";
import { createTestDatabase, PROVIDERS, type TestDatabase } from "../helpers/databases.ts";

const logger = createLogger("silent");

async function appliedRows(db: TestDatabase, provider: string): Promise<string[]> {
  if (provider === "postgres") {
    const client = new pg.Client({ connectionString: db.env.DATABASE_URL });
    await client.connect();
    const result = await client.query<{ name: string }>('SELECT name FROM "_gateway_migrations" ORDER BY name');
    await client.end();
    return result.rows.map((r) => r.name);
  }
  const client = createClient({ url: `file:${db.dataDir}/gateway.db` });
  const result = await client.execute('SELECT name FROM "_gateway_migrations" ORDER BY name');
  client.close();
  return result.rows.map((r) => String(r.name));
}

describe.each(PROVIDERS)("migrations on %s", (provider) => {
  let db: TestDatabase | undefined;
  afterEach(async () => {
    await db?.drop();
    db = undefined;
  });

  it("applies every migration once when four starters race, and nothing on a second start", async () => {
    db = await createTestDatabase(provider);
    const config = loadConfig(db.env);
    const results = await Promise.all([1, 2, 3, 4].map(() => migrate(config, logger)));
    const all = (await readMigrations(provider)).map((m) => m.name);
    expect(results.flat().sort()).toEqual(all);
    expect(await appliedRows(db, provider)).toEqual(all);
    expect(await migrate(config, logger)).toEqual([]);
  });
});
