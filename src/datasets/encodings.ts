// Validates and normalizes one node_encodings/edge_encodings object (spec 2.4, 2.6) and applies its field filters.
import { EDGE_BINDING_KEYS, NODE_BINDING_KEYS } from "./encodings/binding-keys.ts";
import { normalizeComplex } from "./encodings/complex.ts";
import { expectObject, invalid, type Path, setOwn } from "./encodings/json-path.ts";
import type { Axis, NormalizedEncodings } from "./encodings/types.ts";

export { EDGE_BINDING_KEYS, NODE_BINDING_KEYS } from "./encodings/binding-keys.ts";
export { FIELD_FILTER_KEYS, NULL_TOGGLE } from "./encodings/field-filters.ts";
export type { Axis, FieldFilter, GraphType, NormalizedEncodings } from "./encodings/types.ts";
export { visibleFields } from "./encodings/visible-fields.ts";

/**
 * Validates one encodings object for an axis; throws AppError("INVALID_INPUT", message, { details: { field } }) naming
 * the offending path. Unknown binding keys are refused by name; binding values must be non-empty strings. Required
 * bindings (an edge's source and destination) are not enforced here: a hypergraph transform supplies its own.
 */
export function normalizeEncodings(axis: Axis, value: unknown): NormalizedEncodings {
  const root = `${axis}_encodings`;
  const encodings = expectObject(value, [root]);
  for (const member of Object.keys(encodings)) {
    if (member !== "bindings" && member !== "complex") throw invalid([root, member], "is not a member of encodings (bindings, complex)");
  }
  if (!Object.hasOwn(encodings, "bindings")) throw invalid([root, "bindings"], "is required (it may be empty: {})");
  const bindings = readBindings(axis, encodings.bindings, [root, "bindings"]);
  return { bindings, ...normalizeComplex(axis, encodings.complex, [root, "complex"]) };
}

function readBindings(axis: Axis, value: unknown, path: Path): Record<string, string> {
  const known = axis === "node" ? NODE_BINDING_KEYS : EDGE_BINDING_KEYS;
  const given = expectObject(value, path, "an object of binding names to column names");
  const bindings: Record<string, string> = {};
  for (const [key, column] of Object.entries(given)) {
    if (!known.includes(key)) throw invalid([...path, key], `is not a ${axis} binding (known: ${known.join(", ")})`);
    if (typeof column !== "string" || column === "") throw invalid([...path, key], "must be a non-empty string (a column name)");
    setOwn(bindings, key, column);
  }
  return bindings;
}
