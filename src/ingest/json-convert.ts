// read_json's conversions after the frame is built (pandas 1.5's Parser): column labels (convert_axes), the
// date-like columns (convert_dates, keep_default_dates), and each column's type (dtype: True infers).
import { astype, type Col, floatsOf, INT64_MIN, inferObjects, isMissing, mapAll, objectsOf, pyInt } from "./json-columns.ts";
import { isDict, type PyValue } from "./json-decode.ts";
import type { Frame, Label } from "./json-frame.ts";
import { NAT_STRINGS, parseIsoDate, pyFloatOf, pyFloatRepr, timestampText } from "./json-python.ts";

/** Numbers at or below a year (in the date unit, seconds by default) are never taken for instants (pandas' _MIN_STAMPS). */
const MIN_STAMPS = { s: 31_536_000, ms: 31_536_000_000, us: 31_536_000_000_000, ns: 31_536_000_000_000_000 } as const;
export type DateUnit = keyof typeof MIN_STAMPS;
export const DATE_UNITS = Object.keys(MIN_STAMPS) as DateUnit[];
const UNITS = [
  ["s", 1_000_000_000n, 9],
  ["ms", 1_000_000n, 6],
  ["us", 1_000n, 3],
  ["ns", 1n, 0],
] as const;
const BOUND = 2 ** 63;

/** pandas' keep_default_dates rule: names ending _at or _time, starting timestamp, or modified, date, datetime. */
export function isDateName(label: Label): boolean {
  if (typeof label !== "string") return false;
  const l = label.toLowerCase();
  return l.endsWith("_at") || l.endsWith("_time") || l === "modified" || l === "date" || l === "datetime" || l.startsWith("timestamp");
}

type Dates = { kind: "datetime"; v: (bigint | null)[]; tz: string | null };

const halfEven = (x: number) => {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
};

/** pandas' cast_from_unit for one Python number in an object column. */
function castFromUnit(v: bigint | number, mult: bigint, precision: number): bigint | undefined {
  if (typeof v === "bigint") {
    const ns = v * mult;
    return ns >= INT64_MIN && ns < 2n ** 63n ? ns : undefined;
  }
  if (!Number.isFinite(v) || Math.abs(v * Number(mult)) >= BOUND) return undefined;
  const base = Math.trunc(v);
  const fraction = Number((v - base).toFixed(precision));
  return BigInt(base) * mult + BigInt(Math.trunc(fraction * Number(mult)));
}

/** to_datetime(values, unit=unit, errors="raise"): undefined where it raises. */
function toDatetime(col: Col, unit: (typeof UNITS)[number]): Dates | undefined {
  const [name, mult, precision] = unit;
  if (col.kind === "int" || col.kind === "float") {
    const out: (bigint | null)[] = [];
    for (const raw of col.v) {
      const v = typeof raw === "bigint" ? BigInt.asIntN(64, raw) : raw;
      if ((typeof v === "bigint" && v === INT64_MIN) || (typeof v === "number" && Number.isNaN(v))) {
        out.push(null);
        continue;
      }
      const f = Number(v) * Number(mult);
      if (!(Math.abs(f) <= BOUND)) return undefined;
      out.push(typeof v === "bigint" ? BigInt.asIntN(64, v * mult) : BigInt(name === "ns" ? halfEven(f) : Math.trunc(f)));
    }
    return { kind: "datetime", v: out, tz: null };
  }
  if (col.kind !== "object") return undefined;
  const out: (bigint | null)[] = [];
  const offsets = new Set<number | null>();
  for (const v of col.v) {
    if (isMissing(v) || (typeof v === "string" && NAT_STRINGS.has(v))) {
      out.push(null);
      continue;
    }
    let ns: bigint | undefined;
    if (typeof v === "bigint" || typeof v === "number") ns = castFromUnit(v, mult, precision);
    else if (typeof v === "string" && name !== "ns") {
      const f = pyFloatOf(v);
      ns = f === undefined ? undefined : castFromUnit(f, mult, precision);
    } else if (typeof v === "string") {
      const parsed = parseIsoDate(v);
      if (parsed) {
        offsets.add(parsed.offset);
        ns = parsed.ns;
      }
    }
    if (ns === undefined) return undefined;
    out.push(ns);
  }
  // pandas refuses to mix naive and aware strings, or different offsets, in one column.
  if (offsets.size > 1) return undefined;
  const [offset = null] = offsets;
  return { kind: "datetime", v: out, tz: offset === null ? null : offset === 0 ? "UTC" : offsetName(offset) };
}

const offsetName = (minutes: number) =>
  `${minutes < 0 ? "-" : "+"}${String(Math.floor(Math.abs(minutes) / 60)).padStart(2, "0")}:${String(Math.abs(minutes) % 60).padStart(2, "0")}`;

/** Parser._try_convert_to_date: numbers (past a year of seconds) or date strings become instants, else undefined. */
export function tryConvertToDate(col: Col, dateUnit?: DateUnit): Dates | undefined {
  const minStamp = MIN_STAMPS[dateUnit ?? "s"];
  if (col.v.length === 0) return undefined;
  let c = col;
  if (c.kind === "object") {
    const ints = mapAll(c.v, pyInt);
    if (ints) c = { kind: "int", dtype: "int64", v: ints };
  }
  if (c.kind === "int" || c.kind === "float") {
    const inRange = (c.v as (bigint | number)[]).every((v) =>
      typeof v === "bigint" ? v > BigInt(minStamp) || v === INT64_MIN : Number.isNaN(v) || v > minStamp,
    );
    if (!inRange) return undefined;
  }
  for (const unit of UNITS.filter(([name]) => dateUnit === undefined || name === dateUnit)) {
    const dates = toDatetime(c, unit);
    if (dates) return dates;
  }
  return undefined;
}

/** The inference of Parser._try_convert_data with dtype=True: text of numbers becomes floats, whole floats ints. */
function inferTypes(col: Col): Col {
  let c = col;
  if (c.kind === "object") {
    const floats = floatsOf(c);
    if (floats) c = { kind: "float", dtype: "float64", v: floats };
  }
  if (c.kind === "float") {
    const f: Col = { kind: "float", dtype: "float64", v: c.v };
    const whole = f.v.length > 0 && f.v.every((v) => Number.isFinite(v) && Math.abs(v) < BOUND && Math.trunc(v) === v);
    return whole ? { kind: "int", dtype: "int64", v: f.v.map((v) => BigInt(v)) } : f;
  }
  if (c.kind === "int" && /^int(8|16|32)$/.test(c.dtype)) return { ...c, dtype: "int64" };
  return c;
}

export type DtypeOption = boolean | string | Record<string, unknown> | null | undefined;

const isFalsy = (d: DtypeOption) => !d || (typeof d === "object" && Object.keys(d).length === 0);

/** Parser._try_convert_data for one column (use_dtypes=True, dates already done). */
export function tryConvertData(label: Label, col: Col, dtype: DtypeOption): Col {
  if (isFalsy(dtype)) {
    if (col.kind !== "object" || !col.v.some(isMissing)) return col;
    // fillna(np.nan), then pandas infers the object column again (numbers are not parsed from text).
    const filled = inferObjects(col.v.map((v) => (v === null ? Number.NaN : v)));
    return filled.kind === "object" || filled.kind === "float" ? filled : col;
  }
  if (dtype === true) return inferTypes(col);
  const target = typeof dtype === "object" && dtype !== null ? (typeof label === "string" ? dtype[label] : undefined) : dtype;
  if (target === undefined || target === null) return inferTypes(col);
  return (typeof target === "string" && astype(col, target)) || col;
}

/** Parser._convert_axes for the column labels: all of them become instants, or numbers, or stay. */
export function convertLabels(labels: Label[], dateUnit?: DateUnit): Label[] {
  const values = labels as PyValue[];
  const col: Col = values.every((v) => typeof v === "bigint")
    ? { kind: "int", dtype: "int64", v: values as bigint[] }
    : { kind: "object", v: values };
  const dates = tryConvertToDate(col, dateUnit);
  if (dates) return dates.v.map((ns) => ({ ns, tz: dates.tz }));
  const typedLabels = inferTypes(col);
  return objectsOf(typedLabels) as Label[];
}

/** str(label), as the column's name. */
export function labelName(label: Label): string {
  if (typeof label === "string") return label;
  if (typeof label === "bigint") return label.toString();
  if (typeof label === "number") return pyFloatRepr(label);
  return label.ns === null ? "NaT" : timestampText(label.ns, label.tz);
}

export type ReadOptions = {
  dtype: DtypeOption;
  convertDates: boolean | string[];
  keepDefaultDates: boolean;
  convertAxes: boolean;
  dateUnit: DateUnit | undefined;
};

/** The conversions read_json runs on the built frame, in its order: labels, dates, types. */
export function convertFrame(frame: Frame, options: ReadOptions): Frame {
  const labels = options.convertAxes ? convertLabels(frame.labels, options.dateUnit) : frame.labels;
  const named = Array.isArray(options.convertDates) ? new Set(options.convertDates) : new Set<string>();
  // convert_dates=False, or an empty list, turns every date conversion off (pandas tests its truth).
  const enabled = options.convertDates === true || named.size > 0;
  const cols = frame.cols.map((col, i) => {
    const label = labels[i] as Label;
    let c = col;
    if (enabled && ((options.keepDefaultDates && isDateName(label)) || (typeof label === "string" && named.has(label)))) {
      c = tryConvertToDate(c, options.dateUnit) ?? c;
    }
    return tryConvertData(label, c, options.dtype);
  });
  return { labels, cols };
}

export const isNested = (v: PyValue) => Array.isArray(v) || isDict(v);
