// Finds every node whose id, label or a shown text column contains the typed text, best matches first.
import type { SearchField } from "./search-columns.ts";

/** The matching rows in order, with for each the field it matched best in (an index into the fields). */
export type SearchMatches = { rows: Int32Array; fields: Int32Array };

/**
 * Exact matches first, then prefixes, then any substring; each group in node order. A row counts once, by its best
 * match (the earlier field on a tie); a field counts for a row only where the field filters show it.
 */
export function findMatches(fields: readonly SearchField[], text: string, count: number): SearchMatches {
  const needle = text.toLowerCase();
  const groups: [number[], number[], number[]] = [[], [], []];
  const fieldOf: [number[], number[], number[]] = [[], [], []];
  for (let row = 0; row < count; row++) {
    let best = 3;
    let bestField = -1;
    for (let f = 0; f < fields.length && best > 0; f++) {
      const field = fields[f];
      if (!field || (field.shown && field.shown[row] !== 1)) continue;
      const value = field.lower[row] ?? "";
      const at = value.indexOf(needle);
      if (at < 0) continue;
      const rank = value.length === needle.length ? 0 : at === 0 ? 1 : 2;
      if (rank < best) {
        best = rank;
        bestField = f;
      }
    }
    if (best === 3) continue;
    groups[best as 0 | 1 | 2].push(row);
    fieldOf[best as 0 | 1 | 2].push(bestField);
  }
  return {
    rows: Int32Array.from([...groups[0], ...groups[1], ...groups[2]]),
    fields: Int32Array.from([...fieldOf[0], ...fieldOf[1], ...fieldOf[2]]),
  };
}
