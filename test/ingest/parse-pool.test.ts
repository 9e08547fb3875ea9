// The parser processes: owners take turns, one owner cannot hold them all, each process has a memory cap
// answered with a 413 naming it, and failures reach the uploader without a native library's own words.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AppError } from "../../src/errors/app-error.ts";
import type { ParseRequest } from "../../src/ingest/parse.ts";
import { publicFailure } from "../../src/ingest/parse-failure.ts";
import { createParseSandbox } from "../../src/ingest/parse-sandbox.ts";
import { createTurns } from "../../src/ingest/parse-turns.ts";

const dir = mkdtempSync(path.join(os.tmpdir(), "parse-pool-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

let serial = 0;
function request(body: string, owner: string, fileType: "csv" | "json" = "csv"): ParseRequest {
  const base = path.join(dir, String(++serial));
  mkdirSync(path.join(base, "scratch"), { recursive: true });
  writeFileSync(path.join(base, "raw"), body);
  return {
    rawPath: path.join(base, "raw"),
    fileType,
    compression: "",
    parserOptions: {},
    tableName: "t",
    tablesDir: path.join(base, "tables"),
    scratch: path.join(base, "scratch"),
    limits: { maxBytes: 1 << 30, maxRatio: 100, floorBytes: 256 << 20 },
    owner,
  };
}

const small = (rows = 3) => `a,b\n${Array.from({ length: rows }, (_, i) => `${i},${i * 2}`).join("\n")}\n`;
/** Large enough to keep a parser busy for a while, and to need some hundreds of MB once read. */
const large = (rows: number) =>
  `a,b,c\n${Array.from({ length: rows }, (_, i) => `${i},${i * 2.5},name-${i}-padding-padding-padding`).join("\n")}\n`;

describe("turns between owners", () => {
  it("serves the owner whose last turn is oldest: a newcomer goes before an owner's next item", () => {
    const turns = createTurns<string>(2);
    for (const item of ["a1", "a2", "a3"]) turns.push("A", item);
    expect(turns.take()?.item).toBe("a1");
    turns.push("B", "b1");
    turns.push("C", "c1");
    turns.done("A");
    expect([turns.take()?.item, turns.take()?.item, turns.take()?.item, turns.take()?.item]).toEqual(["b1", "c1", "a2", "a3"]);
    expect(turns.take()).toBeUndefined();
  });

  it("holds an owner to its share of the processes, whatever it has waiting", () => {
    const turns = createTurns<string>(1);
    for (const item of ["a1", "a2"]) turns.push("A", item);
    expect(turns.take()?.item).toBe("a1");
    expect(turns.take()).toBeUndefined();
    turns.push("B", "b1");
    expect(turns.take()?.item).toBe("b1");
    turns.done("A");
    expect(turns.take()?.item).toBe("a2");
    expect(turns.waiting).toBe(0);
  });
});

describe("the parser processes", () => {
  it("with one process, another owner's upload is parsed before the first owner's queue", async () => {
    const sandbox = createParseSandbox({ size: 1 });
    try {
      const finished: string[] = [];
      const jobs = [
        ["a1", "A"],
        ["a2", "A"],
        ["a3", "A"],
        ["b1", "B"],
      ].map(([name, owner]) => sandbox.parse(request(small(), owner as string)).then(() => finished.push(name as string)));
      await Promise.all(jobs);
      expect(finished).toEqual(["a1", "b1", "a2", "a3"]);
    } finally {
      await sandbox.close();
    }
  });

  it("one upload after another goes to the process that answered last: the second process starts only when two parse at once", async () => {
    const parsers = () => {
      let children: string[] = [];
      try {
        children = readFileSync(`/proc/${process.pid}/task/${process.pid}/children`, "utf8").trim().split(/\s+/).filter(Boolean);
      } catch {}
      return children.filter((pid) => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("parse-child");
        } catch {
          return false;
        }
      }).length;
    };
    const before = parsers();
    const sandbox = createParseSandbox({ size: 2 });
    try {
      for (const owner of ["A", "B", "A", "C"]) {
        const timings: Record<string, number> = {};
        await sandbox.parse(request(small(), owner), timings);
      }
      expect(parsers() - before).toBe(1);
      await Promise.all([sandbox.parse(request(small(), "A")), sandbox.parse(request(small(), "B"))]);
      expect(parsers() - before).toBe(2);
    } finally {
      await sandbox.close();
    }
  });

  it("with two, one owner's long uploads leave a process to another owner", async () => {
    const sandbox = createParseSandbox({ size: 2 });
    try {
      // Both processes started (the second starts at the first time two owners wait).
      await Promise.all([sandbox.parse(request(small(), "X")), sandbox.parse(request(small(), "Y"))]);
      const finished: string[] = [];
      const a = [1, 2].map((n) => sandbox.parse(request(large(300_000), "A")).then(() => finished.push(`a${n}`)));
      const b = sandbox.parse(request(small(), "B")).then(() => finished.push("b"));
      await Promise.all([...a, b]);
      // A holds one process at most, so its second upload waits for its first while B's starts at once.
      expect(finished[0]).toBe("b");
    } finally {
      await sandbox.close();
    }
  }, 60_000);

  it("stops a parse past the memory cap with a 413 naming PARSER_MAX_MEMORY_MB, and parses the next upload", async () => {
    const cap = 300 * 1024 ** 2;
    const logged: string[] = [];
    const sandbox = createParseSandbox({ size: 1, maxMemoryBytes: cap, onStderr: (line) => logged.push(line) });
    try {
      const tooLarge = { code: "PAYLOAD_TOO_LARGE", details: { setting: "PARSER_MAX_MEMORY_MB", limit: cap } };
      // Native memory (polars reading CSV), then JavaScript's (decoded JSON values).
      await expect(sandbox.parse(request(large(2_000_000), "A"))).rejects.toMatchObject(tooLarge);
      const rows = Array.from({ length: 2_000_000 }, (_, i) => `{"a":${i},"b":"s${i}"}`);
      await expect(sandbox.parse(request(`[${rows.join(",")}]`, "A", "json"))).rejects.toMatchObject(tooLarge);
      const [schema] = await sandbox.parse(request(small(), "A"));
      expect(schema?.num_rows).toBe(3);
    } finally {
      await sandbox.close();
    }
  }, 120_000);
});

describe("what a failed parse says", () => {
  it("keeps a clear message and drops a Rust panic's text, logging it", () => {
    const panic = new AppError(
      "PARSE_FAILED",
      "Parquet could not be read: called `Option::unwrap()` on a `None` value at crates/polars-parquet/src/read.rs:12:5",
    );
    const answer = publicFailure(panic);
    expect(answer).toMatchObject({ code: "PARSE_FAILED", message: "Parquet could not be read: the reader failed on the file's contents" });
    expect(answer.logged).toContain("unwrap");
    expect(publicFailure(new AppError("PARSE_FAILED", "thread '<unnamed>' panicked at src/lib.rs:1:1"))).toMatchObject({
      message: "the file could not be parsed: the reader failed on the file's contents",
    });
    const debugged =
      "Arrow IPC could not be read: out-of-spec: InvalidFlatbufferSchema(Error { source_location: ErrorLocation { byte_offset: 4 } })";
    expect(publicFailure(new AppError("PARSE_FAILED", debugged)).message).toBe(
      "Arrow IPC could not be read: out-of-spec: the reader failed on the file's contents",
    );
    expect(publicFailure(new AppError("PARSE_FAILED", "the JSON is not UTF-8 (byte 3)"))).toEqual({
      code: "PARSE_FAILED",
      message: "the JSON is not UTF-8 (byte 3)",
    });
  });

  it("answers errors other than AppError as the file's failure (413 or 422), and system failures as the server's", () => {
    expect(publicFailure(new RangeError("Maximum call stack size exceeded")).code).toBe("PAYLOAD_TOO_LARGE");
    expect(publicFailure(new RangeError("Invalid string length")).code).toBe("PAYLOAD_TOO_LARGE");
    const other = publicFailure(new Error("called `Result::unwrap()` on an `Err` value"));
    expect(other.code).toBe("PARSE_FAILED");
    expect(other.message).not.toContain("unwrap");
    expect(publicFailure(Object.assign(new Error("ENOSPC: no space left on device"), { syscall: "write" })).code).toBe("INTERNAL");
  });
});
