// Uploads parsed while they arrive: the reads of a growing file, the chunked CSV read over one, and the files
// service handing a large CSV upload to the real parser process before its last byte is in.
import { randomBytes } from "node:crypto";
import { appendFileSync, mkdtempSync, readdirSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Viewer } from "../../src/auth/viewer.ts";
import { createFileService, type FileService } from "../../src/files/files-service.ts";
import { INFER_ROWS, readCsv } from "../../src/ingest/csv.ts";
import { readCsvInChunks } from "../../src/ingest/csv-chunks.ts";
import { type Growth, ParseDeferred, sequentialReads, untilGrown } from "../../src/ingest/growing-file.ts";
import type { ParseRequest } from "../../src/ingest/parse.ts";
import { createParseSandbox, type ParseSandbox } from "../../src/ingest/parse-sandbox.ts";
import { readTable } from "../../src/ingest/table-files.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "growing-file-"));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A growth ended by hand, as the receiving side ends it. */
function arrival() {
  let end: (bytes: number) => void = () => {};
  let fail: (error: Error) => void = () => {};
  const complete = new Promise<number>((resolve, reject) => {
    end = resolve;
    fail = reject;
  });
  complete.catch(() => {});
  const growth: Growth = { complete };
  return { growth, end, fail };
}

/** Writes `data` to `file` in `pieces`, pausing `pauseMs` between them; ends the growth after the last. */
async function writeSlowly(file: string, data: Buffer, pieces: number, pauseMs: number, end: (bytes: number) => void) {
  const size = Math.ceil(data.length / pieces);
  for (let at = 0; at < data.length; at += size) {
    appendFileSync(file, data.subarray(at, at + size));
    await sleep(pauseMs);
  }
  end(data.length);
}

async function readAll(file: string, growth: Growth, room: number, maxWaitMs?: number): Promise<Buffer> {
  const handle = await open(file, "r");
  try {
    const read = sequentialReads(handle, growth, maxWaitMs);
    const parts: Buffer[] = [];
    for (;;) {
      const buffer = Buffer.alloc(room);
      const bytes = await read(buffer);
      if (bytes === 0) break;
      // Each read fills its buffer, except the last.
      if (parts.length > 0) expect(parts[parts.length - 1]?.length).toBe(room);
      parts.push(buffer.subarray(0, bytes));
    }
    return Buffer.concat(parts);
  } finally {
    await handle.close();
  }
}

function edgesCsv(
  rows: number,
  row: (i: number) => string = (i) => `${(i * 7919) % 2000},${(i * 104_729) % 2000},${(i % 1000) / 8},"label, ${i % 499}"`,
): Buffer {
  const lines = ["src,dst,weight,label"];
  for (let i = 0; i < rows; i += 1) lines.push(row(i));
  return Buffer.from(`${lines.join("\n")}\n`);
}

async function wholeRead(bytes: Buffer) {
  const file = path.join(dir, `${randomBytes(4).toString("hex")}.csv`);
  writeFileSync(file, bytes);
  return readCsv(file, {}, "", mkdtempSync(path.join(dir, "s-")));
}

describe("reading a file while it is written", () => {
  it("reads every byte in order across the writer's pauses, each read filling its buffer", async () => {
    const file = path.join(dir, "grow.bin");
    writeFileSync(file, "");
    const data = randomBytes(300_000);
    const { growth, end } = arrival();
    const writing = writeSlowly(file, data, 37, 3, end);
    expect((await readAll(file, growth, 10_000)).equals(data)).toBe(true);
    await writing;
  });

  it("waits for a size, or answers false once the file is whole below it", async () => {
    const file = path.join(dir, "until.bin");
    writeFileSync(file, "");
    const big = arrival();
    const writing = writeSlowly(file, randomBytes(100_000), 10, 5, big.end);
    expect(await untilGrown(file, big.growth, 50_000)).toBe(true);
    await writing;
    const small = arrival();
    small.end(100_000);
    expect(await untilGrown(file, small.growth, 1 << 30)).toBe(false);
  });

  it("defers once it has waited longer than allowed for the writer, and throws the upload's failure", async () => {
    const file = path.join(dir, "stall.bin");
    writeFileSync(file, randomBytes(1000));
    const stalled = arrival();
    const error = await readAll(file, stalled.growth, 4096, 40).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ParseDeferred);
    expect(String((error as Error).message)).toMatch(/arrives more slowly than it parses/);

    const failing = arrival();
    const reading = readAll(file, failing.growth, 4096);
    failing.fail(new Error("the client went away"));
    await expect(reading).rejects.toThrow("the client went away");
  });

  it("parses a CSV chunk by chunk as it arrives into the whole-file read's table", async () => {
    const bytes = edgesCsv(30_000);
    const file = path.join(dir, "arriving.csv");
    writeFileSync(file, "");
    const { growth, end } = arrival();
    const writing = writeSlowly(file, bytes, 25, 2, end);
    const frame = await readCsvInChunks(
      file,
      {
        reader: {
          sep: ",",
          quoteChar: '"',
          hasHeader: true,
          inferSchemaLength: INFER_ROWS,
          raiseIfEmpty: false,
          truncateRaggedLines: false,
        },
        inferRows: INFER_ROWS,
        quote: 34,
        maxFirstBytes: 1 << 20,
      },
      65_536,
      growth,
    );
    await writing;
    expect(frame.frameEqual(await wholeRead(bytes), true)).toBe(true);
  });
});

describe("a large CSV upload parsed while it arrives (files service, real parser process)", () => {
  let gw: TestGateway;
  let viewer: Viewer;
  let sandbox: ParseSandbox;
  let files: FileService;
  /** Each parse request as the service made it: whether the upload was still arriving. */
  const requests: { growing: boolean }[] = [];
  let parseStarted: () => void = () => {};

  beforeAll(async () => {
    gw = await createTestGateway("sqlite");
    const found = await gw.gateway.services.authenticator.authenticate(`Bearer ${await gw.login()}`);
    if (!found) throw new Error("no viewer for the admin token");
    viewer = found;
    sandbox = createParseSandbox({ size: 1 });
    const { db, blobs } = gw.gateway.services;
    files = createFileService({
      db,
      blobs,
      maxUploadBytes: 1 << 26,
      decompress: { maxBytes: 1 << 26, maxRatio: 100, floorBytes: 1 << 20 },
      // 64 KiB chunks: an upload past 128 KiB is parsed as it arrives.
      csvChunkBytes: 65_536,
      parse: (request: ParseRequest, timings) => {
        requests.push({ growing: request.growth !== undefined });
        parseStarted();
        return sandbox.parse(request, timings);
      },
    });
  });
  afterAll(async () => {
    await sandbox?.close();
    await gw?.close();
  });

  /** The body in 16 KiB pieces; after `holdAfter` bytes it waits for `hold` before sending the rest. */
  async function* body(bytes: Buffer, holdAfter: number, hold: () => Promise<void>, failAt?: number): AsyncIterable<Uint8Array> {
    let held = false;
    for (let at = 0; at < bytes.length; at += 16_384) {
      if (failAt !== undefined && at >= failAt) throw new Error("the client went away");
      if (!held && at >= holdAfter) {
        held = true;
        await hold();
      }
      yield bytes.subarray(at, at + 16_384);
    }
  }

  const upload = async (bytes: Buffer, chunks: () => AsyncIterable<Uint8Array>) => {
    const created = await files.create(viewer, { fileType: "csv", name: "edges.csv" });
    const record = await files.upload(viewer, created.id, { stream: () => new Blob([new Uint8Array(bytes)]).stream(), chunks }, true);
    return { created, record };
  };
  const tableOf = (id: string, version: string) => readTable(gw.gateway.services.blobs.pathOf("files", id, version, "tables", "0.arrow"));

  it("hands the upload to the parser before its last byte is in, and stores the table a stored upload gives", async () => {
    requests.length = 0;
    const bytes = edgesCsv(40_000);
    // The rest of the body is sent only once the parse has started: the upload cannot end before it.
    const started = new Promise<void>((resolve) => {
      parseStarted = resolve;
    });
    const { created, record } = await upload(bytes, () => body(bytes, 300_000, () => started));
    expect(requests).toEqual([{ growing: true }]);
    expect(record).toMatchObject({ isValid: true, bytesCount: bytes.length });
    expect(tableOf(created.id, record.dataVersion as string).frameEqual(await wholeRead(bytes), true)).toBe(true);
  });

  it("gives the parser process to an upload waiting for it, and parses the first again once it is whole", async () => {
    requests.length = 0;
    const bytes = edgesCsv(40_000);
    const other = edgesCsv(1000);
    let resume: () => void = () => {};
    const resumed = new Promise<void>((resolve) => {
      resume = resolve;
    });
    const started = new Promise<void>((resolve) => {
      parseStarted = resolve;
    });
    // The first upload stalls once its parse has started; the one parser process is then wanted by the second.
    const first = upload(bytes, () =>
      body(bytes, 300_000, async () => {
        await started;
        await resumed;
      }),
    );
    await started;
    const second = await upload(other, () => body(other, 0, async () => {}));
    expect(second.record.isValid).toBe(true);
    resume();
    const { created, record } = await first;
    expect(requests).toEqual([{ growing: true }, { growing: false }, { growing: false }]);
    expect(record).toMatchObject({ isValid: true, bytesCount: bytes.length });
    expect(tableOf(created.id, record.dataVersion as string).frameEqual(await wholeRead(bytes), true)).toBe(true);
  });

  it("parses again once whole an upload the chunked read cannot take (a type change past the first chunk)", async () => {
    requests.length = 0;
    const bytes = edgesCsv(40_000, (i) => `${i},${i === 30_000 ? "2.5" : i},1.5,x`);
    // Held once the parse has started, so that it sees the upload still arriving.
    const started = new Promise<void>((resolve) => {
      parseStarted = resolve;
    });
    const { created, record } = await upload(bytes, () =>
      body(bytes, 300_000, async () => {
        await started;
        await sleep(300);
      }),
    );
    expect(requests).toEqual([{ growing: true }, { growing: false }]);
    expect(record).toMatchObject({ isValid: true, bytesCount: bytes.length });
    expect(tableOf(created.id, record.dataVersion as string).frameEqual(await wholeRead(bytes), true)).toBe(true);
  });

  it("an upload that fails after its parse has begun answers the upload's failure and records nothing", async () => {
    requests.length = 0;
    const bytes = edgesCsv(40_000);
    const started = new Promise<void>((resolve) => {
      parseStarted = resolve;
    });
    const created = await files.create(viewer, { fileType: "csv", name: "edges.csv" });
    const failing = files.upload(
      viewer,
      created.id,
      { stream: () => new Blob([new Uint8Array(bytes)]).stream(), chunks: () => body(bytes, 300_000, () => started, 600_000) },
      true,
    );
    await expect(failing).rejects.toThrow("the client went away");
    expect(requests).toEqual([{ growing: true }]);
    expect(await files.get(viewer, created.id)).toMatchObject({ isUploaded: false, isValid: false, dataVersion: null });
    const folder = gw.gateway.services.blobs.pathOf("files", created.id);
    expect(readdirSync(folder, { withFileTypes: true }).filter((entry) => entry.isDirectory())).toEqual([]);
    // The parser process is free for the next upload.
    const next = edgesCsv(1000);
    requests.length = 0;
    expect((await upload(next, () => body(next, 0, async () => {}))).record.isValid).toBe(true);
    expect(requests).toEqual([{ growing: false }]);
  });
});
