// Differential reads: the same bytes and options read by pandas itself (python3, pandas_read.py) and by the service
// (the files route and the direct dataset route), each turned into one comparable form.
import { spawn, spawnSync } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Data, makeVector, type Table, Type, tableFromIPC } from "apache-arrow";
import { afterAll, beforeAll, expect } from "vitest";
import { createTestGateway, type TestGateway } from "./gateway.ts";

/**
 * A table as pandas would hold it: column names in order, pandas dtype names, and every value as a tagged
 * string: "int:12" (exact), "float:1.5" (JavaScript's shortest form of the double), "str:a", "bool:True",
 * "ts:2024-01-02T03:04:05.5 UTC" (nanoseconds, zone if any), "date:2024-01-02", and the missing values as
 * pandas distinguishes them: "NaN", "None", "NaT", "NA" (pd.NA).
 */
export type Reading =
  | { ok: true; columns: string[]; dtypes: string[]; values: string[][] }
  | { ok: false; error: string; message: string; status?: number };

export type ReadRequest = {
  format: "csv" | "json";
  /** The file's bytes (text is written as UTF-8). */
  bytes: Uint8Array | string;
  /** parser_options, which are pandas' keyword arguments. */
  options?: Record<string, unknown>;
};

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), "pandas_read.py");

function hasPandas(python: string): boolean {
  const probe = spawnSync(python, ["-c", "import pandas"], { stdio: "ignore", timeout: 60_000 });
  return probe.status === 0;
}

/** A python with pandas: PANDAS_PYTHON, then python3 on the PATH, then Debian's /usr/bin/python3; undefined when none has it. */
export const PANDAS_PYTHON: string | undefined = [process.env.PANDAS_PYTHON, "python3", "/usr/bin/python3"].find(
  (p): p is string => Boolean(p) && hasPandas(p as string),
);

/** Why differential suites skip, for their titles (empty when pandas is there). */
export const PANDAS_SKIP_REASON = PANDAS_PYTHON ? "" : " (SKIPPED: no python3 with pandas; install Debian's python3-pandas)";

const fmtFloat = (f: number) => (Object.is(f, -0) ? "-0" : Number.isNaN(f) ? "NaN" : String(f).replace("Infinity", "inf"));

/** Reads each request with pandas (one python process for all of them). */
export async function pandasReadMany(requests: ReadRequest[]): Promise<Reading[]> {
  if (!PANDAS_PYTHON) throw new Error("pandas is not available");
  const dir = await mkdtemp(path.join(os.tmpdir(), "pandas-ref-"));
  try {
    const jobs = await Promise.all(
      requests.map(async (request, i) => {
        // No extension: pandas' compression="infer" then infers nothing, as the service's default does.
        const file = path.join(dir, `input-${i}`);
        await writeFile(file, request.bytes);
        return { path: file, format: request.format, kwargs: request.options ?? {} };
      }),
    );
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(PANDAS_PYTHON as string, [SCRIPT], { stdio: ["pipe", "pipe", "pipe"] });
      let out = "";
      let err = "";
      child.stdout.on("data", (c) => {
        out += c;
      });
      child.stderr.on("data", (c) => {
        err += c;
      });
      child.on("error", reject);
      child.on("close", (code) => (code === 0 ? resolve(out) : reject(new Error(`pandas_read.py exited with ${code}: ${err}`))));
      child.stdin.end(JSON.stringify(jobs));
    });
    const { answers } = JSON.parse(output) as { answers: (Reading & { values?: unknown[][] })[] };
    return answers.map((answer) =>
      answer.ok
        ? {
            ...answer,
            values: (answer.values as unknown[][]).map((column) =>
              column.map((c) => (Array.isArray(c) ? `float:${fmtFloat(c[1] as number)}` : (c as string))),
            ),
          }
        : answer,
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export async function pandasRead(request: ReadRequest): Promise<Reading> {
  return (await pandasReadMany([request]))[0] as Reading;
}

/** A stored zone as pandas_read.py writes it: polars keeps a fixed offset as Etc/GMT-1 (sign reversed), pandas as +01:00. */
function zoneText(zone: string | null): string | null {
  const etc = zone ? /^Etc\/GMT([+-])(\d{1,2})$/.exec(zone) : null;
  if (!etc) return zone;
  return `${etc[1] === "+" ? "-" : "+"}${(etc[2] ?? "").padStart(2, "0")}:00`;
}

function tsText(ns: bigint, stored: string | null): string {
  const zone = zoneText(stored);
  const billion = 1_000_000_000n;
  let seconds = ns / billion;
  let nanos = ns % billion;
  if (nanos < 0n) {
    seconds -= 1n;
    nanos += billion;
  }
  let text = new Date(Number(seconds) * 1000).toISOString().slice(0, 19);
  if (nanos > 0n) text += `.${nanos.toString().padStart(9, "0").replace(/0+$/, "")}`;
  return `ts:${text}${zone ? ` ${zone}` : ""}`;
}

const NS_PER_UNIT = [1_000_000_000n, 1_000_000n, 1_000n, 1n];

/**
 * One stored column as pandas values. `dtype` is the name the service reports; a missing value is what pandas
 * holds for that dtype: NaN in floats and categories, NaT in datetimes, pd.NA in the nullable dtypes (Int64,
 * boolean, string...), and `objectNull` in object columns (read_csv gives NaN there, read_json None).
 */
function columnCells(column: { data: Data[] }, dtype: string, objectNull: string): string[] {
  const nullable = /^(U?Int\d+|Float\d+|boolean|string)$/.test(dtype);
  const cells: string[] = [];
  for (const data of column.data) {
    const type = data.type;
    const dictionary = type.typeId === Type.Dictionary;
    const valueType = dictionary ? (type as unknown as { dictionary: { typeId: Type } }).dictionary.typeId : type.typeId;
    // A vector of one chunk reads values with the type's own getter (dictionary values included).
    const vector = makeVector(data);
    for (let i = 0; i < data.length; i += 1) {
      if (!data.getValid(i)) {
        cells.push(
          nullable
            ? "NA"
            : type.typeId === Type.Timestamp
              ? "NaT"
              : type.typeId === Type.Float || dictionary || /^(u?int|float)/.test(dtype)
                ? "NaN"
                : type.typeId === Type.Bool && dtype !== "object"
                  ? "None"
                  : objectNull,
        );
        continue;
      }
      if (type.typeId === Type.Timestamp) {
        const t = type as unknown as { unit: number; timezone: string | null };
        const raw = BigInt((data.values as BigInt64Array)[i] as bigint);
        cells.push(tsText(raw * (NS_PER_UNIT[t.unit] ?? 1n), t.timezone));
        continue;
      }
      if (type.typeId === Type.Date) {
        const days = Number((data.values as Int32Array)[i]);
        cells.push(`date:${new Date(days * 86_400_000).toISOString().slice(0, 10)}`);
        continue;
      }
      cells.push(cellOf(vector.get(i), valueType));
    }
  }
  return cells;
}

function cellOf(v: unknown, typeId: Type): string {
  if (v === null || v === undefined) return "None";
  if (typeof v === "bigint") return `int:${v}`;
  if (typeof v === "boolean") return `bool:${v ? "True" : "False"}`;
  if (typeof v === "string") return `str:${v}`;
  if (typeof v === "number") return typeId === Type.Int ? `int:${v}` : `float:${fmtFloat(v)}`;
  if (v instanceof Uint8Array) return `bytes:${Buffer.from(v).toString("hex")}`;
  return `repr:${String(v)}`;
}

/** A stored Arrow table as pandas values; `dtypes` are the names the service reported, by column. */
export function arrowReading(table: Table, dtypes: Record<string, string>, objectNull = "NaN"): Reading {
  const columns = table.schema.fields.map((f) => f.name);
  return {
    ok: true,
    columns,
    dtypes: columns.map((c) => dtypes[c] ?? "?"),
    values: columns.map((c, i) => columnCells(table.getChildAt(i) as unknown as { data: Data[] }, dtypes[c] ?? "", objectNull)),
  };
}

const OBJECT_NULL = { csv: "NaN", json: "None" } as const;

async function storedTable(dir: string): Promise<Table> {
  // One version folder holds the upload that parsed (a failed one is removed or has no tables).
  for (const version of await readdir(dir)) {
    const file = path.join(dir, version, "tables", "0.arrow");
    try {
      return tableFromIPC(await readFile(file));
    } catch {
      // not this version
    }
  }
  throw new Error(`no stored table under ${dir}`);
}

/** Reads the request through the files route: create (with parser_options), upload, read back the stored table. */
export async function serviceReadFile(gw: TestGateway, token: string, request: ReadRequest, objectNull?: string): Promise<Reading> {
  const headers = { authorization: `Bearer ${token}` };
  const created = await gw.json<{ file_id: string; error?: { code: string; message: string } }>("/api/v2/files/", {
    method: "POST",
    headers,
    json: { file_type: request.format, name: `data.${request.format}`, parser_options: request.options ?? {} },
  });
  if (created.status !== 200) {
    const e = created.body.error ?? { code: "?", message: JSON.stringify(created.body) };
    return { ok: false, error: e.code, message: e.message, status: created.status };
  }
  const id = created.body.file_id;
  const body = typeof request.bytes === "string" ? request.bytes : Buffer.from(request.bytes);
  const uploaded = await gw.json<{
    is_valid: boolean;
    errors: { code?: string; message?: string };
    tables_schemas: { dtypes: Record<string, string> }[];
  }>(`/api/v2/upload/files/${id}`, { method: "POST", headers, body });
  if (!uploaded.body.is_valid) {
    return { ok: false, error: uploaded.body.errors.code ?? "?", message: uploaded.body.errors.message ?? "", status: uploaded.status };
  }
  const table = await storedTable(path.join(gw.env.DATA_DIR as string, "blobs", "files", id));
  return arrowReading(table, uploaded.body.tables_schemas[0]?.dtypes ?? {}, objectNull ?? OBJECT_NULL[request.format]);
}

/** A query parameter for an option: text as is where the service would read it back as that text, else JSON. */
function queryText(value: unknown): string {
  if (typeof value === "string") {
    if (value === "None" || value === "True" || value === "False") return JSON.stringify(value);
    try {
      JSON.parse(value);
      return JSON.stringify(value);
    } catch {
      return value;
    }
  }
  return value === null ? "None" : JSON.stringify(value);
}

/**
 * Reads the request through the direct dataset route: POST api/v2/upload/datasets/<id>/nodes/<format>?<options>.
 * A nodes table needs a node binding: `node` names the column (one the table will have, or the dataset build
 * refuses it after the parse; parse failures come first).
 */
export async function serviceReadDirect(
  gw: TestGateway,
  token: string,
  request: ReadRequest,
  node: string,
  objectNull?: string,
): Promise<Reading> {
  const headers = { authorization: `Bearer ${token}` };
  const created = await gw.json<{ data: { dataset_id: string } }>("/api/v2/upload/datasets/", {
    method: "POST",
    headers,
    json: { name: "pandas-diff", metadata: {}, node_encodings: { bindings: { node } }, edge_encodings: { bindings: {} } },
  });
  if (created.status !== 200) throw new Error(`dataset creation failed: ${JSON.stringify(created.body)}`);
  const id = created.body.data.dataset_id;
  const query = new URLSearchParams(Object.entries(request.options ?? {}).map(([k, v]) => [k, queryText(v)])).toString();
  const body = typeof request.bytes === "string" ? request.bytes : Buffer.from(request.bytes);
  const answer = await gw.json<{ data?: { dtypes: Record<string, string> }; error?: { code: string; message: string } }>(
    `/api/v2/upload/datasets/${id}/nodes/${request.format}${query ? `?${query}` : ""}`,
    { method: "POST", headers, body },
  );
  if (answer.status !== 200 || !answer.body.data) {
    const e = answer.body.error ?? { code: "?", message: JSON.stringify(answer.body) };
    return { ok: false, error: e.code, message: e.message, status: answer.status };
  }
  const table = await storedTable(path.join(gw.env.DATA_DIR as string, "blobs", "datasets", id, "sources", "nodes"));
  return arrowReading(table, answer.body.data.dtypes, objectNull ?? OBJECT_NULL[request.format]);
}

/** The request read by pandas, by the files route and by the direct route (bound to pandas' first column). */
export async function readAllWays(
  gw: TestGateway,
  token: string,
  request: ReadRequest,
  expected?: Reading,
): Promise<{ pandas: Reading; file: Reading; direct: Reading }> {
  const pandas = expected ?? (await pandasRead(request));
  const file = await serviceReadFile(gw, token, request);
  const node = (pandas.ok ? pandas.columns[0] : file.ok ? file.columns[0] : undefined) ?? "0";
  const direct = await serviceReadDirect(gw, token, request, node);
  return { pandas, file, direct };
}

/** The service's reading agrees with pandas': the same table, or a refusal (with one of our codes) where pandas refuses. */
export function expectAgreement(service: Reading, pandas: Reading): void {
  if (!pandas.ok) {
    expect(service.ok, `pandas refused (${pandas.error}: ${pandas.message}); the service read it`).toBe(false);
    if (!service.ok) expect(["INVALID_INPUT", "PARSE_FAILED"]).toContain(service.error);
    return;
  }
  expect(service).toEqual(pandas);
}

/**
 * Inside a describe: a gateway on SQLite, a signed-in token, and pandas' readings of `requests` (one python run for
 * all), made before the suite's tests and closed after them.
 */
export function withPandasReadings(requests: readonly ReadRequest[]): { gw: TestGateway; token: string; expected: Reading[] } {
  const suite = {} as { gw: TestGateway; token: string; expected: Reading[] };
  beforeAll(async () => {
    suite.gw = await createTestGateway("sqlite");
    suite.token = await suite.gw.login();
    suite.expected = await pandasReadMany([...requests]);
  });
  afterAll(() => suite.gw?.close());
  return suite;
}
