// Live-session rows as tool calls read them (access, owner presence, the dataset a query runs on, shared state), kept
// for a second: an assistant's tool calls on one session otherwise read the same row hundreds of times a second.
// Only tool calls (a scoped viewer, src/auth/viewer.ts) read through it; pages and everything else read afresh. Every
// write this process makes forgets the row at once; a change made on another instance is seen within the second (at
// once where this instance follows the session's events: session-changes.ts), and a dataset's new version or a
// forced logout is forgotten on every instance through their events.
import type { VizSession } from "../../prisma/generated/sqlite/client.ts";
import type { Db } from "../store/prisma.ts";

/** How long a row read for a session is reused. */
export const SESSION_ROW_TTL_MS = 1_000;
const MAX_ROWS = 10_000;

export type SessionRows = ReturnType<typeof createSessionRows>;

export function createSessionRows(db: Db, ttlMs = SESSION_ROW_TTL_MS, now: () => number = Date.now) {
  /** `value`: the row once read (undefined while the read is under way). */
  type Entry = { row: Promise<VizSession | null>; until: number; value?: VizSession | null };
  const rows = new Map<string, Entry>();
  /** Rows whose read began before the last forget may hold what that write changed: not kept. */
  let generation = 0;

  /** Forgets the rows that match, and every read under way (whatever it finds is not kept). */
  const forgetWhere = (match: (row: VizSession) => boolean): void => {
    generation++;
    for (const [id, entry] of [...rows]) {
      if (entry.value === undefined || entry.value === null || match(entry.value)) rows.delete(id);
    }
  };

  return {
    /** The session's row (null when there is none), read at most once a second. */
    get(id: string): Promise<VizSession | null> {
      const hit = rows.get(id);
      if (hit && hit.until > now()) return hit.row;
      const row = db.vizSession.findUnique({ where: { id } });
      if (rows.size >= MAX_ROWS) rows.delete(rows.keys().next().value as string);
      const entry: Entry = { row, until: now() + ttlMs };
      const read = generation;
      rows.set(id, entry);
      row.then(
        (value) => {
          entry.value = value;
          // A write forgot everything while this read was under way: the read may predate it.
          if (generation !== read && rows.get(id) === entry) rows.delete(id);
        },
        () => {
          // a failed read is not kept
          if (rows.get(id) === entry) rows.delete(id);
        },
      );
      return row;
    },
    /**
     * The kept row if it is at `revision` or past it and still within its second (undefined otherwise): what a
     * change event's subscribers read, as the row then already holds the change the event announces. A newer change
     * (from any instance) comes with its own event, whose revision a kept row must reach in turn.
     */
    atRevision(id: string, revision: number): VizSession | undefined {
      const hit = rows.get(id);
      const row = hit && hit.until > now() ? hit.value : undefined;
      return row && row.revisionNumber >= revision ? row : undefined;
    },
    /** Forgets a row this process has just changed. */
    forget(id: string): void {
      rows.delete(id);
    },
    /**
     * Forgets a row older than `revision` (a change event's: a kept row at or past it already holds that change,
     * as one this process remembered after its own write does); a read under way is forgotten too.
     */
    forgetBefore(id: string, revision: number): void {
      const kept = rows.get(id);
      if (kept && !(kept.value && kept.value.revisionNumber >= revision)) rows.delete(id);
    },
    /**
     * Keeps the row a committed write of this process has just answered (its UPDATE ... RETURNING): the next tool
     * call reads it from here instead of the database. A read under way is dropped (as with forget); a kept row of
     * a later revision is not replaced by an earlier one (two writes' answers may come back out of order).
     */
    remember(row: VizSession): void {
      const kept = rows.get(row.id)?.value;
      if (kept && kept.revisionNumber > row.revisionNumber) return;
      rows.delete(row.id);
      if (ttlMs <= 0) return;
      if (rows.size >= MAX_ROWS) rows.delete(rows.keys().next().value as string);
      rows.set(row.id, { row: Promise.resolve(row), until: now() + ttlMs, value: row });
    },
    /** Forgets the sessions of a dataset (its tables moved to a new version: their revisions moved on). */
    forgetDataset: (datasetId: string) => forgetWhere((row) => row.datasetId === datasetId),
    /** Forgets the sessions a user owns (a forced logout ended their presence). */
    forgetOwner: (ownerId: number) => forgetWhere((row) => row.ownerId === ownerId),
  };
}
