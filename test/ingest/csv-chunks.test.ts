// CSV parsed chunk by chunk as it arrives gives exactly the table of the whole-file read, or gives up.
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { chunkedReadOptions, INFER_ROWS, readCsv } from "../../src/ingest/csv.ts";
import { createCsvChunkParser, GiveUp, hasNulls, readCsvInChunks, rowEnds } from "../../src/ingest/csv-chunks.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "csv-chunks-"));
let serial = 0;
const stored = (frame: pl.DataFrame) => {
  // The table as stored and read back, as the service does.
  const file = path.join(dir, `t-${serial++}.arrow`);
  frame.writeIPC(file);
  return pl.scanIPC(file).collectSync();
};

/** Feeds `text` in pieces of about `piece` bytes (cut anywhere, even inside a character). */
async function chunked(text: string | Buffer, piece: number): Promise<pl.DataFrame> {
  const bytes = typeof text === "string" ? Buffer.from(text) : text;
  const read = chunkedReadOptions({});
  if (!read) throw new Error("not eligible");
  const frames: pl.DataFrame[] = [];
  const parser = createCsvChunkParser({ ...read, inferRows: INFER_ROWS, maxFirstBytes: 64 << 20 }, (frame) => frames.push(frame));
  for (let at = 0; at < bytes.length; at += piece) parser.push(bytes.subarray(at, at + piece));
  parser.end();
  return pl.concat(frames, { how: "vertical", rechunk: false });
}

async function whole(text: string | Buffer): Promise<pl.DataFrame> {
  const file = path.join(dir, `in-${serial++}.csv`);
  writeFileSync(file, text);
  const scratch = mkdtempSync(path.join(dir, "scratch-"));
  return readCsv(file, {}, "", scratch);
}

function table(rows: number, row: (i: number) => string, header = "id,name,score,flag"): string {
  const lines = [header];
  for (let i = 0; i < rows; i += 1) lines.push(row(i));
  return `${lines.join("\n")}\n`;
}

/** readCsv with chunks of `chunkBytes`: the chunked read and the same steps after it. */
async function viaChunks(text: string | Buffer, chunkBytes: number): Promise<pl.DataFrame> {
  const file = path.join(dir, `in-${serial++}.csv`);
  writeFileSync(file, text);
  return readCsv(file, {}, "", mkdtempSync(path.join(dir, "scratch-")), chunkBytes);
}

async function expectSame(text: string | Buffer, piece: number) {
  const [a, b] = [stored(await chunked(text, piece)), await whole(text)];
  expect(a.schema).toEqual(b.schema);
  expect(a.height).toBe(b.height);
  expect(a.frameEqual(b, true)).toBe(true);
}

describe("rowEnds", () => {
  it("finds row ends outside quotes, doubled quotes included", () => {
    const data = Buffer.from('a,b\n"x\ny",1\n"he said ""hi\n""",2\nlast');
    const ends = rowEnds(data, 34, 10);
    expect(ends.first).toBe(4);
    expect(ends.count).toBe(3);
    expect(data.subarray(ends.last).toString()).toBe("last");
    expect(rowEnds(Buffer.from("no end"), 34, 10)).toEqual({ first: -1, last: -1, count: 0 });
  });
});

describe("readCsvInChunks", () => {
  /** The stored file read a chunk at a time, the next chunk read while the rows before it parse. */
  async function fromFile(text: string | Buffer, chunkBytes: number): Promise<pl.DataFrame> {
    const file = path.join(dir, `in-${serial++}.csv`);
    writeFileSync(file, text);
    const read = chunkedReadOptions({});
    if (!read) throw new Error("not eligible");
    return readCsvInChunks(file, { ...read, inferRows: INFER_ROWS, maxFirstBytes: 64 << 20 }, chunkBytes);
  }

  it.each([
    [
      "quoted fields with separators, line ends and doubled quotes",
      table(25_000, (i) => `${i},"line ${i}, ""q""\nsecond",${i / 4},${i % 2 === 0}`),
    ],
    [
      "CRLF line ends and a byte-order mark",
      `\ufeff${table(22_000, (i) => `${i},${i % 5 ? `n${i}` : ""},${i / 2},true`).replaceAll("\n", "\r\n")}`,
    ],
  ])("reads %s as the whole-file read does, in chunks of several sizes", async (_, text) => {
    const file = path.join(dir, `in-${serial++}.csv`);
    writeFileSync(file, text);
    const expected = stored(pl.readCSV(file, chunkedReadOptions({})?.reader));
    for (const chunkBytes of [40_009, 131_072, 333_333]) {
      const read = stored(await fromFile(text, chunkBytes));
      expect(read.schema).toEqual(expected.schema);
      expect(read.frameEqual(expected, true)).toBe(true);
    }
  });

  it("gives up past the first chunk with the next read under way, and leaves the file closed", async () => {
    const text = table(30_000, (i) => `${i === 25_000 ? "1.5" : i},n,${i},true`);
    await expect(fromFile(text, 50_000)).rejects.toBeInstanceOf(GiveUp);
  });
});

describe("createCsvChunkParser", () => {
  const plain = table(30_000, (i) => `${i},name-${i % 977},${(i * 0.37).toFixed(3)},${i % 3 === 0}`);

  it.each([1 << 20, 100_003, 65_536])("gives the whole-file table for a plain file fed in pieces of %i bytes", async (piece) => {
    await expectSame(plain, piece);
  });

  it("keeps quoted fields with separators, line ends and doubled quotes whole across chunk ends", async () => {
    const text = table(25_000, (i) => `${i},"line ${i}, with ""quotes""\nand a second line",${i / 4},${i % 2 === 0}`);
    await expectSame(text, 77_777);
  });

  it("reads CRLF files, a byte-order mark, a missing last line end and empty fields alike", async () => {
    const rows = table(22_000, (i) => `${i},${i % 5 === 0 ? "" : `n${i}`},${i % 7 === 0 ? "" : i / 2},true`).replaceAll("\n", "\r\n");
    await expectSame(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(rows.trimEnd())]), 50_001);
  });

  it("reads a file smaller than the type-inference window in one go", async () => {
    await expectSame(
      table(500, (i) => `${i},x${i},${i},false`),
      1_000,
    );
  });

  it("gives up when a later value does not fit the type inferred from the first rows", async () => {
    const text = table(30_000, (i) => `${i === 25_000 ? "1.5" : i},n,${i},true`);
    await expect(chunked(text, 100_000)).rejects.toBeInstanceOf(GiveUp);
    // The whole-file read looks at every row instead and types the column as floats.
    expect((await whole(text)).schema.id).toEqual(pl.Float64);
  });

  it.each(["NA", "#N/A N/A", "nan"])("reads pandas' missing marker %s in a text column as the whole-file read does", async (marker) => {
    const text = table(30_000, (i) => `${i},${i === 20_000 ? marker : `name number ${i}`},${i},true`);
    const [a, b] = [await viaChunks(text, 100_000), await whole(text)];
    expect(a.nChunks()).toBeGreaterThan(1);
    expect(a.getColumn("name").nullCount()).toBe(1);
    expect(a.frameEqual(b, true)).toBe(true);
  });

  it.each(["\n", "\r\n"])("gives up on a blank line past the first chunk (%j line ends), which pandas skips", async (eol) => {
    const text = table(30_000, (i) => `${i},n,${i},true`)
      .replace("\n20000,", "\n\n20000,")
      .replaceAll("\n", eol);
    await expect(chunked(text, 100_000)).rejects.toBeInstanceOf(GiveUp);
    // Through readCsv the blank line is skipped, as pandas skips it.
    const read = await viaChunks(text, 100_000);
    expect(read.height).toBe(30_000);
    expect(read.getColumn("id").nullCount()).toBe(0);
  });

  it("tells a frame with a null in any column from one without, from the frame's own counts", () => {
    expect(hasNulls(pl.DataFrame({ a: [1, 2], b: ["x", "y"] }))).toBe(false);
    expect(hasNulls(pl.DataFrame({ a: [1, 2], b: ["x", null] }))).toBe(true);
    expect(hasNulls(pl.DataFrame({ a: [null, 2.5], b: ["x", "y"] }))).toBe(true);
    expect(hasNulls(pl.DataFrame({ a: [] }))).toBe(false);
    expect(hasNulls(pl.DataFrame({}))).toBe(false);
  });

  it("gives up on integers beyond 64 bits, which the whole-file path converts", async () => {
    const text = table(12_000, (i) => `${i === 3 ? "18446744073709551615" : i},n,${i},true`);
    await expect(chunked(text, 50_000)).rejects.toBeInstanceOf(GiveUp);
  });

  it("is only offered for uploads read without parser options", () => {
    expect(chunkedReadOptions({})).toBeDefined();
    expect(chunkedReadOptions({ sep: ";" })).toBeUndefined();
    expect(chunkedReadOptions({ encoding: "utf-8" })).toBeUndefined();
  });
});
