// SQLite transactions run on the client's one connection (src/store/libsql-one-connection.ts): committed and rolled
// back as before, and the busy_timeout set at start still holds after them (a connection opened per transaction
// had none).
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../src/config/config.ts";
import { createDb, type Db } from "../../src/store/prisma.ts";

describe("SQLite transactions on one connection", () => {
  let dir = "";
  let db: Db;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "one-connection-"));
    db = await createDb(loadConfig({ DATA_DIR: dir, ENV_FILE: "", LOG_LEVEL: "silent" }));
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
