// ORC reader: every fixture against the upstream orc-contents output, RLE spec examples, codecs and hostile inputs.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gunzipSync, inflateRawSync, zstdCompressSync } from "node:zlib";
import type { Table, Vector } from "apache-arrow";
import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors/app-error.ts";
import { decodeBooleanRle, decodeByteRle } from "../../src/ingest/orc/byte-rle.ts";
import { formatDecimal } from "../../src/ingest/orc/decimal.ts";
import { readOrc, readOrcSchema } from "../../src/ingest/orc/index.ts";
import { lz4Decompress } from "../../src/ingest/orc/lz4.ts";
import { decodeRleV1 } from "../../src/ingest/orc/rle-v1.ts";
import { decodeRleV2 } from "../../src/ingest/orc/rle-v2.ts";
import { snappyDecompress } from "../../src/ingest/orc/snappy.ts";
import { ByteReader } from "../../src/ingest/orc/streams.ts";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "..", "fixtures", "orc");
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(join(FIXTURES, name)));

/** Rows and schema per fixture, as recorded in shared/fixtures/MANIFEST.tsv (expected_rows, expected_columns_or_schema). */
const MANIFEST: { file: string; rows: number; schema: string; compression: string; expected?: string }[] = [
  {
    file: "TestOrcFile.emptyFile.orc",
    rows: 0,
    compression: "NONE",
    expected: "TestOrcFile.emptyFile.jsn.gz",
    schema:
      "struct<boolean1:boolean,byte1:tinyint,short1:smallint,int1:int,long1:bigint,float1:float,double1:double,bytes1:binary,string1:string,middle:struct<list:array<struct<int1:int,string1:string>>>,list:array<struct<int1:int,string1:string>>,map:map<string,struct<int1:int,string1:string>>>",
  },
  {
    file: "TestOrcFile.test1.orc",
    rows: 2,
    compression: "ZLIB",
    expected: "TestOrcFile.test1.jsn.gz",
    schema:
      "struct<boolean1:boolean,byte1:tinyint,short1:smallint,int1:int,long1:bigint,float1:float,double1:double,bytes1:binary,string1:string,middle:struct<list:array<struct<int1:int,string1:string>>>,list:array<struct<int1:int,string1:string>>,map:map<string,struct<int1:int,string1:string>>>",
  },
  {
    file: "TestOrcFile.testSnappy.orc",
    rows: 10000,
    compression: "SNAPPY",
    expected: "TestOrcFile.testSnappy.jsn.gz",
    schema: "struct<int1:int,string1:string>",
  },
  {
    file: "TestOrcFile.testStringAndBinaryStatistics.orc",
    rows: 4,
    compression: "ZLIB",
    expected: "TestOrcFile.testStringAndBinaryStatistics.jsn.gz",
    schema: "struct<bytes1:binary,string1:string>",
  },
  {
    file: "TestOrcFile.testTimestamp.orc",
    rows: 12,
    compression: "ZLIB",
    expected: "TestOrcFile.testTimestamp.jsn.gz",
    schema: "timestamp",
  },
  {
    file: "TestOrcFile.testUnionAndTimestamp.orc",
    rows: 5077,
    compression: "NONE",
    expected: "TestOrcFile.testUnionAndTimestamp.jsn.gz",
    schema: "struct<time:timestamp,union:uniontype<int,string>,decimal:decimal(38,18)>",
  },
  {
    file: "TestVectorOrcFile.testLz4.orc",
    rows: 10000,
    compression: "LZ4",
    expected: "TestVectorOrcFile.testLz4.jsn.gz",
    schema: "struct<x:bigint,y:int,z:bigint>",
  },
  { file: "decimal.orc", rows: 6000, compression: "NONE", expected: "decimal.jsn.gz", schema: "struct<_col0:decimal(10,5)>" },
  {
    file: "demo-12-zlib.orc",
    rows: 1920800,
    compression: "ZLIB",
    schema: "struct<_col0:int,_col1:string,_col2:string,_col3:string,_col4:int,_col5:string,_col6:int,_col7:int,_col8:int>",
  },
];

// ---------------------------------------------------------------------------------------------------------------
// A small parser for ORC type strings, so the comparison knows which JSON values are maps, unions, decimals...

type TypeNode =
  | { kind: "prim"; name: string }
  | { kind: "struct"; fields: { name: string; type: TypeNode }[] }
  | { kind: "array"; elem: TypeNode }
  | { kind: "map"; key: TypeNode; value: TypeNode }
  | { kind: "union"; branches: TypeNode[] };

function parseType(text: string): TypeNode {
  let pos = 0;
  const word = (): string => {
    const m = /^[A-Za-z0-9_ ]+?(?=[<>,:(]|$)/.exec(text.slice(pos));
    if (m === null) throw new Error(`bad type string at ${pos}: ${text}`);
    pos += m[0].length;
    return m[0];
  };
  const expectChar = (c: string): void => {
    if (text[pos] !== c) throw new Error(`expected ${c} at ${pos}: ${text}`);
    pos++;
  };
  const list = (): TypeNode[] => {
    const out = [node()];
    while (text[pos] === ",") {
      pos++;
      out.push(node());
    }
    return out;
  };
  const node = (): TypeNode => {
    const name = word();
    if (name === "struct") {
      expectChar("<");
      const fields: { name: string; type: TypeNode }[] = [];
      while (text[pos] !== ">") {
        const field = word();
        expectChar(":");
        fields.push({ name: field, type: node() });
        if (text[pos] === ",") pos++;
      }
      expectChar(">");
      return { kind: "struct", fields };
    }
    if (name === "array" || name === "map" || name === "uniontype") {
      expectChar("<");
      const args = list();
      expectChar(">");
      if (name === "array") return { kind: "array", elem: args[0] as TypeNode };
      if (name === "map") return { kind: "map", key: args[0] as TypeNode, value: args[1] as TypeNode };
      return { kind: "union", branches: args };
    }
    if (text[pos] === "(") pos = text.indexOf(")", pos) + 1; // decimal(p,s), varchar(n), char(n)
    return { kind: "prim", name };
  };
  return node();
}

// ---------------------------------------------------------------------------------------------------------------
// Normalisation. Both sides are parsed with a JSON reviver that keeps every number's source text ({ $num: "..." }),
// because orc-contents prints bigints (9223372036854775807) and decimals (12345678.654745600000000000) that a
// double would round. Then values are compared by ORC type:
// - integers: as BigInt; float: equal as float32 (orc-contents prints the float widened to double); double: equal
//   to 1e-12 relative; decimal: the exact text (our Utf8 keeps exactly `scale` digits, as orc-contents prints them);
// - binary: orc-contents prints an array of byte values, we have bytes (or the same array inside nested JSON);
// - timestamp: orc-contents prints the wall clock in its local zone, which was the writer's zone (US/Pacific):
//   we have the UTC instant, so we print it in the zone the file names ("orc.writer_timezone", else UTC) as
//   "YYYY-MM-DD HH:MM:SS.fraction" with trailing zeros dropped (at least one digit);
// - map: orc-contents prints [{"key": k, "value": v}, ...]; we print an object keyed by the key's text;
// - union: orc-contents prints {"tag": t, "value": v}; we print just v (compared using branch t's type).

type RawNum = { $num: string };
const isRawNum = (v: unknown): v is RawNum => typeof v === "object" && v !== null && "$num" in v;

function parseRaw(text: string): unknown {
  const reviver = (_key: string, value: unknown, context?: { source?: string }): unknown =>
    typeof value === "number" && context?.source !== undefined ? { $num: context.source } : value;
  return JSON.parse(text, reviver as (this: unknown, key: string, value: unknown) => unknown);
}

function numText(v: unknown): string {
  if (isRawNum(v)) return v.$num;
  if (typeof v === "number" || typeof v === "bigint") return String(v);
  throw new Error(`not a number: ${JSON.stringify(v)}`);
}

const zoneFormats = new Map<string, Intl.DateTimeFormat>();
function wallClock(ns: bigint, zone: string): string {
  let format = zoneFormats.get(zone);
  if (format === undefined) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone: zone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    zoneFormats.set(zone, format);
  }
  let secs = ns / 1_000_000_000n;
  let nanos = ns % 1_000_000_000n;
  if (nanos < 0n) {
    nanos += 1_000_000_000n;
    secs -= 1n;
  }
  const p: Record<string, string> = {};
  for (const part of format.formatToParts(new Date(Number(secs) * 1000))) p[part.type] = part.value;
  const fraction = nanos.toString().padStart(9, "0").replace(/0+$/, "") || "0";
  return `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}:${p.second}.${fraction}`;
}

function isoToNanos(iso: string): bigint {
  const m = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(iso);
  if (m === null) throw new Error(`bad timestamp ${iso}`);
  return BigInt(Date.parse(`${m[1]}Z`)) * 1_000_000n + BigInt((m[2] ?? "").padEnd(9, "0"));
}

function compareValue(ours: unknown, exp: unknown, type: TypeNode, zone: string, path: string, problems: string[]): void {
  const fail = (why: string): void => {
    problems.push(`${path}: ${why} (ours ${show(ours)}, expected ${show(exp)})`);
  };
  if (ours === ARROW_NULL) {
    if (exp !== null) fail("null mismatch");
    return;
  }
  if (type.kind === "union" && exp !== null) {
    // A present union whose branch value is null is the JSON text "null" for us (the Arrow value is not null).
    const e = exp as { tag: unknown; value: unknown };
    const branch = type.branches[Number(numText(e.tag))];
    if (branch === undefined) {
      fail("union tag");
      return;
    }
    compareValue(ours, e.value, branch, zone, `${path}|${numText(e.tag)}`, problems);
    return;
  }
  if (exp === null || ours === null || ours === undefined) {
    if (!(exp === null && (ours === null || ours === undefined))) fail("null mismatch");
    return;
  }
  switch (type.kind) {
    case "struct": {
      const o = ours as Record<string, unknown>;
      const e = exp as Record<string, unknown>;
      if (Object.keys(o).length !== type.fields.length) fail("field count");
      for (const f of type.fields) compareValue(o[f.name], e[f.name], f.type, zone, `${path}.${f.name}`, problems);
      return;
    }
    case "array": {
      const o = ours as unknown[];
      const e = exp as unknown[];
      if (!Array.isArray(o) || o.length !== e.length) {
        fail("list length");
        return;
      }
      e.forEach((v, i) => {
        compareValue(o[i], v, type.elem, zone, `${path}[${i}]`, problems);
      });
      return;
    }
    case "map": {
      const o = ours as Record<string, unknown>;
      const e = exp as { key: unknown; value: unknown }[];
      if (Object.keys(o).length !== e.length) {
        fail("map size");
        return;
      }
      for (const { key, value } of e) {
        const k = typeof key === "string" ? key : numText(key);
        compareValue(o[k], value, type.value, zone, `${path}{${k}}`, problems);
      }
      return;
    }
    case "union":
      fail("union"); // handled above
      return;
    case "prim":
      break;
  }
  const name = type.name;
  if (name === "boolean") {
    if (ours !== exp) fail("boolean");
  } else if (["tinyint", "smallint", "int", "bigint"].includes(name)) {
    if (BigInt(numText(ours)) !== BigInt(numText(exp))) fail("integer");
  } else if (name === "float") {
    if (Math.fround(Number(numText(ours))) !== Math.fround(Number(numText(exp)))) fail("float");
  } else if (name === "double") {
    const a = Number(numText(ours));
    const b = Number(numText(exp));
    if (!(a === b || Math.abs(a - b) <= 1e-12 * Math.max(Math.abs(a), Math.abs(b)))) fail("double");
  } else if (name === "decimal") {
    if ((typeof ours === "string" ? ours : numText(ours)) !== numText(exp)) fail("decimal text");
  } else if (name === "binary") {
    const a = ours instanceof Uint8Array ? Array.from(ours) : (ours as unknown[]).map((v) => Number(numText(v)));
    const b = (exp as unknown[]).map((v) => Number(numText(v)));
    if (a.join(",") !== b.join(",")) fail("binary");
  } else if (name === "timestamp") {
    const ns = typeof ours === "bigint" ? ours : isoToNanos(ours as string);
    if (wallClock(ns, zone) !== exp) fail(`timestamp (ours as wall clock ${wallClock(ns, zone)})`);
  } else if (ours !== exp) {
    fail(name);
  }
}

function show(v: unknown): string {
  return JSON.stringify(v, (_k, x) => (typeof x === "bigint" ? `${x}n` : x instanceof Uint8Array ? Array.from(x) : x));
}

/** Marks a null Arrow value (as opposed to a JSON null inside a nested value's text). */
const ARROW_NULL = Symbol("arrow null");

/** Row values of one column as the comparison wants them: bigint nanoseconds for timestamps, parsed JSON for nested. */
function columnValues(vector: Vector, type: TypeNode): unknown[] {
  const out: unknown[] = [];
  const nested = type.kind !== "prim";
  for (const data of vector.data) {
    for (let i = 0; i < data.length; i++) {
      if (!data.getValid(i)) {
        out.push(ARROW_NULL);
      } else if (type.kind === "prim" && type.name === "timestamp") {
        out.push((data.values as BigInt64Array)[data.offset + i]);
      } else {
        const v = vector.get(out.length);
        out.push(nested ? parseRaw(v as string) : v);
      }
    }
  }
  return out;
}

function expectedRows(name: string): unknown[] {
  const text = gunzipSync(readFileSync(join(FIXTURES, "expected", name))).toString("utf8");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map(parseRaw);
}

function compareTable(table: Table, expected: unknown[], schema: string): string[] {
  const root = parseType(schema);
  const columns = root.kind === "struct" ? root.fields : [{ name: "_col0", type: root }];
  const zone = table.schema.metadata.get("orc.writer_timezone") ?? "UTC";
  const problems: string[] = [];
  for (const col of columns) {
    const vector = table.getChild(col.name);
    if (vector === null) {
      problems.push(`missing column ${col.name}`);
      continue;
    }
    const values = columnValues(vector, col.type);
    expected.forEach((row, r) => {
      // A bare (non-struct) root prints each row as the value itself.
      const exp = root.kind === "struct" ? (row as Record<string, unknown>)[col.name] : row;
      compareValue(values[r], exp, col.type, zone, `row ${r} ${col.name}`, problems);
    });
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------------------------

describe("ORC fixtures", () => {
  for (const entry of MANIFEST) {
    it(`${entry.file}: rows, columns and every value`, () => {
      const bytes = fixture(entry.file);
      const summary = readOrcSchema(bytes);
      expect(summary.rows).toBe(entry.rows);
      expect(summary.compression).toBe(entry.compression);
      const root = parseType(entry.schema);
      const names = root.kind === "struct" ? root.fields.map((f) => f.name) : ["_col0"];
      expect(summary.columns.map((c) => c.name)).toEqual(names);
      const schemaText =
        root.kind === "struct" ? `struct<${summary.columns.map((c) => `${c.name}:${c.orcType}`).join(",")}>` : summary.columns[0]?.orcType;
      expect(schemaText).toBe(entry.schema);

      const table = readOrc(bytes);
      expect(table.numRows).toBe(entry.rows);
      expect(table.schema.fields.map((f) => f.name)).toEqual(names);
      if (entry.expected !== undefined) {
        const expected = expectedRows(entry.expected);
        expect(expected.length).toBe(entry.rows);
        const problems = compareTable(table, expected, entry.schema);
        expect(problems.slice(0, 10)).toEqual([]);
      }
    });
  }

  it("maps types to Arrow as documented", () => {
    const table = readOrc(fixture("TestOrcFile.test1.orc"));
    const types = Object.fromEntries(table.schema.fields.map((f) => [f.name, String(f.type)]));
    expect(types).toEqual({
      boolean1: "Bool",
      byte1: "Int8",
      short1: "Int16",
      int1: "Int32",
      long1: "Int64",
      float1: "Float32",
      double1: "Float64",
      bytes1: "Binary",
      string1: "Utf8",
      middle: "Utf8",
      list: "Utf8",
      map: "Utf8",
    });
    expect(table.getChild("middle")?.get(0)).toBe('{"list":[{"int1":1,"string1":"bye"},{"int1":2,"string1":"sigh"}]}');
    expect(table.getChild("map")?.get(1)).toBe('{"chani":{"int1":5,"string1":"chani"},"mauddib":{"int1":1,"string1":"mauddib"}}');
    expect(table.getChild("long1")?.get(0)).toBe(9223372036854775807n);

    const ts = readOrc(fixture("TestOrcFile.testUnionAndTimestamp.orc"));
    expect(String(ts.schema.fields[0]?.type)).toBe("Timestamp<NANOSECOND>");
    expect(ts.getChild("union")?.get(0)).toBe("42");
    expect(ts.getChild("union")?.get(1)).toBe('"hello"');
    expect(ts.getChild("decimal")?.get(0)).toBe("12345678.654745600000000000");
    // 2000-03-12 15:00:00 in US/Pacific (PST, UTC-8) is 23:00 UTC.
    const time = ts.getChild("time")?.data[0]?.values as BigInt64Array;
    expect(time[0]).toBe(BigInt(Date.UTC(2000, 2, 12, 23)) * 1_000_000n);
  });

  it("gives a 0-row table with the full schema for a file without stripes", () => {
    const table = readOrc(fixture("TestOrcFile.emptyFile.orc"));
    expect(table.numRows).toBe(0);
    expect(table.schema.fields.length).toBe(12);
    expect(String(table.schema.fields[4]?.type)).toBe("Int64");
  });

  it("reads demo-12-zlib.orc (1,920,800 rows) quickly and correctly", () => {
    const bytes = fixture("demo-12-zlib.orc");
    const started = performance.now();
    const table = readOrc(bytes);
    const ms = performance.now() - started;
    console.log(`demo-12-zlib.orc: ${table.numRows} rows in ${ms.toFixed(0)} ms`);
    expect(table.numRows).toBe(1_920_800);
    expect(ms).toBeLessThan(10_000);
    // TPC-DS customer_demographics: the first and last rows of the generated cross product.
    expect(table.get(0)?.toJSON()).toEqual({
      _col0: 1,
      _col1: "M",
      _col2: "M",
      _col3: "Primary",
      _col4: 500,
      _col5: "Good",
      _col6: 0,
      _col7: 0,
      _col8: 0,
    });
    expect(table.get(1_920_799)?.toJSON()).toEqual({
      _col0: 1_920_800,
      _col1: "F",
      _col2: "U",
      _col3: "Unknown",
      _col4: 10_000,
      _col5: "Unknown",
      _col6: 6,
      _col7: 6,
      _col8: 6,
    });
    // _col0 is the row number, 1-based, all the way through.
    const ids = table.getChild("_col0")?.data[0]?.values as Int32Array;
    let ok = true;
    for (let i = 0; i < ids.length; i++) if (ids[i] !== i + 1) ok = false;
    expect(ok).toBe(true);
  });
});

describe("ORC read options", () => {
  it("selects columns by name, in the order asked", () => {
    const table = readOrc(fixture("TestOrcFile.test1.orc"), { columns: ["string1", "int1"] });
    expect(table.schema.fields.map((f) => f.name)).toEqual(["string1", "int1"]);
    expect(table.get(1)?.toJSON()).toEqual({ string1: "bye", int1: 65536 });
  });

  it("rejects an unknown column, naming it", () => {
    expect(() => readOrc(fixture("TestOrcFile.test1.orc"), { columns: ["nope"] })).toThrow(/nope/);
  });

  it("slices rows across stripes with skipRows/numRows", () => {
    const bytes = fixture("TestOrcFile.testSnappy.orc"); // 2 stripes
    const all = readOrc(bytes).getChild("int1")?.toArray() as Int32Array;
    const part = readOrc(bytes, { skipRows: 4990, numRows: 30 });
    expect(part.numRows).toBe(30);
    expect(Array.from(part.getChild("int1")?.toArray() as Int32Array)).toEqual(Array.from(all.subarray(4990, 5020)));
    expect(readOrc(bytes, { skipRows: 20_000 }).numRows).toBe(0);
    expect(readOrc(bytes, { numRows: 0 }).numRows).toBe(0);
    const allStrings = readOrc(bytes).getChild("string1")?.toArray() as string[];
    const strings = readOrc(bytes, { skipRows: 9998, columns: ["string1"] });
    expect(strings.numRows).toBe(2);
    expect(strings.getChild("string1")?.toArray()).toEqual(allStrings.slice(9998));
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Encoding units, with the example bytes from the ORC v1 specification.

const reader = (bytes: number[]): ByteReader => new ByteReader(Uint8Array.from(bytes), "test", "DATA", 0);

function rleV2(bytes: number[], count: number, signed = false): number[] {
  const out = new Float64Array(count);
  decodeRleV2(reader(bytes), count, signed, out);
  const big = new BigInt64Array(count);
  decodeRleV2(reader(bytes), count, signed, big);
  expect(Array.from(big, Number)).toEqual(Array.from(out)); // the exact 64-bit path agrees
  return Array.from(out);
}

describe("integer RLE v2 (spec examples)", () => {
  it("SHORT_REPEAT", () => {
    expect(rleV2([0x0a, 0x27, 0x10], 5)).toEqual([10000, 10000, 10000, 10000, 10000]);
  });

  it("DIRECT", () => {
    expect(rleV2([0x5e, 0x03, 0x5c, 0xa1, 0xab, 0x1e, 0xde, 0xad, 0xbe, 0xef], 4)).toEqual([23713, 43806, 57005, 48879]);
  });

  it("PATCHED_BASE", () => {
    const bytes = [
      0x8e, 0x13, 0x2b, 0x21, 0x07, 0xd0, 0x1e, 0x00, 0x14, 0x70, 0x28, 0x32, 0x3c, 0x46, 0x50, 0x5a, 0x64, 0x6e, 0x78, 0x82, 0x8c, 0x96,
      0xa0, 0xaa, 0xb4, 0xbe, 0xfc, 0xe8,
    ];
    expect(rleV2(bytes, 20)).toEqual([
      2030, 2000, 2020, 1000000, 2040, 2050, 2060, 2070, 2080, 2090, 2100, 2110, 2120, 2130, 2140, 2150, 2160, 2170, 2180, 2190,
    ]);
  });

  it("DELTA", () => {
    expect(rleV2([0xc6, 0x09, 0x02, 0x02, 0x22, 0x42, 0x42, 0x46], 10)).toEqual([2, 3, 5, 7, 11, 13, 17, 19, 23, 29]);
  });

  it("signed values, fixed deltas and exact 64-bit values", () => {
    // SHORT_REPEAT of zigzag 3 (-2), 3 times.
    expect(rleV2([0x00, 0x03], 3, true)).toEqual([-2, -2, -2]);
    // DELTA with width code 0: base 10 (zigzag 20), delta -2 (zigzag 3), 5 values.
    expect(rleV2([0xc0, 0x04, 0x14, 0x03], 5, true)).toEqual([10, 8, 6, 4, 2]);
    // DIRECT, 64-bit width, one value: zigzag 0xfffffffffffffffe = INT64_MAX.
    const big = new BigInt64Array(1);
    decodeRleV2(reader([0x7e, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe]), 1, true, big);
    expect(big[0]).toBe(9223372036854775807n);
  });

  it("fails cleanly on truncated runs", () => {
    expect(() => decodeRleV2(reader([0x5e, 0x03, 0x5c]), 4, false, new Float64Array(4))).toThrow(AppError);
    expect(() => decodeRleV2(reader([0x0a]), 5, false, new Float64Array(5))).toThrow(AppError);
  });
});

describe("integer RLE v1, byte RLE and boolean RLE (spec examples)", () => {
  it("RLE v1 runs and literals", () => {
    const run = new Float64Array(100);
    decodeRleV1(reader([0x61, 0x00, 0x07]), 100, false, run);
    expect(Array.from(run)).toEqual(new Array(100).fill(7));
    const down = new Float64Array(100);
    decodeRleV1(reader([0x61, 0xff, 0x64]), 100, false, down);
    expect(Array.from(down)).toEqual(Array.from({ length: 100 }, (_, i) => 100 - i));
    const lit = new BigInt64Array(5);
    decodeRleV1(reader([0xfb, 0x02, 0x03, 0x06, 0x07, 0x0b]), 5, false, lit);
    expect(Array.from(lit)).toEqual([2n, 3n, 6n, 7n, 11n]);
  });

  it("byte RLE and boolean RLE", () => {
    expect(Array.from(decodeByteRle(reader([0x61, 0x00]), 100))).toEqual(new Array(100).fill(0));
    expect(Array.from(decodeByteRle(reader([0xfe, 0x44, 0x45]), 2))).toEqual([0x44, 0x45]);
    expect(Array.from(decodeBooleanRle(reader([0xff, 0x80]), 8))).toEqual([1, 0, 0, 0, 0, 0, 0, 0]);
  });

  it("decimal text keeps the type's scale", () => {
    expect(formatDecimal(-1234500, 5, 5)).toBe("-12.34500");
    expect(formatDecimal(-5, 1, 3)).toBe("-0.500");
    expect(formatDecimal(0, 0, 2)).toBe("0.00");
    expect(formatDecimal(123456789012345678901234567890n, 18, 18)).toBe("123456789012.345678901234567890");
    expect(formatDecimal(-19, 2, 1)).toBe("-0.1");
    expect(formatDecimal(-1, 2, 1)).toBe("0.0");
  });
});

describe("codecs", () => {
  const abc = Array.from("abcabcabcabc", (c) => c.charCodeAt(0));

  it("snappy literals and overlapping copies", () => {
    expect(Array.from(snappyDecompress(Uint8Array.from([12, 0x08, 97, 98, 99, 0x15, 0x03]), 100))).toEqual(abc);
    expect(() => snappyDecompress(Uint8Array.from([12, 0x08, 97, 98, 99, 0x15, 0x09]), 100)).toThrow(/offset/);
    expect(() => snappyDecompress(Uint8Array.from([0xff, 0xff, 0x7f]), 100)).toThrow(/exceeds/);
  });

  it("lz4 block literals and overlapping matches", () => {
    expect(Array.from(lz4Decompress(Uint8Array.from([0x35, 97, 98, 99, 3, 0]), 100))).toEqual(abc);
    expect(() => lz4Decompress(Uint8Array.from([0x35, 97, 98, 99, 9, 0]), 100)).toThrow(/offset/);
    expect(() => lz4Decompress(Uint8Array.from([0x3f, 97, 98, 99, 3, 0, 255, 10]), 100)).toThrow(/block size/);
  });

  it("ZSTD: test1.orc recompressed with zstd reads exactly like the ZLIB original", () => {
    const original = fixture("TestOrcFile.test1.orc");
    const zstd = recompress(original, 5, (chunk) => new Uint8Array(zstdCompressSync(chunk)));
    expect(readOrcSchema(zstd).compression).toBe("ZSTD");
    const a = readOrc(original);
    const b = readOrc(zstd);
    expect(b.numRows).toBe(2);
    expect(show(b.toArray().map((r) => r.toJSON()))).toBe(show(a.toArray().map((r) => r.toJSON())));
    const problems = compareTable(b, expectedRows("TestOrcFile.test1.jsn.gz"), MANIFEST[1]?.schema ?? "");
    expect(problems).toEqual([]);
  });

  it("refuses LZO and unknown codecs by name", () => {
    const bytes = withCodec(fixture("TestOrcFile.test1.orc"), 3);
    expect(() => readOrc(bytes)).toThrow(/LZO/);
    expect(() => readOrcSchema(withCodec(fixture("TestOrcFile.test1.orc"), 9))).toThrow(/UNKNOWN\(9\)/);
    try {
      readOrc(bytes);
    } catch (err) {
      expect((err as AppError).code).toBe("PARSE_FAILED");
    }
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Hostile inputs: every one must end in AppError PARSE_FAILED (or, for a flip that happens to keep the file valid,
// a table) - never another exception, a hang, or a giant allocation.

function expectParseFailed(run: () => unknown): void {
  let caught: unknown;
  try {
    run();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(AppError);
  expect((caught as AppError).code).toBe("PARSE_FAILED");
  expect((caught as AppError).details?.format).toBe("orc");
}

function readsOrFailsCleanly(bytes: Uint8Array): void {
  try {
    readOrc(bytes);
  } catch (err) {
    if (!(err instanceof AppError) || err.code !== "PARSE_FAILED") throw err;
  }
}

describe("hostile ORC input", () => {
  it("zero.orc (0 bytes) fails with PARSE_FAILED", () => {
    expectParseFailed(() => readOrc(fixture("zero.orc")));
    expectParseFailed(() => readOrcSchema(fixture("zero.orc")));
  });

  it("bad magic", () => {
    const bytes = fixture("TestOrcFile.test1.orc");
    bytes.set([0x58, 0x59, 0x5a], 0);
    expectParseFailed(() => readOrc(bytes));
  });

  it("test1.orc truncated at every length fails with PARSE_FAILED", () => {
    const bytes = fixture("TestOrcFile.test1.orc");
    for (let n = 0; n < bytes.length; n++) expectParseFailed(() => readOrc(bytes.subarray(0, n)));
  });

  it("flipped bytes in the tail fail with PARSE_FAILED", () => {
    const bytes = fixture("TestOrcFile.test1.orc");
    const psLength = bytes[bytes.length - 1] as number;
    // The PostScript length byte, the PostScript's own magic, and the first footer chunk header.
    const ps = bytes.length - 1 - psLength;
    const footerLength = readVarintAt(bytes, ps + 1);
    for (const at of [
      bytes.length - 1,
      bytes.length - 2,
      bytes.length - 3,
      ps - footerLength,
      ps - footerLength + 1,
      ps - footerLength + 2,
    ]) {
      const copy = bytes.slice();
      copy[at] = (copy[at] as number) ^ 0xff;
      expectParseFailed(() => readOrc(copy));
    }
  });

  it("any single flipped byte anywhere in test1.orc reads or fails cleanly", () => {
    const bytes = fixture("TestOrcFile.test1.orc");
    for (let at = 0; at < bytes.length; at++) {
      for (const mask of [0xff, 0x01, 0x80]) {
        const copy = bytes.slice();
        copy[at] = (copy[at] as number) ^ mask;
        readsOrFailsCleanly(copy);
      }
    }
  });

  it("flipped bytes in SNAPPY, LZ4, NONE and RLE v1 data read or fail cleanly", () => {
    for (const name of [
      "TestOrcFile.testSnappy.orc",
      "TestVectorOrcFile.testLz4.orc",
      "TestOrcFile.testUnionAndTimestamp.orc",
      "TestOrcFile.testTimestamp.orc",
      "decimal.orc",
    ]) {
      const bytes = fixture(name);
      const step = Math.max(1, Math.floor(bytes.length / 150));
      for (let at = 3; at < bytes.length; at += step) {
        const copy = bytes.slice();
        copy[at] = (copy[at] as number) ^ 0x5a;
        readsOrFailsCleanly(copy);
      }
    }
  });

  it("huge declared sizes are refused without allocating them", () => {
    // A PostScript claiming a footer far larger than the file.
    const ps = [0x08, 0xff, 0xff, 0xff, 0xff, 0x0f, 0x10, 0x00, 0x82, 0xf4, 0x03, 0x03, 0x4f, 0x52, 0x43];
    expectParseFailed(() => readOrc(Uint8Array.from([0x4f, 0x52, 0x43, ...ps, ps.length])));
    // A compression block size of 2^40.
    const big = [0x08, 0x01, 0x10, 0x01, 0x18, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20, 0x82, 0xf4, 0x03, 0x03, 0x4f, 0x52, 0x43];
    expectParseFailed(() => readOrc(Uint8Array.from([0x4f, 0x52, 0x43, 0x00, ...big, big.length])));
  });
});

// ---------------------------------------------------------------------------------------------------------------
// Test-only helpers that rewrite ORC files: a protobuf field splitter/joiner and a recompressor.

type PField = { field: number; wire: number; value: bigint | Uint8Array };

function readVarintAt(bytes: Uint8Array, at: number): number {
  let v = 0;
  let scale = 1;
  for (let i = at; ; i++) {
    const b = bytes[i] as number;
    v += (b & 0x7f) * scale;
    if (b < 0x80) return v;
    scale *= 128;
  }
}

function splitFields(bytes: Uint8Array): PField[] {
  const out: PField[] = [];
  let pos = 0;
  const varint = (): bigint => {
    let v = 0n;
    let shift = 0n;
    for (;;) {
      const b = bytes[pos++] as number;
      v |= BigInt(b & 0x7f) << shift;
      if (b < 0x80) return v;
      shift += 7n;
    }
  };
  while (pos < bytes.length) {
    const tag = Number(varint());
    const field = tag >>> 3;
    const wire = tag & 7;
    if (wire === 0) out.push({ field, wire, value: varint() });
    else if (wire === 2) {
      const len = Number(varint());
      out.push({ field, wire, value: bytes.subarray(pos, pos + len) });
      pos += len;
    } else {
      const len = wire === 1 ? 8 : 4;
      out.push({ field, wire, value: bytes.subarray(pos, pos + len) });
      pos += len;
    }
  }
  return out;
}

function joinFields(fields: PField[]): Uint8Array {
  const parts: number[] = [];
  const varint = (v: bigint): void => {
    let x = v;
    do {
      const b = Number(x & 0x7fn);
      x >>= 7n;
      parts.push(x > 0n ? b | 0x80 : b);
    } while (x > 0n);
  };
  for (const f of fields) {
    varint(BigInt((f.field << 3) | f.wire));
    if (typeof f.value === "bigint") varint(f.value);
    else {
      if (f.wire === 2) varint(BigInt(f.value.length));
      parts.push(...f.value);
    }
  }
  return Uint8Array.from(parts);
}

function setVarint(fields: PField[], field: number, value: number): PField[] {
  return fields.map((f) => (f.field === field && f.wire === 0 ? { ...f, value: BigInt(value) } : f));
}

function getVarint(fields: PField[], field: number): number {
  const f = fields.find((x) => x.field === field && x.wire === 0);
  return f === undefined ? 0 : Number(f.value as bigint);
}

/** Undoes ZLIB chunk framing (the codec of the file being rewritten). */
function inflateChunks(bytes: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    const header = (bytes[pos] as number) | ((bytes[pos + 1] as number) << 8) | ((bytes[pos + 2] as number) << 16);
    const len = header >>> 1;
    const chunk = bytes.subarray(pos + 3, pos + 3 + len);
    parts.push(header & 1 ? chunk : new Uint8Array(inflateRawSync(chunk)));
    pos += 3 + len;
  }
  return Uint8Array.from(parts.flatMap((p) => Array.from(p)));
}

function compressChunks(bytes: Uint8Array, blockSize: number, compress: (chunk: Uint8Array) => Uint8Array): Uint8Array {
  const parts: number[] = [];
  for (let at = 0; at < bytes.length; at += blockSize) {
    const chunk = bytes.subarray(at, at + blockSize);
    const packed = compress(chunk);
    const original = packed.length >= chunk.length;
    const body = original ? chunk : packed;
    const header = (body.length << 1) | (original ? 1 : 0);
    parts.push(header & 0xff, (header >>> 8) & 0xff, (header >>> 16) & 0xff, ...body);
  }
  return Uint8Array.from(parts);
}

/** Rewrites a ZLIB ORC file with another codec: every stream, stripe footer, metadata and footer recompressed. */
function recompress(file: Uint8Array, codec: number, compress: (chunk: Uint8Array) => Uint8Array): Uint8Array {
  const psLength = file[file.length - 1] as number;
  const psStart = file.length - 1 - psLength;
  let ps = splitFields(file.subarray(psStart, file.length - 1));
  const blockSize = getVarint(ps, 3) || 262144;
  const footerLength = getVarint(ps, 1);
  const metadataLength = getVarint(ps, 5);
  const footerStart = psStart - footerLength;
  const footer = splitFields(inflateChunks(file.subarray(footerStart, psStart)));
  const metadata = inflateChunks(file.subarray(footerStart - metadataLength, footerStart));
  const out: number[] = [0x4f, 0x52, 0x43];
  const newFooter: PField[] = [];
  for (const f of footer) {
    if (f.field !== 3) {
      newFooter.push(f);
      continue;
    }
    let stripe = splitFields(f.value as Uint8Array);
    const offset = getVarint(stripe, 1);
    const indexLength = getVarint(stripe, 2);
    const dataLength = getVarint(stripe, 3);
    const sfLength = getVarint(stripe, 4);
    const sfStart = offset + indexLength + dataLength;
    const stripeFooter = splitFields(inflateChunks(file.subarray(sfStart, sfStart + sfLength)));
    const newStart = out.length;
    let at = offset;
    let newIndexLength = 0;
    const newStripeFooter = stripeFooter.map((sf) => {
      if (sf.field !== 1) return sf;
      const stream = splitFields(sf.value as Uint8Array);
      const length = getVarint(stream, 3);
      const packed = compressChunks(inflateChunks(file.subarray(at, at + length)), blockSize, compress);
      if (at < offset + indexLength) newIndexLength += packed.length;
      at += length;
      out.push(...packed);
      return { ...sf, value: joinFields(setVarint(stream, 3, packed.length)) };
    });
    const newDataLength = out.length - newStart - newIndexLength;
    const packedFooter = compressChunks(joinFields(newStripeFooter), blockSize, compress);
    out.push(...packedFooter);
    stripe = setVarint(setVarint(setVarint(setVarint(stripe, 1, newStart), 2, newIndexLength), 3, newDataLength), 4, packedFooter.length);
    newFooter.push({ ...f, value: joinFields(stripe) });
  }
  const contentLength = out.length;
  const packedMetadata = compressChunks(metadata, blockSize, compress);
  out.push(...packedMetadata);
  const packedFooter = compressChunks(joinFields(setVarint(newFooter, 2, contentLength)), blockSize, compress);
  out.push(...packedFooter);
  ps = setVarint(setVarint(setVarint(ps, 1, packedFooter.length), 2, codec), 5, packedMetadata.length);
  const psBytes = joinFields(ps);
  out.push(...psBytes, psBytes.length);
  return Uint8Array.from(out);
}

/** test1.orc with only the PostScript's compression kind changed. */
function withCodec(file: Uint8Array, codec: number): Uint8Array {
  const psLength = file[file.length - 1] as number;
  const psStart = file.length - 1 - psLength;
  const ps = joinFields(setVarint(splitFields(file.subarray(psStart, file.length - 1)), 2, codec));
  return Uint8Array.from([...file.subarray(0, psStart), ...ps, ps.length]);
}

// ---------------------------------------------------------------------------------------------------------------
// A hand-built ORC file (codec NONE, RLE v1, one stripe) for the types no upstream fixture has: date, char,
// varchar (DICTIONARY), timestamp with local time zone, smallint, a decimal whose per-value scales differ from the
// type's, a list with nulls, and a plain timestamp written in America/New_York.

const uvarint = (v: number): number[] => {
  const out: number[] = [];
  let x = v;
  do {
    const b = x % 128;
    x = Math.floor(x / 128);
    out.push(x > 0 ? b | 0x80 : b);
  } while (x > 0);
  return out;
};
const zigzag = (v: number): number => (v < 0 ? -2 * v - 1 : 2 * v);
/** RLE v1 literal groups (control byte -n, then varints). */
const rleV1 = (values: number[], signed: boolean): number[] =>
  values.length === 0 ? [] : [256 - values.length, ...values.flatMap((v) => uvarint(signed ? zigzag(v) : v))];
const byteRle = (bytes: number[]): number[] => (bytes.length === 0 ? [] : [256 - bytes.length, ...bytes]);
const boolRle = (bits: number[]): number[] => {
  const packed: number[] = [];
  bits.forEach((b, i) => {
    if (i % 8 === 0) packed.push(0);
    if (b) packed[packed.length - 1] = (packed[packed.length - 1] as number) | (0x80 >>> (i % 8));
  });
  return byteRle(packed);
};
const utf8Bytes = (s: string): number[] => Array.from(new TextEncoder().encode(s));
const f32 = (v: number): number[] => Array.from(new Uint8Array(Float32Array.of(v).buffer));
const msg = (fields: [number, number | number[] | Uint8Array][]): Uint8Array =>
  joinFields(
    fields.map(([field, v]) =>
      typeof v === "number"
        ? { field, wire: 0, value: BigInt(v) }
        : { field, wire: 2, value: v instanceof Uint8Array ? v : Uint8Array.from(v) },
    ),
  );

type HandColumn = {
  name: string;
  kind: number;
  extra?: [number, number][];
  streams: [number, number[]][];
  encoding?: [number, number];
  children?: HandColumn[];
};

function buildOrc(rows: number, columns: HandColumn[], writerTimezone: string): Uint8Array {
  const types: Uint8Array[] = [];
  const streams: { kind: number; column: number; bytes: number[] }[] = [];
  const encodings: Uint8Array[] = [];
  const add = (c: HandColumn): number => {
    const id = types.length;
    types.push(new Uint8Array(0));
    encodings.push(new Uint8Array(0));
    const childIds = (c.children ?? []).map(add);
    types[id] = msg([
      [1, c.kind],
      ...(childIds.length ? ([[2, childIds.flatMap(uvarint)]] as [number, number[]][]) : []),
      ...(c.extra ?? []),
    ]);
    encodings[id] = msg([[1, c.encoding?.[0] ?? 0], ...(c.encoding ? ([[2, c.encoding[1]]] as [number, number][]) : [])]);
    for (const [kind, bytes] of c.streams) streams.push({ kind, column: id, bytes });
    return id;
  };
  types.push(new Uint8Array(0));
  encodings.push(msg([[1, 0]]));
  const top = columns.map(add);
  types[0] = msg([
    [1, 12],
    [2, top.flatMap(uvarint)],
  ]);
  const rootFields: PField[] = splitFields(types[0] as Uint8Array);
  for (const c of columns) rootFields.push({ field: 3, wire: 2, value: Uint8Array.from(utf8Bytes(c.name)) });
  types[0] = joinFields(rootFields);
  const data = streams.flatMap((s) => s.bytes);
  const stripeFooter = joinFields([
    ...streams.map((s) => ({
      field: 1,
      wire: 2,
      value: msg([
        [1, s.kind],
        [2, s.column],
        [3, s.bytes.length],
      ]),
    })),
    ...encodings.map((e) => ({ field: 2, wire: 2, value: e })),
    { field: 3, wire: 2, value: Uint8Array.from(utf8Bytes(writerTimezone)) },
  ]);
  const stripe = msg([
    [1, 3],
    [2, 0],
    [3, data.length],
    [4, stripeFooter.length],
    [5, rows],
  ]);
  const footer = joinFields([
    { field: 1, wire: 0, value: 3n },
    { field: 2, wire: 0, value: BigInt(data.length + stripeFooter.length) },
    { field: 3, wire: 2, value: stripe },
    ...types.map((t) => ({ field: 4, wire: 2, value: t })),
    { field: 6, wire: 0, value: BigInt(rows) },
  ]);
  const ps = joinFields([
    { field: 1, wire: 0, value: BigInt(footer.length) },
    { field: 2, wire: 0, value: 0n },
    { field: 4, wire: 2, value: Uint8Array.from([0, 12]) },
    { field: 5, wire: 0, value: 0n },
    { field: 8000, wire: 2, value: Uint8Array.from(utf8Bytes("ORC")) },
  ]);
  return Uint8Array.from([...utf8Bytes("ORC"), ...data, ...stripeFooter, ...footer, ...ps, ps.length]);
}

describe("hand-built ORC file with the remaining types", () => {
  const P = 0; // PRESENT
  const D = 1; // DATA
  const L = 2; // LENGTH
  const DICT = 3; // DICTIONARY_DATA
  const SEC = 5; // SECONDARY
  const file = buildOrc(
    5,
    [
      {
        name: "b",
        kind: 0,
        streams: [
          [P, boolRle([1, 1, 0, 1, 1])],
          [D, boolRle([1, 0, 1, 1])],
        ],
      },
      {
        name: "s",
        kind: 2,
        streams: [
          [P, boolRle([1, 1, 1, 0, 1])],
          [D, rleV1([-3, 7, 300, -32768], true)],
        ],
      },
      {
        name: "d",
        kind: 15,
        streams: [
          [P, boolRle([1, 1, 1, 1, 0])],
          [D, rleV1([0, 1, -1, 18262], true)],
        ],
      },
      {
        name: "c",
        kind: 17,
        extra: [[4, 3]],
        streams: [
          [P, boolRle([1, 1, 0, 1, 1])],
          [L, rleV1([3, 3, 0, 4], false)],
          [D, utf8Bytes("ab xyzé  ")],
        ],
      },
      {
        name: "v",
        kind: 16,
        extra: [[4, 5]],
        encoding: [1, 2],
        streams: [
          [P, boolRle([1, 1, 1, 0, 1])],
          [D, rleV1([0, 1, 0, 1], false)],
          [DICT, utf8Bytes("hiyo")],
          [L, rleV1([2, 2], false)],
        ],
      },
      {
        name: "t",
        kind: 18,
        streams: [
          [P, boolRle([1, 1, 0, 1, 1])],
          [D, rleV1([0, 1, -1, 86400], true)],
          [SEC, rleV1([0, 47, 0, 8], false)],
        ],
      },
      {
        name: "dec",
        kind: 14,
        extra: [
          [5, 5],
          [6, 2],
        ],
        streams: [
          [P, boolRle([1, 1, 0, 1, 1])],
          [D, [15, -5, 123, 0].flatMap((v) => uvarint(zigzag(v)))],
          [SEC, rleV1([1, 2, 0, 0], true)],
        ],
      },
      {
        name: "f",
        kind: 5,
        streams: [
          [P, boolRle([1, 0, 1, 1, 1])],
          [D, [1.5, -0.25, Number.NaN, 3.4028234663852886e38].flatMap(f32)],
        ],
      },
      {
        name: "l",
        kind: 10,
        streams: [
          [P, boolRle([1, 1, 0, 1, 1])],
          [L, rleV1([2, 0, 1, 1], false)],
        ],
        children: [{ name: "", kind: 3, streams: [[D, rleV1([1, 2, 3, -1], true)]] }],
      },
      {
        name: "ts",
        kind: 9,
        streams: [
          [D, rleV1([0, 181 * 86400, 0, 0, 0], true)],
          [SEC, rleV1([0, 0, 0, 0, 0], false)],
        ],
      },
    ],
    "America/New_York",
  );

  it("reads every value", () => {
    const table = readOrc(file);
    expect(readOrcSchema(file).columns.map((c) => c.orcType)).toEqual([
      "boolean",
      "smallint",
      "date",
      "char(3)",
      "varchar(5)",
      "timestamp with local time zone",
      "decimal(5,2)",
      "float",
      "array<int>",
      "timestamp",
    ]);
    const types = table.schema.fields.map((f) => String(f.type));
    expect(types).toEqual([
      "Bool",
      "Int16",
      "Date32<DAY>",
      "Utf8",
      "Utf8",
      "Timestamp<NANOSECOND, UTC>",
      "Utf8",
      "Float32",
      "Utf8",
      "Timestamp<NANOSECOND>",
    ]);
    const col = (name: string): unknown[] => {
      const v = table.getChild(name);
      return Array.from({ length: table.numRows }, (_, i) => (v?.isValid(i) ? v.get(i) : null));
    };
    const raw = (name: string): (bigint | null)[] => {
      const v = table.getChild(name);
      const values = v?.data[0]?.values as BigInt64Array;
      return Array.from({ length: table.numRows }, (_, i) => (v?.isValid(i) ? (values[i] as bigint) : null));
    };
    expect(col("b")).toEqual([true, false, null, true, true]);
    expect(col("s")).toEqual([-3, 7, 300, null, -32768]);
    expect(table.getChild("d")?.data[0]?.values).toEqual(Int32Array.from([0, 1, -1, 18262, 0]));
    expect(col("d")[4]).toBeNull();
    expect(col("c")).toEqual(["ab ", "xyz", null, "", "é  "]);
    expect(col("v")).toEqual(["hi", "yo", "hi", null, "yo"]);
    const epoch = 1_420_070_400n * 1_000_000_000n;
    expect(raw("t")).toEqual([epoch, epoch + 1_500_000_000n, null, epoch - 1_000_000_000n, epoch + 86_400_000_000_001n]);
    expect(col("dec")).toEqual(["1.50", "-0.05", null, "123.00", "0.00"]);
    const f = col("f");
    expect([f[0], f[1], f[2], Number.isNaN(f[3]), f[4]]).toEqual([1.5, null, -0.25, true, 3.4028234663852886e38]);
    expect(col("l")).toEqual(["[1,2]", "[]", null, "[3]", "[-1]"]);
    // Stored seconds count from 2015-01-01 00:00 New York time (05:00 UTC); the value is the UTC instant.
    const ny = BigInt(Date.UTC(2015, 0, 1, 5)) * 1_000_000n;
    expect(raw("ts")).toEqual([ny, ny + 181n * 86_400n * 1_000_000_000n, ny, ny, ny]);
  });

  it("rejects absurd counts and out-of-range references in an otherwise valid file", () => {
    const build = (streams: [number, number[]][], encoding?: [number, number], rows = 2) =>
      buildOrc(rows, [{ name: "v", kind: 7, encoding, streams }], "UTC");
    // A dictionary id beyond the dictionary.
    expectParseFailed(() =>
      readOrc(
        build(
          [
            [1, rleV1([0, 5], false)],
            [3, utf8Bytes("a")],
            [2, rleV1([1], false)],
          ],
          [1, 1],
        ),
      ),
    );
    // A dictionary of 2^31 entries declared with a 3-byte LENGTH stream.
    expectParseFailed(() =>
      readOrc(
        build(
          [
            [1, rleV1([0, 0], false)],
            [3, utf8Bytes("a")],
            [2, rleV1([1], false)],
          ],
          [1, 2 ** 31],
        ),
      ),
    );
    // String lengths summing past the DATA stream.
    expectParseFailed(() =>
      readOrc(
        build([
          [2, rleV1([1, 1000], false)],
          [1, utf8Bytes("ab")],
        ]),
      ),
    );
    // A stripe claiming 10^12 rows.
    expectParseFailed(() =>
      readOrc(
        build(
          [
            [2, rleV1([1, 1], false)],
            [1, utf8Bytes("ab")],
          ],
          undefined,
          1e12,
        ),
      ),
    );
    // A list of 2^31 - 2 empty structs (no streams back them): refused before rendering any JSON.
    const emptyStructs = buildOrc(
      1,
      [{ name: "l", kind: 10, streams: [[2, rleV1([2 ** 31 - 2], false)]], children: [{ name: "", kind: 12, streams: [] }] }],
      "UTC",
    );
    const started = performance.now();
    expectParseFailed(() => readOrc(emptyStructs));
    expect(performance.now() - started).toBeLessThan(2000);
    // A stripe claiming 10^8 rows backed by a few bytes.
    expectParseFailed(() =>
      readOrc(
        build(
          [
            [2, rleV1([1, 1], false)],
            [1, utf8Bytes("ab")],
          ],
          undefined,
          1e8,
        ),
      ),
    );
  });
});
