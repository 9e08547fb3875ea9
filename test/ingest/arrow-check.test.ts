// The header-only check of Arrow IPC files: what it accepts is what apache-arrow decodes, and damage is refused.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { MessageHeader, RecordBatchReader, tableFromIPC } from "apache-arrow";
import { Footer } from "apache-arrow/ipc/metadata/file";
import { Message, type RecordBatch } from "apache-arrow/ipc/metadata/message";
import pl from "nodejs-polars";
import { describe, expect, it } from "vitest";
import { checkArrowFile } from "../../src/ingest/arrow-check.ts";
import { FIXTURES } from "../helpers/fixtures.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "arrow-check-"));

async function check(bytes: Uint8Array) {
  const file = path.join(dir, `f-${Math.random().toString(36).slice(2)}.arrow`);
  writeFileSync(file, bytes);
  const handle = await open(file, "r");
  try {
    return await checkArrowFile(handle, bytes.byteLength);
  } finally {
    await handle.close();
  }
}

/** The first record batch of an IPC file: where its body starts and its header. */
function firstBatch(bytes: Buffer): { bodyStart: number; header: RecordBatch; metaStart: number; metaLength: number } {
  const footerLength = bytes.readInt32LE(bytes.length - 10);
  const footer = Footer.decode(bytes.subarray(bytes.length - 10 - footerLength, bytes.length - 10));
  const block = footer.getRecordBatch(0);
  if (!block) throw new Error("no batch");
  const metaLength = bytes.readInt32LE(block.offset + 4);
  const message = Message.decode(bytes.subarray(block.offset + 8, block.offset + 8 + metaLength));
  expect(message.headerType).toBe(MessageHeader.RecordBatch);
  return {
    bodyStart: block.offset + block.metaDataLength,
    header: message.header() as RecordBatch,
    metaStart: block.offset + 8,
    metaLength,
  };
}

const polarsFile = () =>
  pl
    .DataFrame({
      id: [1, 2, null, 4],
      name: ["a", null, "a much longer string than twelve bytes", "d"],
      score: [0.5, 1.5, 2.5, null],
      flag: [true, false, null, true],
    })
    .writeIPC();

describe("checkArrowFile", () => {
  it("accepts polars' own files (string views, nulls) with the row count and schema apache-arrow reads", async () => {
    const bytes = polarsFile();
    const checked = await check(bytes);
    expect(checked.rows).toBe(4);
    expect(checked.schema.fields.map((f) => `${f.name}:${f.type}`)).toEqual(
      tableFromIPC(bytes).schema.fields.map((f) => `${f.name}:${f.type}`),
    );
  });

  it.each([
    ["arrow/cpp21_generated_primitive.arrow", 37],
    ["arrow/cpp21_generated_datetime.arrow", 17],
    ["arrow/cpp21_generated_primitive_no_batches.arrow", 0],
    ["arrow/foods1.ipc", 27],
  ])("accepts %s (written by another library) with %i rows", async (name, rows) => {
    const bytes = readFileSync(path.join(FIXTURES, name));
    expect((await check(bytes)).rows).toBe(rows);
    const reader = RecordBatchReader.from(bytes);
    expect([...reader].reduce((n, b) => n + b.numRows, 0)).toBe(rows);
  });

  it.each([
    ["arrow/cpp21_generated_dictionary.arrow", /dictionary/],
    ["arrow/cpp21_generated_nested.arrow", /nested/],
    ["arrow/v2_generated_lz4.arrow", /compressed/],
    ["arrow/iris.feather", /compressed/],
  ])("leaves %s to the slower paths", async (name, reason) => {
    await expect(check(readFileSync(path.join(FIXTURES, name)))).rejects.toThrow(reason);
  });

  it("refuses a truncated file, a stream and a damaged footer", async () => {
    const bytes = polarsFile();
    await expect(check(bytes.subarray(0, bytes.length - 40))).rejects.toThrow();
    await expect(check(pl.DataFrame({ a: [1, 2] }).writeIPCStream())).rejects.toThrow(/magic/);
    const damaged = Buffer.from(bytes);
    damaged.writeInt32LE(damaged.length, damaged.length - 10);
    await expect(check(damaged)).rejects.toThrow(/footer length/);
  });

  it("refuses a batch whose last string offset points past its data", async () => {
    const bytes = Buffer.from(readFileSync(path.join(FIXTURES, "arrow/foods1.ipc")));
    const { bodyStart, header } = firstBatch(bytes);
    // category (LargeUtf8) is column 0: validity, offsets, data.
    const offsets = header.buffers[1];
    if (!offsets) throw new Error("no offsets");
    bytes.writeBigInt64LE(10n ** 9n, bodyStart + offsets.offset + header.length * 8);
    await expect(check(bytes)).rejects.toThrow(/offsets point past/);
  });

  it("refuses a file whose leading schema message is not the footer's schema", async () => {
    const bytes = Buffer.from(polarsFile());
    // The schema message starts after the 8-byte magic; its flatbuffer after the 8-byte prefix.
    const length = bytes.readInt32LE(12);
    bytes.fill(0x41, 16, 16 + length);
    await expect(check(bytes)).rejects.toThrow();
    const other = Buffer.from(pl.DataFrame({ other: [1, 2, 3, 4] }).writeIPC());
    const mixed = Buffer.concat([other.subarray(0, 8 + 8 + other.readInt32LE(12)), polarsFile().subarray(8 + 8 + bytes.readInt32LE(12))]);
    await expect(check(mixed)).rejects.toThrow();
  });

  it("refuses a batch whose header is garbage", async () => {
    const bytes = Buffer.from(polarsFile());
    const { metaStart, metaLength } = firstBatch(bytes);
    bytes.fill(0x7f, metaStart, metaStart + metaLength);
    await expect(check(bytes)).rejects.toThrow();
  });
});
