// Reads one spec 2.6 field-filter encoding (inclusion or exclusion, global and per-type rules) into a FieldFilter.
import { expectObject, invalid, type JsonObject, type Path, setOwn } from "./json-path.ts";
import type { Axis, FieldFilter, FieldFilterKind, GraphType } from "./types.ts";
import { GRAPH_TYPE_OF } from "./types.ts";

export type FieldFilterSlot = { graphType: GraphType; kind: FieldFilterKind };

/**
 * The standard keys under `complex.default`. The spec names point inclusion and edge exclusion; Graphistry's field
 * control pages also show point exclusion, and the naming is regular, so all four combinations are read.
 */
export const FIELD_FILTER_KEYS: Readonly<Record<string, FieldFilterSlot>> = Object.freeze({
  pointFieldInclusionEncoding: { graphType: "point", kind: "inclusion" },
  pointFieldExclusionEncoding: { graphType: "point", kind: "exclusion" },
  edgeFieldInclusionEncoding: { graphType: "edge", kind: "inclusion" },
  edgeFieldExclusionEncoding: { graphType: "edge", kind: "exclusion" },
});

export const ENCODING_TYPES: Readonly<Record<FieldFilterKind, string>> = { inclusion: "fieldinclusion", exclusion: "fieldexclusion" };

/**
 * Where the rules live: the spec writes `inclusion`/`exclusion`, Graphistry's field control pages write
 * `include`/`exclude`; either is read, never both at once.
 */
const RULE_MEMBERS: Readonly<Record<FieldFilterKind, readonly [string, string]>> = {
  inclusion: ["inclusion", "include"],
  exclusion: ["exclusion", "exclude"],
};

/** Graphistry documents a null-visibility toggle without naming it in any page we could find; this is our name. */
export const NULL_TOGGLE = "showNullFields";

/** `name`/`key` identify an entry of the list form; they are allowed here so a normalized result reads back unchanged. */
const OTHER_MEMBERS = ["graphType", "encodingType", "attribute", NULL_TOGGLE, "name", "key"];

export function fieldFilterKey(slot: FieldFilterSlot): string {
  return `${slot.graphType}Field${slot.kind === "inclusion" ? "Inclusion" : "Exclusion"}Encoding`;
}

/** The filter kind an `encodingType` value names, if it names one. */
export function fieldFilterKindOf(encodingType: unknown): FieldFilterKind | undefined {
  if (encodingType === ENCODING_TYPES.inclusion) return "inclusion";
  if (encodingType === ENCODING_TYPES.exclusion) return "exclusion";
  return undefined;
}

/** Validates the encoding stored under the standard key `key` of an axis's `complex.default`/`current`. */
export function readFieldFilter(axis: Axis, key: string, value: unknown, path: Path): FieldFilter {
  const slot = FIELD_FILTER_KEYS[key];
  if (!slot) throw invalid(path, "is not a field-filter encoding key");
  if (slot.graphType !== GRAPH_TYPE_OF[axis]) {
    const home = slot.graphType === "point" ? "node_encodings" : "edge_encodings";
    throw invalid(path, `is a ${slot.graphType} encoding; it belongs in ${home}, not ${axis}_encodings`);
  }
  const encoding = expectObject(value, path);
  const ruleMembers = RULE_MEMBERS[slot.kind];
  for (const member of Object.keys(encoding)) {
    if (!ruleMembers.includes(member) && !OTHER_MEMBERS.includes(member)) {
      throw invalid([...path, member], `is not a member of a ${ENCODING_TYPES[slot.kind]} encoding`);
    }
  }
  expectConstant(encoding, "graphType", slot.graphType, path);
  expectConstant(encoding, "encodingType", ENCODING_TYPES[slot.kind], path);
  for (const member of ["name", "key"]) {
    if (Object.hasOwn(encoding, member) && encoding[member] !== key) throw invalid([...path, member], `must be "${key}" when given`);
  }
  const filter: FieldFilter = { kind: slot.kind, graphType: slot.graphType, ...readRules(encoding, ruleMembers, path) };
  const attribute = encoding.attribute;
  if (attribute !== undefined) {
    if (typeof attribute !== "string" || attribute === "") throw invalid([...path, "attribute"], "must be a non-empty string");
    filter.attribute = attribute;
  }
  const toggle = encoding[NULL_TOGGLE];
  if (toggle !== undefined) {
    if (typeof toggle !== "boolean") throw invalid([...path, NULL_TOGGLE], "must be true or false");
    filter.showNulls = toggle;
  }
  return filter;
}

function expectConstant(encoding: JsonObject, member: string, expected: string, path: Path): void {
  if (!Object.hasOwn(encoding, member)) throw invalid([...path, member], `is required ("${expected}")`);
  if (encoding[member] !== expected) throw invalid([...path, member], `must be "${expected}"`);
}

function readRules(encoding: JsonObject, members: readonly [string, string], path: Path): Pick<FieldFilter, "global" | "byType"> {
  const [spec, docs] = members;
  if (Object.hasOwn(encoding, spec) && Object.hasOwn(encoding, docs)) throw invalid([...path, docs], `cannot be given beside ${spec}`);
  const member = Object.hasOwn(encoding, spec) ? spec : Object.hasOwn(encoding, docs) ? docs : undefined;
  if (member === undefined) throw invalid([...path, spec], "is required");
  const rulesPath = [...path, member];
  const rules = expectObject(encoding[member], rulesPath, "an object of field names to true or false");
  const global: Record<string, boolean> = {};
  const byType: Record<string, Record<string, boolean>> = {};
  for (const [field, flag] of Object.entries(rules)) {
    // `types` is the spec's per-type member, so a column literally named "types" cannot be a global rule.
    if (field === "types") {
      const types = expectObject(flag, [...rulesPath, "types"], "an object of type names to rule objects");
      for (const [typeName, typeRules] of Object.entries(types)) {
        setOwn(byType, typeName, readFlags(typeRules, [...rulesPath, "types", typeName]));
      }
    } else {
      setOwn(global, field, readFlag(flag, [...rulesPath, field]));
    }
  }
  return { global, byType };
}

function readFlags(value: unknown, path: Path): Record<string, boolean> {
  const rules = expectObject(value, path, "an object of field names to true or false");
  const flags: Record<string, boolean> = {};
  for (const [field, flag] of Object.entries(rules)) setOwn(flags, field, readFlag(flag, [...path, field]));
  return flags;
}

function readFlag(value: unknown, path: Path): boolean {
  if (typeof value !== "boolean") throw invalid(path, "must be true or false");
  return value;
}
