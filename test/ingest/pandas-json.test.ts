// read_json against pandas itself: each input is read by pandas (python3) and by the service through the files
// route and the direct dataset route; names, dtypes and every value must agree, and so must refusals.
import { describe, expect, it } from "vitest";
import {
  expectAgreement,
  PANDAS_PYTHON,
  PANDAS_SKIP_REASON,
  pandasRead,
  pandasReadMany,
  type Reading,
  type ReadRequest,
  readAllWays,
  serviceReadDirect,
  withPandasReadings,
} from "../helpers/pandas-reference.ts";
import { generatedJsonCases, type JsonCase } from "./pandas-json-cases.ts";

const ORIENTS: JsonCase[] = [
  ["records", '[{"a":1,"b":"x"},{"a":2,"b":"y"}]', { orient: "records" }],
  ["records, no orient", '[{"a":1,"b":"x"},{"a":2,"b":"y"}]', {}],
  ["columns: object of objects", '{"a":{"r1":1,"r2":2},"b":{"r1":"x","r2":"y"}}', { orient: "columns" }],
  ["columns: rows first seen first, missing cells", '{"a":{"y":1,"x":2,"10":3},"b":{"z":5}}', {}],
  ["columns: numeric labels become numbers", '{"1":{"x":1},"2":{"x":2}}', {}],
  ["index: object of rows", '{"r1":{"a":1,"b":"x"},"r2":{"a":2,"b":"y"}}', { orient: "index" }],
  ["index: columns first seen first, rows as the columns meet them", '{"r1":{"a":1},"r2":{"b":2},"r3":{"a":3}}', { orient: "index" }],
  ["index: rows of values", '{"r2":[1,2],"r1":[3]}', { orient: "index" }],
  ["index: scalars", '{"a":1,"b":2}', { orient: "index" }],
  ["split", '{"columns":["a","b"],"index":["x","y"],"data":[[1,"p"],[2,"q"]]}', { orient: "split" }],
  ["split without index", '{"columns":["a","b"],"data":[[1.5,true],[2.5,false]]}', { orient: "split" }],
  ["split without data", '{"columns":["a"]}', { orient: "split" }],
  ["split with an unexpected key is refused", '{"columns":["a"],"data":[[1]],"x":1}', { orient: "split" }],
  ["split with too few values per row is refused", '{"columns":["a","b"],"data":[[1],[3]]}', { orient: "split" }],
  ["values", '[[1,"a",null],[2,"b",3.5]]', { orient: "values" }],
  ["values, ragged rows", "[[1,2],[3]]", { orient: "values" }],
  ["values without orient", '[[1,"a"],[2,"b"]]', {}],
  [
    "table, as to_json(orient='table') writes it",
    '{"schema":{"fields":[{"name":"index","type":"integer"},{"name":"a","type":"string"},{"name":"d","type":"datetime"},{"name":"n","type":"number"},{"name":"b","type":"boolean"},{"name":"i","type":"integer"}],"primaryKey":["index"],"pandas_version":"1.4.0"},"data":[{"index":0,"a":"x","d":"2020-01-01T00:00:00.000Z","n":1.5,"b":true,"i":1},{"index":1,"a":"y","d":null,"n":null,"b":false,"i":2}]}',
    { orient: "table" },
  ],
  [
    "table without a primary key",
    '{"schema":{"fields":[{"name":"a","type":"integer"},{"name":"s","type":"string"}]},"data":[{"a":1,"s":"x"}]}',
    { orient: "table" },
  ],
  [
    "table with dtype is refused",
    '{"schema":{"fields":[{"name":"a","type":"integer"}]},"data":[{"a":1}]}',
    { orient: "table", dtype: true },
  ],
  [
    "table with an integer field holding null is refused",
    '{"schema":{"fields":[{"name":"a","type":"integer"}]},"data":[{"a":null}]}',
    { orient: "table" },
  ],
  ["table: a list is not a table", '[{"a":1}]', { orient: "table" }],
];

const LINES: JsonCase[] = [
  ["lines", '{"a":1,"b":2}\n{"a":3}\n', { lines: true }],
  ["lines: CRLF, blank lines, no final line end", '{"a":"x"}\r\n\r\n{"a":"y"}', { lines: true }],
  ["lines: values other than records", "1\n2\n", { lines: true }],
  ["lines: a string per line", '"x"\n"y"\n', { lines: true }],
  ["JSON lines without lines=true are refused (Trailing data)", '{"a":1}\n{"a":2}\n', {}],
];

const DTYPES: JsonCase[] = [
  ["dtype=True (the default) reads numbers in text", '[{"a":"1","b":"x"},{"a":"2","b":"1.5"}]', { dtype: true }],
  ["dtype=False keeps what the constructor made", '[{"a":1.0,"b":2.5,"c":"1"}]', { dtype: false }],
  ["dtype=False: an all-null column is float64", '[{"a":"1","b":null}]', { dtype: false }],
  [
    "dtype by column",
    '[{"a":1,"b":2.5,"c":"3","d":null,"e":true}]',
    { dtype: { a: "float64", b: "int64", c: "int64", d: "str", e: "str" } },
  ],
  ["dtype that cannot apply keeps the column as it was", '[{"a":1.5,"b":null}]', { dtype: { a: "int64", b: "int64" } }],
  ["dtype str for every column", '[{"a":1,"b":"x","c":1.0,"d":true}]', { dtype: "str" }],
  ["dtype bool", '[{"a":1,"b":0,"c":"","d":"x"}]', { dtype: "bool" }],
  ["dtype int8/uint8 wrap as numpy does", '[{"a":300,"b":-1}]', { dtype: { a: "int8", b: "uint8" } }],
  ["dtype float32", '[{"a":0.1,"b":3}]', { dtype: "float32" }],
  ["dtype category on text", '[{"a":"x"},{"a":"y"},{"a":"x"}]', { dtype: "category" }],
  ["dtype naming a missing column is ignored, as pandas does", '[{"a":"1"}]', { dtype: { zz: "int64" } }],
  ["dtype pandas does not understand is ignored, as pandas does", '[{"a":"1"}]', { dtype: { a: "foo" } }],
];

const DATES: JsonCase[] = [
  [
    "default date names: _at, _time, timestamp*, modified, date, datetime",
    '[{"date":1600000000,"x_at":"2020-01-01","modified":"x","timestamp_z":1600000000000,"y_time":5,"datetime":"2021-02-03T04:05:06.789"}]',
    {},
  ],
  ["ISO strings with Z are UTC", '[{"date":"2020-01-01T00:00:00Z","created_at":"2020-01-02 03:04:05"}]', {}],
  ["seconds as floats keep their fraction", '[{"date":1.5e9},{"date":1600000000.123456789}]', {}],
  ["milliseconds, microseconds, nanoseconds by size", '[{"a_at":1600000000000,"b_at":1600000000000000,"c_at":1600000000000000000}]', {}],
  ["numbers at or below a year of seconds stay numbers", '[{"date":31536000},{"date":5}]', {}],
  ["null dates are NaT", '[{"date":"2020-01-01"},{"date":null}]', {}],
  ["an all-null date column is NaT", '[{"date":null}]', {}],
  ["numeric text in a date column", '[{"date":"1600000000"},{"date":null}]', {}],
  ["a date column that is not dates stays", '[{"date":"2020-01-01"},{"date":"soon"}]', {}],
  ["booleans in a date column stay", '[{"date":true}]', {}],
  [
    "date forms: slashes, one-digit parts, month first, day first past 12",
    '[{"date":"2020/01/02"},{"date":"2020-1-2"},{"date":"01/02/2020"},{"date":"13/01/2020"}]',
    {},
  ],
  [
    "date forms: compact, hour only, M/D/YYYY with a time",
    '[{"date":"20200102T030405"},{"date":"2020-01-02T03"},{"date":"1/2/2020 10:30"}]',
    {},
  ],
  ["an offset without a colon", '[{"date":"2020-01-02T03:04:05+0000"},{"date":"2020-01-03T00:00:00Z"}]', {}],
  ["aware and naive strings mixed stay text", '[{"date":"2020-01-02T03:04:05Z"},{"date":"2020-01-05"}]', {}],
  ["hour 24 is no time: the column stays text", '[{"date":"2020-01-02T24:00:00"}]', {}],
  ["convert_dates=False", '[{"date":1600000000}]', { convert_dates: false }],
  ["convert_dates names columns", '[{"a":"2020-01-01","b":"x"}]', { convert_dates: ["a"] }],
  ["keep_default_dates=False with names", '[{"a":"2020-01-01","date":1600000000}]', { convert_dates: ["a"], keep_default_dates: false }],
  ["an empty convert_dates list turns dates off", '[{"date":1600000000}]', { convert_dates: [] }],
];

const MORE_OPTIONS: JsonCase[] = [
  ["convert_axes=False keeps the labels as text", '[{"01":1,"1.5":2}]', { convert_axes: false }],
  [
    "convert_axes with orient=table is refused",
    '{"schema":{"fields":[{"name":"a","type":"integer"}]},"data":[{"a":1}]}',
    { orient: "table", convert_axes: true },
  ],
  ["date_unit=ms", '[{"date":1600000000000},{"date":1600000000001}]', { date_unit: "ms" }],
  ["date_unit=s: milliseconds overflow, the column stays", '[{"date":1600000000000}]', { date_unit: "s" }],
  ["date_unit=ns: the year threshold is in nanoseconds", '[{"date":1600000000}]', { date_unit: "ns" }],
  ["an unknown date_unit is refused", '[{"date":1}]', { date_unit: "h" }],
  ["nrows with lines", '{"a":1}\n\n{"a":2}\n{"a":3}\n', { lines: true, nrows: 3 }],
  ["nrows=0 reads every line", '{"a":1}\n{"a":2}\n', { lines: true, nrows: 0 }],
  ["nrows without lines is refused", '[{"a":1}]', { nrows: 1 }],
  [
    "precise_float reads floats exactly",
    '[{"a":0.1,"b":1.7976931348623157e308,"c":6.02214076e23,"d":3.14159265358979323846,"e":2.2250738585072014e-308}]',
    { precise_float: true },
  ],
  ["precise_float refuses a float below the normal range", '[{"a":5e-324}]', { precise_float: true }],
  ["precise_float refuses a float that overflows", '[{"a":1e400}]', { precise_float: true }],
];

const AWKWARD: JsonCase[] = [
  ["unicode text and escapes", '[{"a":"é😀","b":"\\u00e9\\ud83d\\ude00","名前":"値"}]', {}],
  ["nulls: an int column with a null is float64", '[{"a":1,"b":null},{"a":2,"b":3}]', {}],
  ["booleans with a null become floats", '[{"a":true,"b":null},{"a":false,"b":true}]', {}],
  ["an all-null column is float64", '[{"a":null},{"a":null}]', {}],
  ["missing keys", '[{"a":1,"b":2.5},{"b":3.5}]', {}],
  ["whole floats become int64", '[{"a":1.0},{"a":-0.0}]', {}],
  ["int64 extremes", '[{"a":9223372036854775807},{"a":-9223372036854775808}]', {}],
  ["beyond 2^53: exact", '[{"a":9007199254740993},{"a":-9007199254740993}]', {}],
  ["beyond int64: uint64", '[{"a":9223372036854775807},{"a":18446744073709551615}]', {}],
  ["uint64 with a negative: float64", '[{"a":-1},{"a":9223372036854775808}]', {}],
  ["beyond uint64 is refused (Value is too big!)", '[{"a":18446744073709551616}]', {}],
  ["below int64 is refused (Value is too small)", '[{"a":-9223372036854775809}]', {}],
  ["big integers in text", '[{"a":"9223372036854775807"},{"a":"12"}]', {}],
  [
    "floats as pandas' decoder computes them",
    '[{"a":0.1,"b":1.7976931348623157e308,"c":5e-324,"d":123456789.12345678,"e":3.14159265358979323846}]',
    {},
  ],
  ["more floats: exponents, long fractions", '[{"a":1E5,"b":2.5e-3,"c":0.30000000000000004,"d":1e22,"e":12345678901234567890.5}]', {}],
  ["powers of ten as C's pow gives them", '[{"a":1e23,"b":6.02214076e23,"c":1.2e24,"d":1e-7,"e":1.5e300}]', {}],
  ["a comma before a closing brace is taken, as pandas' decoder takes it", '[{"a":1,}]', {}],
  ["a comma before a closing bracket is refused", "[1,2,]", {}],
  ["NaN and Infinity", '[{"a":NaN},{"a":Infinity},{"a":-Infinity}]', {}],
  ["overflowing exponents are infinite", '[{"a":1e400},{"a":-1e400}]', {}],
  ["mixed ints and floats", '[{"a":1},{"a":2.5}]', {}],
  ["numeric labels: 01 and 1.5 are read as seconds", '[{"01":1,"1.5":2}]', {}],
  ["numeric labels: big ones stay numbers", '[{"1600000000":1,"2":2}]', {}],
  ["numeric labels: floats", '[{"1.5":1,"2.25":2,"x":3}]', {}],
  ["a column object with arrays and scalars", '{"a":[1,2],"b":5}', {}],
  ["columns of different lengths are refused", '{"a":[1,2],"b":["x"]}', {}],
  ["objects and arrays mixed are refused", '{"a":[1,2],"b":{"x":1}}', {}],
  ["all scalars are refused", '{"a":1}', {}],
  ["a single value is refused", '"x"', {}],
  ["an empty array", "[]", {}],
  ["an empty object", "{}", {}],
  ["invalid JSON is refused", '[{"a":1 "b":2}]', {}],
  ["a list of scalars", "[1,2,3]", {}],
  ["whitespace around everything", ' \n [ {"a" : 1 } , {"a":2} ] \n', {}],
  ["duplicate keys: the last wins", '[{"a":1,"a":2}]', {}],
  ["bytes that are not UTF-8 are refused", Buffer.from('[{"a":"café"}]', "latin1"), {}],
];

const ALL: JsonCase[] = [...ORIENTS, ...LINES, ...DTYPES, ...DATES, ...MORE_OPTIONS, ...AWKWARD, ...generatedJsonCases()];

describe.skipIf(!PANDAS_PYTHON)(`read_json against pandas${PANDAS_SKIP_REASON}`, () => {
  const suite = withPandasReadings(ALL.map(([, bytes, options]): ReadRequest => ({ format: "json", bytes, options: options ?? {} })));

  it.each(ALL.map((c, i) => [c[0], i] as const))("%s", async (_title, i) => {
    const [, bytes, options] = ALL[i] as JsonCase;
    const pandas = suite.expected[i] as Reading;
    const { file, direct } = await readAllWays(suite.gw, suite.token, { format: "json", bytes, options: options ?? {} }, pandas);
    expectAgreement(file, pandas);
    // A table of no columns cannot be a dataset's nodes (the node binding needs a column): the files route shows it.
    if (!pandas.ok || pandas.columns.length > 0) expectAgreement(direct, pandas);
  });

  it("answers pandas' own refusals with its reason: 400 INVALID_INPUT naming the option, at file creation and on the direct route", async () => {
    const refusals: [Record<string, unknown>, string, string][] = [
      [{ orient: "table", dtype: true }, "dtype", "cannot pass both dtype and orient='table'"],
      [{ orient: "table", dtype: { a: "int64" } }, "dtype", "cannot pass both dtype and orient='table'"],
      [{ orient: "table", convert_axes: true }, "convert_axes", "cannot pass both convert_axes and orient='table'"],
      [{ nrows: 1 }, "nrows", "nrows can only be passed if lines=True"],
      [{ date_unit: "h" }, "date_unit", "date_unit must be one of ('s', 'ms', 'us', 'ns')"],
    ];
    const pandas = await pandasReadMany(refusals.map(([options]) => ({ format: "json", bytes: '[{"a":1}]', options })));
    for (const [i, [options, field, reason]] of refusals.entries()) {
      const p = pandas[i] as Reading;
      expect(p.ok ? "" : p.message).toBe(reason);
      const { status, body } = await suite.gw.json<{ error: { code: string; message: string; details: { field: string } } }>(
        "/api/v2/files/",
        {
          method: "POST",
          headers: { authorization: `Bearer ${suite.token}` },
          json: { file_type: "json", parser_options: options },
        },
      );
      expect([status, body.error.code, body.error.details.field]).toEqual([400, "INVALID_INPUT", `parser_options.${field}`]);
      expect(body.error.message).toContain(reason);
      const direct = await serviceReadDirect(suite.gw, suite.token, { format: "json", bytes: '[{"a":1}]', options }, "a");
      expect(direct).toMatchObject({ ok: false, error: "INVALID_INPUT", status: 400, message: expect.stringContaining(reason) });
    }
  });

  it("documented difference: a leading UTF-8 byte-order mark is skipped (pandas refuses the file)", async () => {
    const bytes = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('[{"a":1,"b":"x"}]')]);
    const { pandas, file, direct } = await readAllWays(suite.gw, suite.token, { format: "json", bytes });
    expect(pandas).toMatchObject({ ok: false, message: "Expected object or value" });
    const plain = await pandasRead({ format: "json", bytes: '[{"a":1,"b":"x"}]' });
    expect(file).toEqual(plain);
    expect(direct).toEqual(plain);
  });

  it.each(DEVIATIONS.map((d, i) => [d.title, i] as const))("documented difference: %s", async (_title, i) => {
    const { request, expect: expectation } = DEVIATIONS[i] as Deviation;
    const { pandas, file, direct } = await readAllWays(suite.gw, suite.token, request);
    if (!pandas.ok) throw new Error(`pandas refused: ${pandas.message}`);
    const ours = expectation(pandas);
    expect(ours).not.toEqual(pandas);
    expect(file).toEqual(ours);
    expect(direct).toEqual(ours);
  });
});

type Deviation = { title: string; request: ReadRequest; expect: (pandas: Reading & { ok: true }) => Reading };

/** Where Arrow cannot hold what pandas holds, or the service departs on purpose: what the service gives instead. */
const DEVIATIONS: Deviation[] = [
  {
    title: "nested values are stored as JSON text (pandas holds Python lists and dicts)",
    request: { format: "json", bytes: '[{"k":1,"a":[1,{"b":null}]},{"k":2,"a":{"x":12345678901234567890}}]' },
    expect: (p) => ({ ...p, values: [p.values[0] as string[], ['str:[1,{"b":null}]', 'str:{"x":12345678901234567890}']] }),
  },
  {
    title: "the JS client's agent_name/agent_version keys are not columns (pandas repeats them down the rows)",
    request: { format: "json", bytes: '{"a":[1,2],"b":["x","y"],"agent_name":"js","agent_version":"1"}' },
    expect: (p) => ({ ...p, columns: p.columns.slice(0, 2), dtypes: p.dtypes.slice(0, 2), values: p.values.slice(0, 2) }),
  },
  {
    title: "a column mixing numbers and text is stored as text (pandas holds Python ints and strs in one column)",
    request: { format: "json", bytes: '[{"k":1,"a":1},{"k":2,"a":"x"},{"k":3,"a":true}]' },
    expect: (p) => ({ ...p, values: [p.values[0] as string[], ["str:1", "str:x", "str:True"]] }),
  },
  {
    title: "a text column's missing cell is None, as Arrow has one null (pandas puts NaN where a key is absent)",
    request: { format: "json", bytes: '[{"k":1,"a":"x"},{"k":2}]' },
    expect: (p) => ({ ...p, values: [p.values[0] as string[], ["str:x", "None"]] }),
  },
];
