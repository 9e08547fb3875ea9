// read_csv options against pandas itself: each input is read by pandas (python3) and by the service through the
// files route and the direct dataset route; names, dtypes and every value must agree, and so must refusals.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";
import {
  expectAgreement,
  PANDAS_PYTHON,
  PANDAS_SKIP_REASON,
  pandasReadMany,
  type Reading,
  type ReadRequest,
  readAllWays,
  serviceReadFile,
  withPandasReadings,
} from "../helpers/pandas-reference.ts";

type Case = [title: string, bytes: string | Uint8Array, options?: Record<string, unknown>];

/** The issue's "found wrong" list, each read the pandas way. */
const FOUND_WRONG: Case[] = [
  ["parse_dates: plain dates", "d,n\n2024-01-02,1\n2024-02-03,2\n", { parse_dates: ["d"] }],
  ["parse_dates: YYYY-MM-DD HH:MM:SS", "d\n2024-01-02 03:04:05\n2024-02-03 00:00:01\n", { parse_dates: ["d"] }],
  ["parse_dates: ISO T forms with fractions", "d\n2024-01-02T03:04:05.123456789\n2024-02-03T00:00:01.5\n", { parse_dates: [0] }],
  ["parse_dates: Z is UTC", "d\n2024-01-02T03:04:05Z\n2024-02-03T00:00:01Z\n", { parse_dates: ["d"] }],
  ["parse_dates: a fixed offset", "d\n2024-01-02T03:04:05+01:00\n2024-02-03T00:00:01+01:00\n", { parse_dates: ["d"] }],
  ["parse_dates: missing values are NaT, mixed forms", "d\n2024-01-02\n\n2024-01-03 10:00\nNA\n", { parse_dates: ["d"] }],
  ["parse_dates: a value that is no date keeps the column text", "d\n2024-01-02\nfoo\n", { parse_dates: ["d"] }],
  ["parse_dates=True parses only an index: nothing here", "d,e\n2024-01-02,1\n", { parse_dates: true }],
  ["decimal comma", "a;b\n1,5;2\n-3,25;4\n", { sep: ";", decimal: "," }],
  ["names without header keeps the first row", "1,2\n3,4\n", { names: ["a", "b"] }],
  ["names with header=0 replaces the header", "x,y\n1,2\n", { names: ["a", "b"], header: 0 }],
  ["duplicate header names", "d,d,d,e\n1,2,3,4\n", {}],
  ["an integer column with a missing value is float64", "a,b\n1,\n2,3\n", {}],
  ["a boolean column with a missing value is object", "a,b\nTrue,1\n,2\nfalse,3\n", {}],
  ["numbers with surrounding spaces", "a,b\n 1 , 2.5\n3,\t4\n", {}],
  ["a blank header is Unnamed: N", "a,,c\n1,2,3\n", {}],
  ["big integers: uint64", "a\n18446744073709551615\n5\n", {}],
  ["big integers of mixed sign are text", "a\n18446744073709551615\n-1\n", {}],
  ["usecols keeps the file's order", "a,b,c\n1,2,3\n", { usecols: ["c", "a"] }],
  ["usecols by position", "a,b,c\n1,2,3\n", { usecols: [2, 0] }],
  ["dtype str keeps leading zeros", "a,b\n007,1\n010,2\n", { dtype: { a: "str" } }],
  ["dtype for every column", "a,b\n007,1\n", { dtype: "str" }],
  ["nullable Int64", "a,b\n1,\n2,3\n", { dtype: { b: "Int64" } }],
  ["nullable string", "a,b\nx,\n,3\n", { dtype: { a: "string" } }],
  ["nullable boolean", "a,b\nTrue,\n,3\n", { dtype: { a: "boolean" } }],
  ["category", "a\nx\ny\nx\n", { dtype: "category" }],
  ["keep_default_na=false", "a,b\nNA,1\nx,2\n,3\n", { keep_default_na: false }],
  ["keep_default_na=false with na_values", "a,b\nNA,1\nx,2\n", { keep_default_na: false, na_values: ["x"] }],
  ["na_filter=false", "a,b\nNA,1\nx,\n", { na_filter: false }],
  ["per-column na_values on a numeric column", "a,b\n-1,-1\n2,2\n", { na_values: { a: ["-1"] } }],
  ["numeric na_values match 1.0 forms", "a\n-1\n-1.0\n2\n", { na_values: [-1] }],
  ["comment, inline and whole lines", "a,b\n1,2#c\n#x\n3,4\n", { comment: "#" }],
  ["blank lines are skipped", "a,b\n1,2\n\n3,4\n\n", {}],
  ["skipfooter before type inference", "a,b\n1,2\n3,4\nfoot,x\n", { skipfooter: 1 }],
  ["a row with too many fields is refused", "a,b\n1,2\n3,4,5\n", {}],
  ["one extra field on every row: the first is pandas' index", "a,b\n1,2,3\n4,5,6\n", {}],
];

/** Options refused until now, read as pandas reads them (or refused as it refuses them). */
const OPTIONS: Case[] = [
  ["delim_whitespace", "a  b\n 1   2\n3\t4  \n", { delim_whitespace: true }],
  ["sep \\s+", "a b\n1 2\n", { sep: "\\s+" }],
  ["skipinitialspace", "a, b\nx, y\n1,  2\n", { skipinitialspace: true }],
  ["doublequote=false", 'a,b\n"x""y",2\n', { doublequote: false }],
  ["skip_blank_lines=false", "a,b\n1,2\n\n3,4\n", { skip_blank_lines: false }],
  ["mangle_dupe_cols=false is refused", "a,a\n1,2\n", { mangle_dupe_cols: false }],
  ["skipfooter with nrows is refused", "a\n1\n2\n", { skipfooter: 1, nrows: 1 }],
  ["duplicate names are refused", "1,2\n", { names: ["a", "a"] }],
  ["usecols naming a missing column is refused", "a\n1\n", { usecols: ["zz"] }],
  ["datetime dtype hints are refused", "d\n2024-01-02\n", { dtype: { d: "datetime64[ns]" } }],
  ["sep, quotechar, quoting 3", "a|b\n'x|y'|2\n", { sep: "|", quotechar: "'" }],
  ["quoting=3 keeps quotes", 'a,b\n"x",2\n', { quoting: 3 }],
  ["lineterminator", "a,b;1,2;3,4;", { lineterminator: ";" }],
  ["header row 1 and skiprows", "junk\nx,y\na,b\n1,2\n", { skiprows: 1, header: 1 }],
  ["header=None with prefix", "1,2\n3,4\n", { header: null, prefix: "c" }],
  ["nrows", "a\n1\n2\n3\n", { nrows: 2 }],
  ["thousands", 'a,b\n"1,234",2\n"5,678,901",3\n', { thousands: "," }],
  ["true_values and false_values", "a\nyes\nno\n", { true_values: ["yes"], false_values: ["no"] }],
  ["int64 hint refuses a missing value", "a\n1\n\n2\n,\n", { dtype: { a: "int64" }, skip_blank_lines: false }],
  ["float32 and uint8 hints", "a,b\n1.5,3\n2,4\n", { dtype: { a: "float32", b: "uint8" } }],
  ["quoting=2 reads numbers as floats", 'a,b\n"1",x\n2,"y"\n', { quoting: 2 }],
  ["sep and delimiter together are refused", "a,b\n1,x\n", { sep: ",", delimiter: ";" }],
  ["thousands and decimal both a comma", "a;b\n1,5;x\n", { sep: ";", decimal: ",", thousands: "," }],
  ["nrows=0", "a,b\n1,x\n", { nrows: 0 }],
  ["skiprows past the end is refused", "a,b\n1,x\n", { skiprows: 5 }],
  ["bool hints read 0 and 1", "a,b\n0,1\n1,\n", { dtype: { a: "bool", b: "boolean" } }],
  ["numeric hints read booleans as 1 and 0", "a\nTrue\nfalse\n", { dtype: { a: "float32" } }],
  ["short rows are padded with empty fields", "a,b,c\n1\nx,y,z\n", { keep_default_na: false }],
];

/** The awkward inputs of the issue, read with default options. */
const AWKWARD: Case[] = [
  ["quotes with separators, doubled quotes and line ends in fields", 'a,b\n"x,y","he said ""hi"""\n"two\nlines",z\n', {}],
  ["CRLF line ends", "a,b\r\n1,x\r\n2,y\r\n", {}],
  ["a UTF-8 byte-order mark", Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from("a,b\n1,2\n")]), {}],
  ["latin-1", Buffer.from("a,b\ncafé,1\n", "latin1"), { encoding: "latin-1" }],
  ["bytes that are not UTF-8 are refused", Buffer.from("a,b\ncafé,1\n", "latin1"), {}],
  ["bytes that are not UTF-8 are refused with options too", Buffer.from("a;b\ncafé;1\n", "latin1"), { sep: ";" }],
  ["UTF-16 with its BOM", Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from("a,b\nx,1\n", "utf16le")]), { encoding: "utf-16" }],
  ["empty fields everywhere", "a,b,c\n,,\n1,,x\n", {}],
  ["unicode names and values", "名前,値\nぜろ,0\n🙂,1\n", {}],
  ["floats: exponents, inf, leading dot", "a\n1e5\n.5\n-inf\n5.\n", {}],
  ["no final line end", "a,b\n1,2", {}],
  ["a header only", "a,b\n", {}],
  ["an all-missing column is float64", "a,b\n1,\n2,\n", {}],
  ["True/False in any case", "a\ntRue\nFALSE\n", {}],
  // pandas keeps 17 digits, leading zeros included, and scales by powers of ten: these round otherwise than polars.
  [
    "long decimals round as pandas rounds them",
    "w,x\n0.12345678901234567,0.00000000000000000001234\n0.5834092837640918,-123456789012345678.5\n9.999999999999999e22,1.7976931348623157e308\n",
    {},
  ],
  ["long decimals beside missing markers", "w\n0.30000000000000004\nNA\n2.2250738585072014e-300\n", {}],
];

/** Generated inputs: every value kind in every column position, with and without the options that touch them. */
function generated(): Case[] {
  const kinds: Record<string, string[]> = {
    int: ["1", "-2", "30000000000"],
    float: ["1.5", "-0.25", "1e-3"],
    bool: ["True", "false", "TRUE"],
    text: ["x", "hello world", "007"],
    missing: ["1", "", "NA"],
    quoted: ['"a,b"', '"c""d"', "e"],
    date: ["2024-01-02", "2023-12-31", "2000-02-29"],
  };
  const names = Object.keys(kinds);
  const rows = [0, 1, 2].map((r) => names.map((k) => kinds[k]?.[r]).join(","));
  const body = `${names.join(",")}\n${rows.join("\n")}\n`;
  const semicolon = body.replaceAll(",", ";").replace('"a;b"', '"a,b"');
  return [
    ["generated: defaults", body, {}],
    ["generated: parse_dates", body, { parse_dates: ["date"] }],
    ["generated: every column as str", body, { dtype: "str" }],
    ["generated: usecols and nrows", body, { usecols: ["text", "int", "missing"], nrows: 2 }],
    ["generated: no header", body, { header: null, skiprows: 1 }],
    ["generated: na_values and keep_default_na", body, { na_values: ["x", "1"], keep_default_na: false }],
    ["generated: semicolons", semicolon, { sep: ";" }],
    ["generated: skipfooter", body, { skipfooter: 2 }],
  ];
}

const ALL: Case[] = [...FOUND_WRONG, ...OPTIONS, ...AWKWARD, ...generated()];

describe.skipIf(!PANDAS_PYTHON)(`read_csv against pandas${PANDAS_SKIP_REASON}`, () => {
  const suite = withPandasReadings(ALL.map(([, bytes, options]): ReadRequest => ({ format: "csv", bytes, options: options ?? {} })));

  it.each(ALL.map((c, i) => [c[0], i] as const))("%s", async (_title, i) => {
    const [, bytes, options] = ALL[i] as Case;
    const { file, direct } = await readAllWays(suite.gw, suite.token, { format: "csv", bytes, options: options ?? {} }, suite.expected[i]);
    expectAgreement(file, suite.expected[i] as Reading);
    expectAgreement(direct, suite.expected[i] as Reading);
  });

  it("refuses pandas' own refusals at file creation, naming the option (400)", async () => {
    for (const options of [{ mangle_dupe_cols: false }, { dtype: { d: "datetime64[ns, UTC]" } }, { dtype: ["int64", "datetime64"] }]) {
      const { status, body } = await suite.gw.json<{ error: { code: string; details: { field: string } } }>("/api/v2/files/", {
        method: "POST",
        headers: { authorization: `Bearer ${suite.token}` },
        json: { file_type: "csv", parser_options: options },
      });
      expect(status).toBe(400);
      expect(body.error.code).toBe("INVALID_INPUT");
      expect(body.error.details.field).toMatch(/^parser_options\.(mangle_dupe_cols|dtype)/);
    }
  });
});

describe.skipIf(!PANDAS_PYTHON)(`cudf's forms of read_csv options, against pandas on the same rows${PANDAS_SKIP_REASON}`, () => {
  let gw: TestGateway;
  let token: string;
  beforeAll(async () => {
    gw = await createTestGateway("sqlite");
    token = await gw.login();
  });
  afterAll(() => gw?.close());

  it("byte_range [offset, size] reads the rows that start in the range; an offset with a header row is refused, as cudf does", async () => {
    const text = "1,x\n22,yy\n333,zzz\n4444,w\n";
    // Offset 2 falls inside "1,x": reading starts at the next row, "22,yy"; offset + size = 12 falls in "333,zzz".
    const options = { byte_range: [2, 10], header: null, names: ["a", "b"] };
    const { file, direct } = await readAllWays(gw, token, { format: "csv", bytes: text, options });
    const pandas = (
      await pandasReadMany([{ format: "csv", bytes: "22,yy\n333,zzz\n", options: { header: null, names: ["a", "b"] } }])
    )[0] as Reading;
    expect(file).toEqual(pandas);
    expect(direct).toEqual(pandas);
    const whole = await readAllWays(gw, token, { format: "csv", bytes: `a,b\n${text}`, options: { byte_range: [0, 9] } });
    const head = (await pandasReadMany([{ format: "csv", bytes: "a,b\n1,x\n22,yy\n" }]))[0] as Reading;
    expect(whole.file).toEqual(head);
    const refused = await serviceReadFile(gw, token, {
      format: "csv",
      bytes: `a,b\n${text}`,
      options: { byte_range: [4, 10] },
    });
    expect(refused).toMatchObject({ ok: false, error: "INVALID_INPUT", status: 400 });
  });

  it("a list dtype gives each column its dtype in order, as pandas' dtype by position does", async () => {
    const bytes = "a,b,c\n007,1,2\n";
    const { file, direct } = await readAllWays(gw, token, {
      format: "csv",
      bytes,
      options: { dtype: ["str", "float64", "Int64"] },
    });
    const pandas = (
      await pandasReadMany([{ format: "csv", bytes, options: { dtype: { a: "str", b: "float64", c: "Int64" } } }])
    )[0] as Reading;
    expect(file).toEqual(pandas);
    expect(direct).toEqual(pandas);
  });
});

describe.skipIf(!PANDAS_PYTHON)(`large CSV read a chunk at a time, against pandas${PANDAS_SKIP_REASON}`, () => {
  let gw: TestGateway;
  let token: string;
  beforeAll(async () => {
    // Small chunks, so a file of a few hundred kilobytes read with default options goes through csv-chunks.ts.
    gw = await createTestGateway("sqlite", { CSV_CHUNK_BYTES: "65536" });
    token = await gw.login();
  });
  afterAll(() => gw?.close());

  it("types columns as pandas does over every chunk: a late missing integer, blank and repeated names, spaces, booleans", async () => {
    const lines = ["id,,id,amount,flag,big"];
    for (let i = 0; i < 30_000; i += 1) {
      const amount = i === 25_000 ? "" : i % 7 === 0 ? ` ${i} ` : String(i);
      lines.push(`${i},n${i % 13},${-i},${amount},${i % 2 === 0 ? "True" : "false"},${i * 1_000_003}`);
    }
    const request = { format: "csv" as const, bytes: `${lines.join("\n")}\n` };
    const pandas = (await pandasReadMany([request]))[0] as Reading;
    expect(pandas.ok && pandas.dtypes).toEqual(["int64", "object", "int64", "float64", "bool", "int64"]);
    const { file, direct } = await readAllWays(gw, token, request, pandas);
    expect(file).toEqual(pandas);
    expect(direct).toEqual(pandas);
  });

  it("types columns whose first 12,000 values are missing from the values after them, as pandas does", async () => {
    // The quick type probe looks at the first rows' values only: here it finds none, and the whole column decides.
    const lines = ["id,late_int,late_float,late_bool,late_text"];
    for (let i = 0; i < 30_000; i += 1) {
      const late = i >= 12_000;
      lines.push(`${i},${late ? i : ""},${late ? i / 4 : ""},${late ? (i % 2 === 0 ? "TRUE" : "False") : ""},${late ? `t${i}` : ""}`);
    }
    const request = { format: "csv" as const, bytes: `${lines.join("\n")}\n` };
    const pandas = (await pandasReadMany([request]))[0] as Reading;
    expect(pandas.ok && pandas.dtypes).toEqual(["int64", "float64", "float64", "object", "object"]);
    const { file, direct } = await readAllWays(gw, token, request, pandas);
    expect(file).toEqual(pandas);
    expect(direct).toEqual(pandas);
  });
});
