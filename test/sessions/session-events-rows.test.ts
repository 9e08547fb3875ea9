// A change event's subscribers read the session row this process kept at the event's revision (viz-sessions.ts getAt):
// one read per change, not one per viewer, with the same access check; rows not kept are read as before.
import { describe, expect, it } from "vitest";
import type { Viewer } from "../../src/auth/viewer.ts";
import type { DatasetRows } from "../../src/datasets/dataset-rows.ts";
import { createSessionRows } from "../../src/sessions/session-rows.ts";
import { createVizSessionService } from "../../src/sessions/viz-sessions.ts";
import type { BlobStore } from "../../src/store/blobs.ts";
import type { PubSub } from "../../src/store/pubsub.ts";
import { fakeDb, type Row } from "./fake-session-db.ts";

function world() {
  const rows: Row[] = [{ id: "s1", datasetId: "d1", ownerId: 1, revisionNumber: 1 }];
  const { db, reads } = fakeDb(rows);
  const datasets = new Map([["d1", { id: "d1", authorId: 1, organizationId: null, sharingMode: "private" }]]);
  const datasetRows = { get: async (id: string) => datasets.get(id) ?? null } as unknown as DatasetRows;
  const sessionRows = createSessionRows(db, 60_000);
  const sessions = createVizSessionService({ db, blobs: {} as BlobStore, pubsub: {} as PubSub, datasetRows, sessionRows });
  const viewer = (userId: number) => ({ userId, username: `u${userId}`, isAdmin: false, via: "cookie" }) as unknown as Viewer;
  return { rows, reads, sessions, sessionRows, viewer };
}

describe("a change event's subscribers and the session row", () => {
  it("serve every subscriber of a change from the row kept at its revision, checking each one's access", async () => {
    const { rows, reads, sessions, sessionRows, viewer } = world();
    // This process's write answered revision 2 (collections.ts changed(), viz-sessions.ts publish()).
    (rows[0] as Row).revisionNumber = 2;
    sessionRows.remember({ ...(rows[0] as Row) } as never);
    const owner = viewer(1);
    for (let page = 0; page < 3; page++) expect((await sessions.getAt(owner, "s1", 2)).revisionNumber).toBe(2);
    expect(reads).toEqual([]);
    // Someone who may not view the dataset still reads it as missing.
    await expect(sessions.getAt(viewer(2), "s1", 2)).rejects.toThrow(/no session with id s1/);
    // An event past the kept row (another instance's change): read afresh, as a page's reads always were.
    (rows[0] as Row).revisionNumber = 3;
    expect((await sessions.getAt(owner, "s1", 3)).revisionNumber).toBe(3);
    expect(reads).toEqual(["s1"]);
    // get() (a page's query) still reads afresh.
    await sessions.get(owner, "s1");
    expect(reads).toEqual(["s1", "s1"]);
  });
});
