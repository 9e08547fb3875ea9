// Normalizes `complex` (the object form with default/current, or the general grid's list form) and collects its field filters.
import { FIELD_FILTER_KEYS, fieldFilterKey, fieldFilterKindOf, readFieldFilter } from "./field-filters.ts";
import { expectObject, invalid, type JsonObject, type Path, pathText, setOwn } from "./json-path.ts";
import type { Axis, FieldFilter, NormalizedEncodings } from "./types.ts";

type Complex = NormalizedEncodings["complex"];
type Read = { encodings: JsonObject; filters: Map<string, FieldFilter> };

export function normalizeComplex(axis: Axis, value: unknown, path: Path): { complex: Complex; fieldFilters: FieldFilter[] } {
  let atDefault: Read;
  let atCurrent: Read;
  if (value === undefined || value === null) {
    atDefault = atCurrent = { encodings: {}, filters: new Map() };
  } else if (Array.isArray(value)) {
    atDefault = fromList(axis, value, path);
    atCurrent = { encodings: {}, filters: new Map() };
  } else {
    const complex = expectObject(value, path, "a JSON object ({default, current}) or a list of encodings");
    for (const member of Object.keys(complex)) {
      if (member !== "default" && member !== "current") throw invalid([...path, member], "is not a member of complex (default, current)");
    }
    atDefault = fromObject(axis, complex.default, [...path, "default"]);
    atCurrent = fromObject(axis, complex.current, [...path, "current"]);
  }
  // `current` is the state the viewer last applied, so its filter replaces the default one under the same key.
  const fieldFilters = Object.keys(FIELD_FILTER_KEYS)
    .map((key) => atCurrent.filters.get(key) ?? atDefault.filters.get(key))
    .filter((filter) => filter !== undefined);
  return { complex: { default: atDefault.encodings, current: atCurrent.encodings }, fieldFilters };
}

/** Checks every encoding of a default/current object and reads the field filters among them. */
function fromObject(axis: Axis, value: unknown, path: Path): Read {
  const filters = new Map<string, FieldFilter>();
  if (value === undefined) return { encodings: {}, filters };
  const encodings = { ...expectObject(value, path) };
  for (const [key, encoding] of Object.entries(encodings)) {
    const at = [...path, key];
    if (Object.hasOwn(FIELD_FILTER_KEYS, key)) {
      filters.set(key, readFieldFilter(axis, key, encoding, at));
      continue;
    }
    // Other encodings (colors, sizes, icons, badges, axes...) are the viewer's business: kept as given.
    const object = expectObject(encoding, at);
    const kind = fieldFilterKindOf(object.encodingType);
    if (kind) {
      // Elsewhere a filter would be stored but never applied, which is worse than refusing it.
      const graphType = object.graphType === "edge" ? "edge" : "point";
      throw invalid(at, `holds a ${String(object.encodingType)} encoding; field filters go under ${fieldFilterKey({ graphType, kind })}`);
    }
  }
  return { encodings, filters };
}

/**
 * The list form. The spec's general dataset grid types `complex` as a list but shows no entry, so we read each entry
 * as one encoding object (what would sit under a key of `default`), carrying its own `encodingType` and `graphType`
 * ("point" or "edge"). The list becomes `default`; `current` stays empty, since a list has no current state. Keys:
 * - a field filter (encodingType fieldinclusion/fieldexclusion) goes under its standard key (pointFieldInclusionEncoding
 *   and so on); a `name` or `key` member, if present, must be that key;
 * - any other encoding goes under its `name` member, else its `key` member, else Graphistry's naming pattern
 *   `<graphType><EncodingType>Encoding` ({graphType: "point", encodingType: "color"} -> pointColorEncoding).
 * Two entries with one key are refused. Entries are stored exactly as given.
 */
function fromList(axis: Axis, list: unknown[], path: Path): Read {
  const encodings: JsonObject = {};
  const filters = new Map<string, FieldFilter>();
  const firstAt = new Map<string, number>();
  list.forEach((entry, index) => {
    const at = [...path, index];
    const encoding = expectObject(entry, at, "an encoding object");
    const encodingType = encoding.encodingType;
    if (typeof encodingType !== "string" || encodingType === "") throw invalid([...at, "encodingType"], "must be a non-empty string");
    const graphType = encoding.graphType;
    if (graphType !== "point" && graphType !== "edge") throw invalid([...at, "graphType"], 'must be "point" or "edge"');
    const kind = fieldFilterKindOf(encodingType);
    const key = kind ? fieldFilterKey({ graphType, kind }) : (nameOf(encoding, at) ?? patternKey(graphType, encodingType));
    const earlier = firstAt.get(key);
    if (earlier !== undefined) throw invalid(at, `repeats the encoding ${key} (already at ${pathText([...path, earlier])})`);
    firstAt.set(key, index);
    if (kind) filters.set(key, readFieldFilter(axis, key, encoding, at));
    setOwn<unknown>(encodings, key, encoding);
  });
  return { encodings, filters };
}

function nameOf(encoding: JsonObject, at: Path): string | undefined {
  for (const member of ["name", "key"]) {
    const name = encoding[member];
    if (name === undefined) continue;
    if (typeof name !== "string" || name === "") throw invalid([...at, member], "must be a non-empty string");
    return name;
  }
  return undefined;
}

function patternKey(graphType: string, encodingType: string): string {
  return `${graphType}${encodingType.charAt(0).toUpperCase()}${encodingType.slice(1)}Encoding`;
}
