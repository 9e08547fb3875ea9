// Session rows kept for a second for tool calls (src/sessions/session-rows.ts): one read per second per session, a
// write in this process seen by the next call, and what the events forget (a dataset's sessions, an owner's).
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSessionRows } from "../../src/sessions/session-rows.ts";
import { createMcpWorld, type McpWorld } from "../mcp/setup.ts";
import { fakeDb, type Row } from "./fake-session-db.ts";

describe("session rows", () => {
  it("reads a session once per second, again after a forget or once the second is over", async () => {
    let clock = 1_000;
    const rows: Row[] = [{ id: "s1", datasetId: "d1", ownerId: 1, revisionNumber: 1 }];
    const { db, reads } = fakeDb(rows);
    const kept = createSessionRows(db, 1_000, () => clock);
    expect((await kept.get("s1"))?.revisionNumber).toBe(1);
    (rows[0] as Row).revisionNumber = 2;
    expect((await kept.get("s1"))?.revisionNumber).toBe(1);
    expect(reads).toEqual(["s1"]);
    kept.forget("s1");
    expect((await kept.get("s1"))?.revisionNumber).toBe(2);
    (rows[0] as Row).revisionNumber = 3;
    clock += 1_001;
    expect((await kept.get("s1"))?.revisionNumber).toBe(3);
    expect(reads).toEqual(["s1", "s1", "s1"]);
    expect(await kept.get("missing")).toBeNull();
  });

  it("forgets a dataset's sessions, or an owner's, and keeps no read that was under way meanwhile", async () => {
    const rows: Row[] = [
      { id: "a", datasetId: "d1", ownerId: 1, revisionNumber: 1 },
      { id: "b", datasetId: "d2", ownerId: 1, revisionNumber: 1 },
      { id: "c", datasetId: "d2", ownerId: 2, revisionNumber: 1 },
    ];
    const { db, reads } = fakeDb(rows);
    const kept = createSessionRows(db, 60_000);
    await Promise.all(["a", "b", "c"].map((id) => kept.get(id)));
    kept.forgetDataset("d2");
    await Promise.all(["a", "b", "c"].map((id) => kept.get(id)));
    expect(reads.sort()).toEqual(["a", "b", "b", "c", "c"]);
    reads.length = 0;
    kept.forgetOwner(1);
    await Promise.all(["a", "b", "c"].map((id) => kept.get(id)));
    expect(reads.sort()).toEqual(["a", "b"]);
    // A read started before a forget may predate the write it follows: it answers its caller but is not kept.
    reads.length = 0;
    const under = kept.get("zz");
    kept.forgetOwner(9);
    await under;
    await kept.get("zz");
    expect(reads).toEqual(["zz", "zz"]);
  });
});

describe("session rows remembered after this process's own writes", () => {
  it("keeps a written row for the next call, never an older revision over a newer one, and forgets older rows on events", async () => {
    const rows: Row[] = [{ id: "s1", datasetId: "d1", ownerId: 1, revisionNumber: 1 }];
    const { db, reads } = fakeDb(rows);
    const kept = createSessionRows(db, 60_000);
    await kept.get("s1");
    // A write answered revision 3 (its UPDATE ... RETURNING): the next read takes it without asking the database.
    const written = (revisionNumber: number) => ({ id: "s1", datasetId: "d1", ownerId: 1, revisionNumber }) as never;
    kept.remember(written(3));
    expect((await kept.get("s1"))?.revisionNumber).toBe(3);
    // A write answered earlier but reported late (revision 2) does not replace revision 3.
    kept.remember(written(2));
    expect((await kept.get("s1"))?.revisionNumber).toBe(3);
    expect(reads).toEqual(["s1"]);
    // The event of this process's own change (revision 3) leaves the row; another instance's later one forgets it.
    kept.forgetBefore("s1", 3);
    expect((await kept.get("s1"))?.revisionNumber).toBe(3);
    expect(reads).toEqual(["s1"]);
    (rows[0] as Row).revisionNumber = 4;
    kept.forgetBefore("s1", 4);
    expect((await kept.get("s1"))?.revisionNumber).toBe(4);
    expect(reads).toEqual(["s1", "s1"]);
    // A read under way when an event comes may predate its change: it is not kept.
    (rows[0] as Row).revisionNumber = 5;
    kept.forget("s1");
    const under = kept.get("s1");
    kept.forgetBefore("s1", 5);
    await under;
    await kept.get("s1");
    expect(reads).toEqual(["s1", "s1", "s1", "s1"]);
  });

  it("serves a change event's subscribers the row kept at its revision or past it, and nothing older or expired", async () => {
    let clock = 1_000;
    const { db, reads } = fakeDb([{ id: "s1", datasetId: "d1", ownerId: 1, revisionNumber: 1 }]);
    const kept = createSessionRows(db, 1_000, () => clock);
    expect(kept.atRevision("s1", 1)).toBeUndefined();
    kept.remember({ id: "s1", datasetId: "d1", ownerId: 1, revisionNumber: 5 } as never);
    expect(kept.atRevision("s1", 5)?.revisionNumber).toBe(5);
    expect(kept.atRevision("s1", 4)?.revisionNumber).toBe(5);
    // An event past the kept row (another instance's change): the subscriber reads afresh.
    expect(kept.atRevision("s1", 6)).toBeUndefined();
    clock += 1_001;
    expect(kept.atRevision("s1", 5)).toBeUndefined();
    // A read under way is nothing to serve yet.
    void kept.get("s1");
    expect(kept.atRevision("s1", 1)).toBeUndefined();
    expect(reads).toEqual(["s1"]);
  });

  it("keeps nothing when rows are not kept at all (ttl 0)", async () => {
    const { db, reads } = fakeDb([{ id: "s1", datasetId: "d1", ownerId: 1, revisionNumber: 1 }]);
    const kept = createSessionRows(db, 0);
    kept.remember({ id: "s1", datasetId: "d1", ownerId: 1, revisionNumber: 7 } as never);
    expect((await kept.get("s1"))?.revisionNumber).toBe(1);
    expect(reads).toEqual(["s1"]);
  });
});

describe("tool calls read the kept row; a change made in this process shows at once", () => {
  let world: McpWorld;
  let closePage: () => Promise<void>;
  let client: Client;

  beforeAll(async () => {
    world = await createMcpWorld();
    closePage = await world.openOwnerPage();
    client = new Client({ name: "test-assistant", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(world.url), { requestInit: { headers: { authorization: `Bearer ${world.keys.alice}` } } }),
    );
  }, 120_000);
  afterAll(async () => {
    await client?.close();
    await closePage?.();
    await world?.close();
  });

  const info = async () => {
    const result = await client.callTool({ name: "get_session_info", arguments: { session_id: world.sessionId } });
    return (result.content as { text: string }[])[0]?.text ?? "";
  };

  it("filters set through GraphQL, then the owner's page closed, each seen by the very next tool call", async () => {
    expect(await info()).not.toMatch(/^filters:/m);
    await world.gql(
      "mutation($s: ID!, $f: JSON!) { setSessionFilters(sessionId: $s, filters: $f) { id } }",
      { s: world.sessionId, f: [{ column: "rel", values: ["knows"] }] },
      world.tokens.alice,
    );
    expect(await info()).toMatch(/^filters: .*"rel"/m);
    await closePage();
    const closed = await client.callTool({ name: "get_session_info", arguments: { session_id: world.sessionId } }).catch((e) => e);
    expect(String((closed as Error).message ?? JSON.stringify(closed))).toMatch(/owner unavailable|410|-32004/i);
    closePage = await world.openOwnerPage();
    expect(await info()).toMatch(/^filters:/m);
  });
});
