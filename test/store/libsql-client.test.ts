// The SQLite client (src/store/libsql-client.ts): transactions on the client's one connection, committed and rolled
// back as before, and the busy_timeout set at start still holds after them (a connection opened per transaction had
// none); statements prepared once; commits as durable as SQLITE_SYNCHRONOUS says.
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.ts";
import { PrismaLibSqlCaching } from "../../src/store/libsql-client.ts";
import { createDb, type Db } from "../../src/store/prisma.ts";

describe("SQLite transactions on one connection", () => {
  let dir = "";
  let db: Db;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "one-connection-"));
    db = await createDb(loadConfig({ DATA_DIR: dir, ENV_FILE: "", LOG_LEVEL: "silent" }));
    // WAL mode is set once per database file (the start-up migrations do it).
    await db.$queryRawUnsafe("PRAGMA journal_mode = WAL");
    await db.$executeRawUnsafe("CREATE TABLE t (x INTEGER)");
  });
  afterAll(async () => {
    await db?.$disconnect();
    await rm(dir, { recursive: true, force: true });
  });

  const values = async () => ((await db.$queryRawUnsafe("SELECT x FROM t ORDER BY x")) as { x: number | bigint }[]).map((r) => Number(r.x));
  const busyTimeout = async () => Number(((await db.$queryRawUnsafe("PRAGMA busy_timeout")) as Record<string, unknown>[])[0]?.timeout);

  it("commits, rolls back on a throw, and keeps busy_timeout for the statements after", async () => {
    expect(await busyTimeout()).toBe(15000);
    await db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("INSERT INTO t VALUES (1)");
      await tx.$executeRawUnsafe("INSERT INTO t VALUES (2)");
    });
    expect(await values()).toEqual([1, 2]);
    await expect(
      db.$transaction(async (tx) => {
        await tx.$executeRawUnsafe("INSERT INTO t VALUES (3)");
        throw new Error("changed my mind");
      }),
    ).rejects.toThrow("changed my mind");
    expect(await values()).toEqual([1, 2]);
    // A failing statement inside: the whole transaction goes.
    await expect(
      db.$transaction(async (tx) => {
        await tx.$executeRawUnsafe("INSERT INTO t VALUES (4)");
        await tx.$executeRawUnsafe("INSERT INTO nowhere VALUES (5)");
      }),
    ).rejects.toThrow();
    expect(await values()).toEqual([1, 2]);
    expect(await busyTimeout()).toBe(15000);
  });

  it("commits wait for the disk as SQLITE_SYNCHRONOUS says: NORMAL by default in WAL mode, FULL when set", async () => {
    const pragma = async (on: Db, name: string) =>
      Object.values(((await on.$queryRawUnsafe(`PRAGMA ${name}`)) as Record<string, unknown>[])[0] ?? {})[0];
    expect(String(await pragma(db, "journal_mode")).toLowerCase()).toBe("wal");
    expect(Number(await pragma(db, "synchronous"))).toBe(1);
    const full = await createDb(loadConfig({ DATA_DIR: dir, ENV_FILE: "", LOG_LEVEL: "silent", SQLITE_SYNCHRONOUS: "full" }));
    try {
      expect(Number(await pragma(full, "synchronous"))).toBe(2);
    } finally {
      await full.$disconnect();
    }
    expect(() => loadConfig({ DATA_DIR: dir, ENV_FILE: "", SQLITE_SYNCHRONOUS: "sometimes" })).toThrow(/SQLITE_SYNCHRONOUS/);
  });

  it("reads and writes values as @libsql/client does: blobs, integers, nulls, named arguments, counts of changed rows", async () => {
    await db.$executeRawUnsafe("CREATE TABLE v (k TEXT PRIMARY KEY, b BLOB, n INTEGER, r REAL)");
    expect(await db.$executeRawUnsafe("INSERT INTO v VALUES ('a', x'00ff10', 9007199254740991, 1.5), ('b', NULL, -3, NULL)")).toBe(2);
    const rows = (await db.$queryRawUnsafe("SELECT k, b, n, r FROM v ORDER BY k")) as Record<string, unknown>[];
    expect(Array.from(rows[0]?.b as Uint8Array)).toEqual([0, 255, 16]);
    expect(Number(rows[0]?.n)).toBe(9007199254740991);
    expect(rows[0]?.r).toBe(1.5);
    expect(rows[1]?.b).toBeNull();
    expect(Number(rows[1]?.n)).toBe(-3);
    // The same statement again (now prepared and kept), with other arguments.
    const again = (await db.$queryRawUnsafe("SELECT k FROM v WHERE n > ? ORDER BY k", -10)) as Record<string, unknown>[];
    expect(again.map((r) => r.k)).toEqual(["a", "b"]);
    expect(((await db.$queryRawUnsafe("SELECT k FROM v WHERE n > ? ORDER BY k", 0)) as Record<string, unknown>[]).map((r) => r.k)).toEqual([
      "a",
    ]);
    expect(await db.$executeRawUnsafe("UPDATE v SET n = n + 1 WHERE k = ?", "b")).toBe(1);
    // A broken statement, then a duplicate key: errors, and the client goes on.
    await expect(db.$queryRawUnsafe("SELEKT 1")).rejects.toThrow(/syntax/i);
    await expect(db.$executeRawUnsafe("INSERT INTO v (k) VALUES ('a')")).rejects.toThrow(/UNIQUE/i);
    expect(Number(((await db.$queryRawUnsafe("SELECT COUNT(*) AS c FROM v")) as { c: number | bigint }[])[0]?.c)).toBe(2);
  });

  it("the client's own transactions: a script inside one is part of it, committed or rolled back with it", async () => {
    const url = `file:${path.join(dir, "direct.db")}`;
    const client = new PrismaLibSqlCaching({ url }).createClient({ url });
    try {
      await client.execute("CREATE TABLE s (x INTEGER)");
      const kept = await client.transaction("write");
      await kept.executeMultiple("INSERT INTO s VALUES (1); INSERT INTO s VALUES (2);");
      await kept.execute({ sql: "INSERT INTO s VALUES (?)", args: [3] });
      await kept.commit();
      const dropped = await client.transaction("deferred");
      await dropped.executeMultiple("INSERT INTO s VALUES (4);");
      await dropped.rollback();
      expect(dropped.closed).toBe(true);
      const rows = await client.execute("SELECT x FROM s ORDER BY x");
      expect(rows.rows.map((r) => Number(r[0]))).toEqual([1, 2, 3]);
      // a batch is a transaction of its own: a failing statement takes the batch back whole
      await expect(client.batch(["INSERT INTO s VALUES (5)", "INSERT INTO nowhere VALUES (6)"], "write")).rejects.toThrow();
      expect((await client.execute("SELECT COUNT(*) FROM s")).rows[0]?.[0]).toBe(3);
      // a script left with an open transaction is rolled back
      await client.executeMultiple("BEGIN; INSERT INTO s VALUES (7);");
      expect((await client.execute("SELECT COUNT(*) FROM s")).rows[0]?.[0]).toBe(3);
    } finally {
      client.close();
    }
  });

  it("transactions started together run one after the other, each whole", async () => {
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        db
          .$transaction(async (tx) => {
            const [row] = (await tx.$queryRawUnsafe("SELECT COUNT(*) AS n FROM t")) as { n: number | bigint }[];
            await tx.$executeRawUnsafe(`INSERT INTO t VALUES (${100 + Number(row?.n ?? 0)})`);
            if (i % 5 === 4) throw new Error("rolled back");
          })
          .catch(() => undefined),
      ),
    );
    // Each committed transaction saw every earlier one: the values are distinct and consecutive.
    const added = (await values()).filter((x) => x >= 100);
    expect(added).toEqual(Array.from({ length: 16 }, (_, k) => 102 + k));
    expect(await busyTimeout()).toBe(15000);
  });
});
