// Small typed readers for parser_options values, each failing with the option's name.
import { AppError } from "../errors/app-error.ts";

export type Options = Record<string, unknown>;

const bad = (key: string, expected: string) =>
  new AppError("INVALID_INPUT", `parser_options.${key} must be ${expected}`, { details: { field: `parser_options.${key}` } });

export function refuseUnknown(options: Options, known: readonly string[], fileType: string): void {
  for (const key of Object.keys(options)) {
    if (!known.includes(key)) {
      throw new AppError(
        "INVALID_INPUT",
        `parser_options.${key} is not supported for ${fileType} files (supported: ${known.join(", ") || "none"})`,
        {
          details: { field: `parser_options.${key}` },
        },
      );
    }
  }
}

export function str(options: Options, key: string): string | undefined {
  const v = options[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string") throw bad(key, "a string");
  return v;
}

export function char(options: Options, key: string): string | undefined {
  const v = str(options, key);
  if (v !== undefined && [...v].length !== 1) throw bad(key, "a single character");
  return v;
}

export function bool(options: Options, key: string): boolean | undefined {
  const v = options[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "boolean") throw bad(key, "true or false");
  return v;
}

export function int(options: Options, key: string, min = 0): number | undefined {
  const v = options[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "number" || !Number.isInteger(v) || v < min) throw bad(key, `an integer >= ${min}`);
  return v;
}

export function strings(options: Options, key: string): string[] | undefined {
  const v = options[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v === "string") return [v];
  if (!Array.isArray(v) || !v.every((x) => typeof x === "string" || typeof x === "number")) throw bad(key, "a list of strings");
  return v.map(String);
}

/** A list of column names or of column positions (not a mix). */
export function columnRefs(options: Options, key: string): string[] | number[] | undefined {
  const v = options[key];
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v) && v.every((x) => typeof x === "string")) return v as string[];
  if (Array.isArray(v) && v.every((x) => typeof x === "number" && Number.isInteger(x) && x >= 0)) return v as number[];
  throw bad(key, "a list of column names or a list of column positions");
}

export function oneOf<T extends string>(options: Options, key: string, allowed: readonly T[]): T | undefined {
  const v = options[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string" || !(allowed as readonly string[]).includes(v)) throw bad(key, `one of ${allowed.join(", ")}`);
  return v as T;
}
