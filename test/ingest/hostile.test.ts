// Hostile files: uploads that make polars abort its process fail cleanly, and the service goes on.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { open } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import pl from "nodejs-polars";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isAppError } from "../../src/errors/app-error.ts";
import { checkArrowFile } from "../../src/ingest/arrow-check.ts";
import type { ParseRequest } from "../../src/ingest/parse.ts";
import { createParseSandbox, type ParseSandbox } from "../../src/ingest/parse-sandbox.ts";
import { FIXTURES } from "../helpers/fixtures.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "hostile-"));
const hostile = (name: string) => readFileSync(path.join(FIXTURES, "hostile", name));

/** A small table as polars writes it, then `flips` bytes set at random (a fixed seed: the same files every run). */
function mutations(base: Buffer, count: number, seed: number): Buffer[] {
  let state = seed;
  const random = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 4294967296;
  };
  return Array.from({ length: count }, () => {
    const bytes = Buffer.from(base);
    for (let k = 0, flips = 1 + Math.floor(random() * 4); k < flips; k += 1)
      bytes[Math.floor(random() * bytes.length)] = Math.floor(random() * 256);
    return bytes;
  });
}

/** A parse request for the upload stored as `base`/raw, with a scratch folder beside it. */
function requestIn(base: string, fileType: "arrow" | "parquet" | "csv"): ParseRequest {
  return {
    rawPath: path.join(base, "raw"),
    fileType,
    compression: "",
    parserOptions: {},
    tableName: "t",
    tablesDir: path.join(base, "tables"),
    scratch: path.join(base, "scratch"),
    limits: { maxBytes: 1 << 30, maxRatio: 100, floorBytes: 1 << 28 },
  };
}

const table = pl.DataFrame({
  id: Array.from({ length: 200 }, (_, i) => i),
  name: Array.from({ length: 200 }, (_, i) => (i % 5 ? `name-${i}-long-enough-string` : null)),
  weight: Array.from({ length: 200 }, (_, i) => i / 3),
});

describe("hostile uploads through the file routes", () => {
  let gw: TestGateway;
  let auth: Record<string, string>;
  beforeAll(async () => {
    gw = await createTestGateway("sqlite");
    auth = { authorization: `Bearer ${await gw.login()}` };
  });
  afterAll(() => gw?.close());

  async function upload(fileType: string, body: Uint8Array) {
    const created = await gw.json<{ file_id: string }>("/api/v2/files/", { method: "POST", headers: auth, json: { file_type: fileType } });
    return gw.json<{ is_valid: boolean; is_uploaded: boolean; errors: Record<string, unknown> }>(
      `/api/v2/upload/files/${created.body.file_id}?erase=true`,
      { method: "POST", headers: auth, body: new Uint8Array(body) },
    );
  }

  it.each([
    ["arrow", "huge-buffer-length.arrow"],
    ["parquet", "huge-allocation.parquet"],
  ])("a %s file that aborts polars fails to parse, and the next upload parses", async (fileType, name) => {
    const bad = await upload(fileType, hostile(name));
    expect(bad.status).toBe(200);
    expect(bad.body).toMatchObject({ is_valid: false, is_uploaded: false, errors: { code: "PARSE_FAILED" } });
    const good = await upload("arrow", table.writeIPC());
    expect(good.body.is_valid).toBe(true);
  });
});

describe("the parser process", () => {
  let sandbox: ParseSandbox;
  beforeAll(() => {
    sandbox = createParseSandbox();
  });
  afterAll(() => sandbox?.close());

  it("answers every damaged Arrow and Parquet file with tables or a parse failure, never anything else", async () => {
    const files = [
      ...mutations(Buffer.from(table.writeIPC()), 40, 7).map((bytes) => ({ bytes, fileType: "arrow" as const })),
      ...mutations(readFileSync(writeParquet()), 40, 11).map((bytes) => ({ bytes, fileType: "parquet" as const })),
      { bytes: hostile("huge-buffer-length.arrow"), fileType: "arrow" as const },
    ];
    let parsed = 0;
    let failed = 0;
    for (const [i, { bytes, fileType }] of files.entries()) {
      const base = path.join(dir, `m${i}`);
      mkdirSync(base, { recursive: true });
      writeFileSync(path.join(base, "raw"), bytes);
      mkdirSync(path.join(base, "scratch"));
      try {
        const schemas = await sandbox.parse(requestIn(base, fileType));
        // What parsed is a table polars reads back whole.
        expect(pl.scanIPC(path.join(base, "tables", "0.arrow")).collectSync().height).toBe(schemas[0]?.num_rows);
        parsed += 1;
      } catch (error) {
        expect(isAppError(error) && error.code === "PARSE_FAILED").toBe(true);
        failed += 1;
      }
      rmSync(base, { recursive: true, force: true });
    }
    expect(parsed + failed).toBe(files.length);
    expect(failed).toBeGreaterThan(0);
  }, 120_000);
});

describe("the parser's time limit", () => {
  it("stops a parse that runs past it and fails the upload, saying so", async () => {
    // Started by its first parse (the command line's way), which then runs past the limit.
    const sandbox = createParseSandbox({ timeoutMs: 1, eager: false });
    try {
      const base = path.join(dir, "slow");
      mkdirSync(path.join(base, "scratch"), { recursive: true });
      const lines = ["a,b"];
      for (let i = 0; i < 200_000; i += 1) lines.push(`${i},row ${i}`);
      writeFileSync(path.join(base, "raw"), lines.join("\n"));
      const parsing = sandbox.parse(requestIn(base, "csv"));
      await expect(parsing).rejects.toMatchObject({ code: "PARSE_FAILED", details: { parser: "timed out" } });
    } finally {
      await sandbox.close();
    }
  });
});

function writeParquet(): string {
  const file = path.join(dir, "base.parquet");
  table.writeParquet(file, { compression: "uncompressed" });
  return file;
}

describe("the Arrow header check on damaged files", () => {
  it("refuses or accepts each of 1,500 damaged files without exhausting memory, and reads only metadata lengths it was given room for", async () => {
    const file = path.join(dir, "damaged.arrow");
    let accepted = 0;
    for (const bytes of mutations(Buffer.from(table.writeIPC()), 1_500, 1)) {
      writeFileSync(file, bytes);
      const handle = await open(file, "r");
      try {
        await checkArrowFile(handle, bytes.length);
        accepted += 1;
      } catch {
        // refused: the general path answers why
      } finally {
        await handle.close();
      }
    }
    expect(accepted).toBeLessThan(1_500);
  });
});
