// Every inflation path has a byte budget: compression the declared type hides, compression inside compression,
// and Parquet and Arrow data that decode far past their stored size are refused before any reader inflates them.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { deflateSync, gzipSync, zstdCompressSync } from "node:zlib";
import * as XLSX from "@e965/xlsx";
import pl from "nodejs-polars";
import { afterAll, describe, expect, it } from "vitest";
import type { DecompressLimits } from "../../src/ingest/decompress.ts";
import type { Compression, FileType } from "../../src/ingest/formats.ts";
import { parseUpload } from "../../src/ingest/parse.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "inflation-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const GENEROUS: DecompressLimits = { maxBytes: 1 << 30, maxRatio: 100, floorBytes: 256 << 20 };
/** A budget a few kilobytes of compressed data can pass only up to 1 MiB. */
const TIGHT: DecompressLimits = { maxBytes: 1 << 30, maxRatio: 10, floorBytes: 1 << 20 };

let serial = 0;
async function parse(fileType: FileType, body: Uint8Array | string, compression: Compression = "", limits = GENEROUS) {
  const base = path.join(dir, String(++serial));
  mkdirSync(path.join(base, "scratch"), { recursive: true });
  writeFileSync(path.join(base, "raw"), body);
  return parseUpload({
    rawPath: path.join(base, "raw"),
    fileType,
    compression,
    parserOptions: {},
    tableName: "t",
    tablesDir: path.join(base, "tables"),
    scratch: path.join(base, "scratch"),
    limits,
  });
}

/** A CSV of `rows` rows that compresses to almost nothing. */
const csv = (rows: number) => Buffer.from(`a,b\n${"1,2\n".repeat(rows)}`);

describe("compression the declared type does not show", () => {
  it.each([
    ["zstd", () => zstdCompressSync(csv(100_000))],
    ["zlib", () => deflateSync(csv(100_000))],
    // An LZ4 frame's magic and a header: polars does not inflate LZ4, but the data is no CSV either.
    ["lz4", () => Buffer.from([0x04, 0x22, 0x4d, 0x18, 0x64, 0x40, 0xa7, 0, 0, 0, 0])],
  ])("%s data sent as plain csv is refused before polars inflates it", async (kind, make) => {
    await expect(parse("csv", make())).rejects.toMatchObject({ code: "PARSE_FAILED", details: { sniffed: kind } });
  });

  it("zstd data declared as gzip is refused", async () => {
    await expect(parse("csv", zstdCompressSync(csv(1000)), "gzip")).rejects.toMatchObject({
      code: "PARSE_FAILED",
      details: { sniffed: "zstd" },
    });
  });

  it("zstd data sent as json is refused", async () => {
    await expect(parse("json", zstdCompressSync(Buffer.from('{"a":[1,2]}')))).rejects.toMatchObject({
      code: "PARSE_FAILED",
      details: { sniffed: "zstd" },
    });
  });

  it("text that merely starts like a zlib header (x^) is read as the CSV it is", async () => {
    const [schema] = await parse("csv", "x^y,b\n1,2\n3,4\n");
    expect(schema).toMatchObject({ num_cols: 2, num_rows: 2 });
  });
});

describe("compression inside compression", () => {
  it.each([
    ["gzip inside gzip", () => gzipSync(gzipSync(csv(100_000))), "gzip"],
    ["zstd inside gzip", () => gzipSync(zstdCompressSync(csv(100_000))), "zstd"],
    ["zlib inside gzip", () => gzipSync(deflateSync(csv(100_000))), "zlib"],
  ])("%s is refused after the outer layer, within its budget", async (_name, make, inner) => {
    await expect(parse("csv", make(), "gzip")).rejects.toMatchObject({ code: "PARSE_FAILED", details: { sniffed: inner } });
  });

  it("a gzip-compressed CSV still parses", async () => {
    const [schema] = await parse("csv", gzipSync(csv(1000)), "gzip");
    expect(schema).toMatchObject({ num_rows: 1000 });
  });
});

/** Two million zeros: 16 MB once decoded, a few kilobytes compressed. */
const zeros = () => pl.DataFrame({ x: Array.from({ length: 2_000_000 }, () => 0) }).withColumn(pl.col("x").cast(pl.Int64));

describe("formats that inflate inside the reader", () => {
  it.each([
    ["arrow file, zstd buffers", () => zeros().writeIPC({ compression: "zstd" })],
    ["arrow file, lz4 buffers", () => zeros().writeIPC({ compression: "lz4" })],
    ["arrow stream, zstd buffers", () => zeros().writeIPCStream({ compression: "zstd" })],
  ])("%s decoding past the budget are refused, naming it; within it they parse", async (_name, make) => {
    const bytes = make();
    expect(bytes.length).toBeLessThan(1 << 20);
    await expect(parse("arrow", bytes, "", TIGHT)).rejects.toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      details: { format: "Arrow", limit: 1 << 20 },
    });
    const [schema] = await parse("arrow", bytes);
    expect(schema?.num_rows).toBe(2_000_000);
  });

  it.each([
    ["zstd", "zstd"],
    ["uncompressed, run-length encoded", "uncompressed"],
  ] as const)("a %s Parquet file decoding past the budget is refused, naming it; within it, it parses", async (_name, compression) => {
    const file = path.join(dir, `zeros-${compression}.parquet`);
    zeros().writeParquet(file, { compression });
    const bytes = readFileSync(file);
    expect(bytes.length).toBeLessThan(1 << 20);
    await expect(parse("parquet", bytes, "", TIGHT)).rejects.toMatchObject({
      code: "PAYLOAD_TOO_LARGE",
      details: { format: "Parquet", limit: 1 << 20 },
    });
    const [schema] = await parse("parquet", bytes);
    expect(schema?.num_rows).toBe(2_000_000);
  });

  it("a gzip-compressed Parquet file is held to the budget of its stored size", async () => {
    const file = path.join(dir, "zeros.parquet");
    zeros().writeParquet(file, { compression: "zstd" });
    await expect(parse("parquet", gzipSync(readFileSync(file)), "gzip", TIGHT)).rejects.toMatchObject({ code: "PAYLOAD_TOO_LARGE" });
  });

  it("an xlsx whose zip directory declares more than the budget is refused before the sheet is inflated", async () => {
    const rows: number[][] = Array.from({ length: 20_000 }, () => [1, 1]);
    const book = XLSX.utils.book_new();
    XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet([["a", "b"], ...rows]), "t");
    const bytes = XLSX.write(book, { type: "buffer", bookType: "xlsx", compression: true }) as Buffer;
    // A budget of the stored size itself: any inflation at all is past it.
    const none: DecompressLimits = { maxBytes: 1 << 30, maxRatio: 1, floorBytes: 1024 };
    await expect(parse("xlsx", bytes, "", none)).rejects.toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: { format: "xlsx" } });
    expect((await parse("xlsx", bytes))[0]?.num_rows).toBe(20_000);
  });
});
