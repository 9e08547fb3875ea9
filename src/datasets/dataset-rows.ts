// Dataset rows as a live session reads them on every call (its access check, its queries), kept for a second:
// an assistant's tool calls on one session otherwise read the same row several times a second. Writes made in
// this process forget the row at once; one made on another instance is seen within the second.
import type { Dataset } from "../../prisma/generated/sqlite/client.ts";
import type { Db } from "../store/prisma.ts";

/** How long a row read for a session is reused. */
export const DATASET_ROW_TTL_MS = 1_000;
const MAX_ROWS = 10_000;

export type DatasetRows = ReturnType<typeof createDatasetRows>;

export function createDatasetRows(db: Db, ttlMs = DATASET_ROW_TTL_MS, now: () => number = Date.now) {
  const rows = new Map<string, { row: Promise<Dataset | null>; until: number }>();

  return {
    /** The dataset's row (null when there is none), read at most once a second. */
    get(id: string): Promise<Dataset | null> {
      const hit = rows.get(id);
      if (hit && hit.until > now()) return hit.row;
      const row = db.dataset.findUnique({ where: { id } });
      if (rows.size >= MAX_ROWS) rows.delete(rows.keys().next().value as string);
      rows.set(id, { row, until: now() + ttlMs });
      // a failed read is not kept
      row.catch(() => {
        if (rows.get(id)?.row === row) rows.delete(id);
      });
      return row;
    },
    /** Forgets a row this process has just changed or deleted. */
    forget(id: string): void {
      rows.delete(id);
    },
  };
}
