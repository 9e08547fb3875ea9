// sortRows against a plain numeric sort: both of its ways (the typed array's sort below a few thousand rows, the
// radix passes above), row numbers of every width, repeats, and a smaller sort after a larger one (its spare buffer).
import { describe, expect, it } from "vitest";
import { sortRows } from "../../src/gfql/fast/sort-rows.ts";

function rows(n: number, below: number, seed: number): Int32Array {
  let s = seed;
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    out[i] = Math.floor((s / 4294967296) * below);
  }
  return out;
}

const reference = (list: Int32Array) => Array.from(list).sort((a, b) => a - b);

/** Where `got` first differs from `want` (-1: nowhere), so that a failure reports one place, not a diff of 100,000 rows. */
function firstDifference(got: ArrayLike<number>, want: number[]): number {
  if (got.length !== want.length) return Math.min(got.length, want.length);
  for (let i = 0; i < want.length; i++) if (got[i] !== want[i]) return i;
  return -1;
}

describe("sortRows", () => {
  for (const n of [0, 1, 2, 1_499, 1_500, 1_501, 5_000, 100_003])
    for (const below of [1, 2, 1_000, 1 << 20, 5_000_001, 2 ** 31 - 1])
      it(`sorts ${n} rows below ${below} in place`, () => {
        const list = rows(n, below, n + below);
        const want = reference(list);
        const got = sortRows(list);
        expect(got).toBe(list);
        expect(firstDifference(got, want)).toBe(-1);
      });

  it("sorts a view into a larger buffer without touching the rest of it", () => {
    const buffer = rows(20_000, 1 << 22, 7);
    const before = Array.from(buffer);
    const view = buffer.subarray(3_000, 13_000);
    const want = reference(view);
    sortRows(view);
    expect(firstDifference(view, want)).toBe(-1);
    expect(firstDifference(buffer.subarray(0, 3_000), before.slice(0, 3_000))).toBe(-1);
    expect(firstDifference(buffer.subarray(13_000), before.slice(13_000))).toBe(-1);
  });

  it("sorts rows whose largest is a power of two (the top bit counted)", () => {
    for (const top of [1 << 10, 1 << 11, 1 << 20, 1 << 22, 2 ** 30]) {
      const list = rows(4_000, top, top);
      list[1_234] = top;
      expect(firstDifference(sortRows(list.slice()), reference(list)), `largest ${top}`).toBe(-1);
    }
  });

  it("sorts rows that are already in order, and in reverse order", () => {
    const up = Int32Array.from({ length: 10_000 }, (_, i) => i * 3);
    expect(firstDifference(sortRows(up.slice()), Array.from(up))).toBe(-1);
    expect(firstDifference(sortRows(up.slice().reverse()), Array.from(up))).toBe(-1);
  });
});
