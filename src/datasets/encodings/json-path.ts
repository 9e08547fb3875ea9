// Path naming and the one refusal helper, so every encodings error names the offending member the same way.
import { AppError } from "../../errors/app-error.ts";

export type JsonObject = Record<string, unknown>;
/** Member names and list positions from the encodings object down, e.g. ["node_encodings", "complex", 2, "graphType"]. */
export type Path = readonly (string | number)[];

export function pathText(path: Path): string {
  let text = "";
  for (const part of path) text += typeof part === "number" ? `[${part}]` : text === "" ? part : `.${part}`;
  return text;
}

export function invalid(path: Path, problem: string): AppError {
  const field = pathText(path);
  return new AppError("INVALID_INPUT", `${field} ${problem}`, { details: { field } });
}

/** A plain JSON object: what JSON.parse makes for `{...}` (not null, not a list, not a class instance). */
export function isJsonObject(value: unknown): value is JsonObject {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

export function expectObject(value: unknown, path: Path, what = "a JSON object"): JsonObject {
  if (!isJsonObject(value)) throw invalid(path, `must be ${what}`);
  return value;
}

/** Sets an own property even for names like `__proto__`, which plain assignment would turn into a prototype change. */
export function setOwn<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
