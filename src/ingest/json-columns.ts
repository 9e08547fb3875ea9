// Columns as pandas holds them after read_json: numpy-typed values, or Python objects. The inference the
// DataFrame constructor runs on lists of Python values (lib.maybe_convert_objects), and Series.astype.
import { isDict, type PyValue } from "./json-decode.ts";
import { parseIsoDate, pyFloatOf, pyFloatRepr, pyIntOf, timestampText } from "./json-python.ts";

export type IntDtype = "int8" | "int16" | "int32" | "int64" | "uint8" | "uint16" | "uint32" | "uint64";

/** A missing float is NaN; a missing object is null (None) or NaN (np.nan), as pandas keeps them apart. */
export type Col =
  | { kind: "int"; dtype: IntDtype; v: bigint[] }
  | { kind: "float"; dtype: "float64" | "float32"; v: number[] }
  | { kind: "bool"; v: boolean[] }
  | { kind: "object"; v: PyValue[] }
  | { kind: "datetime"; v: (bigint | null)[]; tz: string | null }
  | { kind: "category"; v: PyValue[] };

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

export const isMissing = (v: PyValue | undefined) => v === null || v === undefined || (typeof v === "number" && Number.isNaN(v));

/** lib.maybe_convert_objects: one numpy type for a list of Python values, or object. */
export function inferObjects(values: PyValue[]): Col {
  let none = false;
  let nan = false;
  let float = false;
  let int = false;
  let bool = false;
  let negative = false;
  let big = false;
  for (const v of values) {
    if (v === null) none = true;
    else if (typeof v === "number") {
      float = true;
      if (Number.isNaN(v)) nan = true;
    } else if (typeof v === "bigint") {
      int = true;
      if (v < 0n) negative = true;
      if (v > INT64_MAX) big = true;
    } else if (typeof v === "boolean") bool = true;
    else return { kind: "object", v: values };
  }
  if (bool) return !none && !nan && !float && !int ? { kind: "bool", v: values as boolean[] } : { kind: "object", v: values };
  const asFloat = () => ({
    kind: "float" as const,
    dtype: "float64" as const,
    v: values.map((v) => (v === null ? Number.NaN : Number(v))),
  });
  if (none || nan) return float || int ? asFloat() : { kind: "object", v: values };
  if (float) return asFloat();
  if (int) {
    if (big && negative) return { kind: "object", v: values };
    return { kind: "int", dtype: big ? "uint64" : "int64", v: values as bigint[] };
  }
  return { kind: "object", v: values };
}

/** The Python objects a column holds (what .astype(object) gives). */
export function objectsOf(col: Col): PyValue[] {
  if (col.kind === "datetime") return col.v.map((ns) => (ns === null ? null : ns));
  return col.v;
}

export const lengthOf = (col: Col) => col.v.length;

/** Python's repr of a decoded value (str() of a non-string). */
export function pyRepr(v: PyValue): string {
  if (v === null) return "None";
  if (typeof v === "boolean") return v ? "True" : "False";
  if (typeof v === "bigint") return v.toString();
  if (typeof v === "number") return pyFloatRepr(v);
  if (typeof v === "string") return `'${v.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'`;
  if (Array.isArray(v)) return `[${v.map(pyRepr).join(", ")}]`;
  return `{${[...v].map(([k, x]) => `${pyRepr(k)}: ${pyRepr(x)}`).join(", ")}}`;
}

export const pyStr = (v: PyValue) => (typeof v === "string" ? v : pyRepr(v));

function pyFloat(v: PyValue): number | undefined {
  if (v === null) return Number.NaN;
  if (typeof v === "number") return v;
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "string") return pyFloatOf(v);
  return undefined;
}

/** numpy's cast of one Python object to int64 (int(v)); undefined where it raises. */
export function pyInt(v: PyValue): bigint | undefined {
  if (typeof v === "bigint") return v >= INT64_MIN && v <= INT64_MAX ? v : undefined;
  if (typeof v === "boolean") return v ? 1n : 0n;
  if (typeof v === "number") return Number.isFinite(v) && Math.abs(v) < 2 ** 63 ? BigInt(Math.trunc(v)) : undefined;
  if (typeof v === "string") {
    const i = pyIntOf(v);
    return i !== undefined && i >= INT64_MIN && i <= INT64_MAX ? i : undefined;
  }
  return undefined;
}

function floatToInt(v: number): bigint | undefined {
  if (!Number.isFinite(v)) return undefined; // pandas refuses to cast NaN or inf to an integer
  return Math.abs(v) < 2 ** 63 ? BigInt(Math.trunc(v)) : INT64_MIN;
}

function truthy(v: PyValue): boolean {
  if (v === null) return false;
  if (typeof v === "number") return v !== 0;
  if (typeof v === "bigint") return v !== 0n;
  if (typeof v === "boolean") return v;
  if (typeof v === "string") return v.length > 0;
  if (Array.isArray(v)) return v.length > 0;
  return isDict(v) && v.size > 0;
}

function wrap(v: bigint, dtype: IntDtype): bigint {
  const bits = Number(dtype.replace(/\D/g, ""));
  return dtype.startsWith("u") ? BigInt.asUintN(bits, v) : BigInt.asIntN(bits, v);
}

/** Maps every value, or stops at the first that does not convert. */
export function mapAll<S, T>(values: readonly S[], f: (v: S) => T | undefined): T[] | undefined {
  const out: T[] = new Array(values.length);
  for (let i = 0; i < values.length; i += 1) {
    const v = f(values[i] as S);
    if (v === undefined) return undefined;
    out[i] = v;
  }
  return out;
}

const ALIASES: Record<string, string> = {
  int: "int64",
  i8: "int64",
  i4: "int32",
  i2: "int16",
  i1: "int8",
  u8: "uint64",
  u4: "uint32",
  u2: "uint16",
  u1: "uint8",
  float: "float64",
  f8: "float64",
  f4: "float32",
  double: "float64",
  single: "float32",
  O: "object",
  "?": "bool",
  b1: "bool",
  "datetime64[ns]": "datetime64",
  "M8[ns]": "datetime64",
  M8: "datetime64",
};

/** dtype names pandas reads that this reader does not emulate (nullable and other extension types). */
export const UNSUPPORTED_DTYPE =
  /^(U?Int(8|16|32|64)|Float(32|64)|string|boolean|timedelta64.*|m8.*|period.*|interval.*|complex.*|float16|datetime64\[.+,.+\])$/;

/** The numpy/pandas type a dtype name means here, undefined for a name numpy does not understand. */
export function dtypeName(name: string): string | undefined {
  const n = ALIASES[name] ?? name;
  return /^(u?int(8|16|32|64)|float(32|64)|str|object|bool|category|datetime64)$/.test(n) ? n : undefined;
}

/** Series.astype(name): undefined where pandas raises (read_json then keeps the column as it was). */
export function astype(col: Col, name: string): Col | undefined {
  const target = dtypeName(name);
  if (!target) return undefined;
  if (col.kind === "datetime") return astypeDatetime(col, target);
  const objects = objectsOf(col);
  if (/^u?int/.test(target)) {
    const dtype = target as IntDtype;
    let ints: bigint[] | undefined;
    if (col.kind === "int") ints = col.v;
    else if (col.kind === "float") ints = mapAll(col.v, floatToInt);
    else if (col.kind === "bool") ints = col.v.map((b) => (b ? 1n : 0n));
    else ints = mapAll(objects, pyInt);
    return ints && { kind: "int", dtype, v: ints.map((v) => wrap(v, dtype)) };
  }
  if (target === "float64" || target === "float32") {
    const floats = mapAll(objects, pyFloat);
    return floats && { kind: "float", dtype: target, v: target === "float32" ? floats.map(Math.fround) : floats };
  }
  if (target === "str") return { kind: "object", v: objects.map(pyStr) };
  if (target === "object") return { kind: "object", v: objects };
  if (target === "bool") return { kind: "bool", v: col.kind === "float" ? col.v.map((f) => f !== 0) : objects.map(truthy) };
  if (target === "category") return { kind: "category", v: objects };
  // datetime64[ns]
  if (col.kind === "int") return { kind: "datetime", v: col.v, tz: null };
  if (col.kind === "float") return { kind: "datetime", v: col.v.map((f) => (Number.isNaN(f) ? null : (floatToInt(f) ?? null))), tz: null };
  const parsed = objects.map((v) => {
    if (v === null) return null;
    if (typeof v !== "string") return undefined;
    // Strings with an offset are read as the UTC instant, without a zone.
    return parseIsoDate(v)?.ns;
  });
  const ns = mapAll(parsed, (v) => v);
  return ns && { kind: "datetime", v: ns, tz: null };
}

/**
 * astype of a datetime64 column: to int64/uint64 without NaT, to text as pandas formats the column (dates only
 * when every instant is a midnight, else the finest fraction any value needs). pandas refuses the numeric
 * types and bool; object and category (Timestamps) are kept as instants here.
 */
function astypeDatetime(col: Col & { kind: "datetime" }, target: string): Col | undefined {
  if (target === "int64" || target === "uint64") {
    return col.v.includes(null) ? undefined : { kind: "int", dtype: target, v: col.v.map((ns) => wrap(ns as bigint, target)) };
  }
  if (target === "datetime64") return { ...col, tz: null };
  if (target !== "str") return undefined;
  const present = col.v.filter((ns): ns is bigint => ns !== null);
  const DAY = 86_400_000_000_000n;
  const datesOnly = col.tz === null && present.every((ns) => ns % DAY === 0n);
  const digits = present.some((ns) => ns % 1000n !== 0n)
    ? 9
    : present.some((ns) => ns % 1_000_000n !== 0n)
      ? 6
      : present.some((ns) => ns % 1_000_000_000n !== 0n)
        ? 3
        : 0;
  // Aware instants are written in their zone's local time, then the offset.
  const zone = col.tz === null ? undefined : col.tz === "UTC" ? "+00:00" : col.tz;
  const sign = zone?.startsWith("-") ? -1n : 1n;
  const shift = zone ? sign * (BigInt(zone.slice(1, 3)) * 60n + BigInt(zone.slice(4, 6))) * 60_000_000_000n : 0n;
  const second = 1_000_000_000n;
  return {
    kind: "object",
    v: col.v.map((raw) => {
      if (raw === null) return "NaT";
      const ns = raw + shift;
      const nanos = ((ns % second) + second) % second;
      const text = timestampText(ns - nanos, null);
      if (datesOnly) return text.slice(0, 10);
      return `${text}${digits ? `.${nanos.toString().padStart(9, "0").slice(0, digits)}` : ""}${zone ?? ""}`;
    }),
  };
}

/** The column as floats where every value converts (numpy's astype(float64) of objects). */
export function floatsOf(col: Col): number[] | undefined {
  if (col.kind === "float") return col.v;
  return mapAll(objectsOf(col), pyFloat);
}

export { INT64_MAX, INT64_MIN, UINT64_MAX };
