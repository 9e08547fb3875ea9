// Parses GFQL predicate objects and filter_dict values from JSON into the validated AST.

import {
  CalendarDate,
  DATE_PART_TESTS,
  type FilterDict,
  type FilterValue,
  type Predicate,
  type Scalar,
  STRING_CLASS_TESTS,
  type TimeOfDay,
} from "./ast.ts";
import { checkKeys, gfqlError, isPlainObject } from "./gfql-error.ts";

const COMPARISONS = ["GT", "LT", "GE", "LE", "EQ", "NE"] as const;
const NO_ARG = ["IsNull", "NotNull", "IsNA", "NotNA", ...STRING_CLASS_TESTS, ...DATE_PART_TESTS] as const;
const REGEX_FLAGS = { IGNORECASE: 2, MULTILINE: 8, DOTALL: 16 } as const;
const ALL_FLAGS = REGEX_FLAGS.IGNORECASE | REGEX_FLAGS.MULTILINE | REGEX_FLAGS.DOTALL;

/** `{"type":"time","value":"HH:MM[:SS[.fraction]]"}` as nanoseconds since midnight. */
function parseTime(obj: Record<string, unknown>, path: string): TimeOfDay {
  const m = typeof obj.value === "string" ? /^(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/.exec(obj.value) : null;
  const [h, min, sec] = [Number(m?.[1]), Number(m?.[2]), Number(m?.[3] ?? 0)];
  if (m === null || h > 23 || min > 59 || sec > 59) throw gfqlError("E203", `invalid time ${JSON.stringify(obj.value)}`, `${path}.value`);
  const frac = Number((m[4] ?? "").padEnd(9, "0"));
  return { timeNanos: ((h * 60 + min) * 60 + sec) * 1e9 + frac };
}

const DAY_MS = 86_400_000;

/** A temporal operand `{"type":"datetime"|"date","value":ISO,"timezone"?}` becomes a Date (a CalendarDate for a date). */
function parseTemporal(obj: Record<string, unknown>, path: string): Date | TimeOfDay {
  checkKeys(obj, ["type", "value", "timezone"], path);
  if (obj.type === "time") return parseTime(obj, path);
  if (obj.type !== "datetime" && obj.type !== "date") {
    throw gfqlError("E203", `unsupported temporal operand type '${String(obj.type)}' (datetime, date and time are supported)`, path);
  }
  if (obj.timezone !== undefined && obj.timezone !== "UTC") {
    throw gfqlError("E203", "only the UTC timezone is supported for temporal operands", `${path}.timezone`);
  }
  if (typeof obj.value !== "string") throw gfqlError("E203", "temporal value must be an ISO string", `${path}.value`);
  // A naive ISO datetime is read as UTC, like a UTC-tagged pandas Timestamp.
  // A date-only ISO string is UTC midnight already; a date with a time keeps only its day, as pygraphistry's .date().
  const iso = /[zZ]|[+-]\d\d:?\d\d$/.test(obj.value) || !/[T ]\d/.test(obj.value) ? obj.value : `${obj.value}Z`;
  const instant = new Date(iso);
  const date = obj.type === "date" ? new CalendarDate(Math.floor(instant.getTime() / DAY_MS) * DAY_MS) : instant;
  if (Number.isNaN(date.getTime())) throw gfqlError("E203", `invalid ${obj.type} '${obj.value}'`, `${path}.value`);
  return date;
}

function parseScalar(value: unknown, path: string, allowBool: boolean): Scalar {
  if (typeof value === "number" && Number.isFinite(value)) return value;
  if (typeof value === "string") return value;
  if (allowBool && typeof value === "boolean") return value;
  if (isPlainObject(value)) return parseTemporal(value, path);
  throw gfqlError("E203", `invalid predicate operand ${JSON.stringify(value)}`, path);
}

function optBool(obj: Record<string, unknown>, key: string, dflt: boolean, path: string): boolean {
  const v = obj[key];
  if (v === undefined) return dflt;
  if (typeof v !== "boolean") throw gfqlError("E203", `'${key}' must be a boolean`, `${path}.${key}`);
  return v;
}

function optNa(obj: Record<string, unknown>, path: string): boolean | null {
  const v = obj.na;
  if (v === undefined || v === null) return null;
  if (typeof v !== "boolean") throw gfqlError("E203", "'na' must be a boolean or null", `${path}.na`);
  return v;
}

function optFlags(obj: Record<string, unknown>, path: string): number {
  const v = obj.flags;
  if (v === undefined) return 0;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || (v & ~ALL_FLAGS) !== 0) {
    throw gfqlError("E203", "'flags' supports only re.IGNORECASE (2), re.MULTILINE (8) and re.DOTALL (16)", `${path}.flags`);
  }
  return v;
}

function requiredString(obj: Record<string, unknown>, key: string, path: string): string {
  const v = obj[key];
  if (v === undefined) throw gfqlError("E105", `missing required field '${key}'`, path);
  if (typeof v !== "string") throw gfqlError("E203", `'${key}' must be a string`, `${path}.${key}`);
  return v;
}

export function parsePredicate(obj: Record<string, unknown>, path: string): Predicate {
  const type = obj.type;
  if (typeof type !== "string") throw gfqlError("E105", "predicate is missing its 'type'", path);
  if ((COMPARISONS as readonly string[]).includes(type)) {
    checkKeys(obj, ["type", "val"], path);
    if (!("val" in obj)) throw gfqlError("E105", "missing required field 'val'", path);
    // A boolean orders as pandas orders it (Python's bool is a number): true = 1 against a number column.
    return { type: type as (typeof COMPARISONS)[number], val: parseScalar(obj.val, `${path}.val`, true) };
  }
  if ((NO_ARG as readonly string[]).includes(type)) {
    checkKeys(obj, ["type"], path);
    return { type: type as (typeof NO_ARG)[number] };
  }
  switch (type) {
    case "Duplicated": {
      checkKeys(obj, ["type", "keep"], path);
      const keep = obj.keep ?? "first";
      if (keep !== "first" && keep !== "last" && keep !== false) {
        throw gfqlError("E203", '\'keep\' must be "first", "last" or false', `${path}.keep`);
      }
      return { type, keep };
    }
    case "AllOf": {
      checkKeys(obj, ["type", "predicates"], path);
      const preds = obj.predicates;
      if (!Array.isArray(preds) || preds.length === 0)
        throw gfqlError("E203", "AllOf 'predicates' must be a non-empty list", `${path}.predicates`);
      return {
        type,
        predicates: preds.map((q, i) => {
          if (!isPlainObject(q)) throw gfqlError("E203", "AllOf 'predicates' must hold predicate objects", `${path}.predicates[${i}]`);
          return parsePredicate(q, `${path}.predicates[${i}]`);
        }),
      };
    }
    case "Between": {
      checkKeys(obj, ["type", "lower", "upper", "inclusive"], path);
      if (!("lower" in obj) || !("upper" in obj)) throw gfqlError("E105", "Between needs 'lower' and 'upper'", path);
      const lower = parseScalar(obj.lower, `${path}.lower`, false);
      const upper = parseScalar(obj.upper, `${path}.upper`, false);
      const numeric = typeof lower === "number" && typeof upper === "number";
      // pygraphistry takes any two temporal bounds (a date and a time of day, say), each compared as GE/LE would.
      const temporal = typeof lower === "object" && typeof upper === "object";
      if (!numeric && !temporal) throw gfqlError("E203", "Between bounds must be both numeric or both temporal", path);
      return { type, lower, upper, inclusive: optBool(obj, "inclusive", true, path) };
    }
    case "IsIn": {
      checkKeys(obj, ["type", "options"], path);
      if (!Array.isArray(obj.options)) throw gfqlError("E203", "IsIn 'options' must be a list", `${path}.options`);
      const options = obj.options.map((v, i) => (v === null ? null : parseScalar(v, `${path}.options[${i}]`, true)));
      // pygraphistry's IsIn refuses the mix (ValueError in its constructor).
      const temporal = options.some((v) => v !== null && typeof v === "object");
      if (temporal && options.some((v) => typeof v === "number" || typeof v === "boolean"))
        throw gfqlError("E203", "IsIn cannot mix temporal and numeric values", `${path}.options`);
      return { type, options };
    }
    case "Contains": {
      checkKeys(obj, ["type", "pat", "case", "flags", "na", "regex"], path);
      return {
        type,
        pat: requiredString(obj, "pat", path),
        case: optBool(obj, "case", true, path),
        flags: optFlags(obj, path),
        na: optNa(obj, path),
        regex: optBool(obj, "regex", true, path),
      };
    }
    case "Startswith":
    case "Endswith": {
      checkKeys(obj, ["type", "pat", "case", "na"], path);
      const pat = obj.pat;
      const pats = typeof pat === "string" ? [pat] : pat;
      if (!Array.isArray(pats) || pats.length === 0 || !pats.every((p) => typeof p === "string")) {
        throw gfqlError("E203", "'pat' must be a string or a non-empty list of strings", `${path}.pat`);
      }
      return { type, pat: pats as string[], case: optBool(obj, "case", true, path), na: optNa(obj, path) };
    }
    case "Match":
    case "Fullmatch": {
      checkKeys(obj, ["type", "pat", "case", "flags", "na"], path);
      return {
        type,
        pat: requiredString(obj, "pat", path),
        case: optBool(obj, "case", true, path),
        flags: optFlags(obj, path),
        na: optNa(obj, path),
      };
    }
    default:
      throw gfqlError("E101", `unknown or unsupported predicate type '${type}'`, `${path}.type`);
  }
}

function parseFilterValue(value: unknown, path: string): FilterValue {
  if (value === null) return { kind: "eq", value: null };
  if (Array.isArray(value)) {
    return { kind: "in", values: value.map((v, i) => (v === null ? null : parseScalar(v, `${path}[${i}]`, true))) };
  }
  if (isPlainObject(value)) return { kind: "predicate", predicate: parsePredicate(value, path) };
  return { kind: "eq", value: parseScalar(value, path, true) };
}

export function parseFilterDict(value: unknown, path: string): FilterDict {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) throw gfqlError("E201", "filter dict must be an object", path);
  const out: FilterDict = {};
  for (const [key, v] of Object.entries(value)) {
    if (key.startsWith("label__")) throw gfqlError("E102", `label filters ('${key}') are not supported yet`, `${path}.${key}`);
    out[key] = parseFilterValue(v, `${path}.${key}`);
  }
  return out;
}
