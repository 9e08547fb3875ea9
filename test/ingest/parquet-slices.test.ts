// Parquet read a few row groups at a time gives the table of a whole-file read.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { readParquet } from "../../src/ingest/parquet.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "parquet-slices-"));

describe("readParquet by row groups", () => {
  const frame = pl.DataFrame({
    id: Array.from({ length: 10_000 }, (_, i) => i),
    label: Array.from({ length: 10_000 }, (_, i) => (i % 7 === 0 ? null : `row ${i}`)),
    weight: Array.from({ length: 10_000 }, (_, i) => i / 3),
  });
  const file = path.join(dir, "groups.parquet");

  it("joins slices of whole row groups into the whole table, columns option included", async () => {
    await frame.lazy().sinkParquet(file, { rowGroupSize: 1_000 }).collect();
    // 1,500-row slices cover two 1,000-row groups each: five slices.
    const sliced = await readParquet(file, {}, 1_500);
    expect(sliced.frameEqual(frame, true)).toBe(true);
    expect(sliced.nChunks()).toBeGreaterThan(1);
    expect((await readParquet(file, { columns: ["label", "id"] }, 1_500)).frameEqual(frame.select("label", "id"), true)).toBe(true);
    // One slice: read whole.
    expect((await readParquet(file, {}, 1_000_000)).frameEqual(frame, true)).toBe(true);
  });
});
