// Stored tables kept in memory between queries. A dataset's table files never change once written (a new version
// gets a new path), so a path is a safe key; the least recently used tables go first past the byte budget.
import { statSync } from "node:fs";
import type { DataFrame } from "nodejs-polars";
import { readTable } from "../../ingest/table-files.ts";
import { keepFrame } from "../fast/graph-index.ts";

export function createTableCache(budgetBytes: number) {
  const tables = new Map<string, { frame: DataFrame; bytes: number }>();
  let used = 0;

  return {
    read(path: string): DataFrame {
      const hit = tables.get(path);
      if (hit) {
        // Re-inserting marks it most recently used.
        tables.delete(path);
        tables.set(path, hit);
        return hit.frame;
      }
      const frame = readTable(path);
      // Canonical tables are uncompressed Arrow: the file's size is close to the frame's.
      const bytes = statSync(path).size;
      if (bytes > budgetBytes) return frame;
      for (const [key, entry] of tables) {
        if (used + bytes <= budgetBytes) break;
        tables.delete(key);
        used -= entry.bytes;
      }
      tables.set(path, { frame, bytes });
      used += bytes;
      // kept for later queries: worth an adjacency index (built with the first query that fits the fast path)
      keepFrame(frame);
      return frame;
    },
    get size() {
      return tables.size;
    },
  };
}
