// The ORC type tree: kind constants, column paths for error messages, and Hive-style type strings.
import { orcError } from "./errors.ts";
import type { OrcTypeProto } from "./footer.ts";

export const K = {
  BOOLEAN: 0,
  BYTE: 1,
  SHORT: 2,
  INT: 3,
  LONG: 4,
  FLOAT: 5,
  DOUBLE: 6,
  STRING: 7,
  BINARY: 8,
  TIMESTAMP: 9,
  LIST: 10,
  MAP: 11,
  STRUCT: 12,
  UNION: 13,
  DECIMAL: 14,
  DATE: 15,
  VARCHAR: 16,
  CHAR: 17,
  TIMESTAMP_INSTANT: 18,
} as const;

/** Deepest type nesting we follow (guards the recursive decoders against hostile footers). */
const MAX_DEPTH = 64;

export type OrcType = {
  id: number;
  kind: number;
  /** Dotted path for error messages, e.g. "middle.list[].int1". */
  path: string;
  children: OrcType[];
  fieldNames: string[];
  maximumLength: number;
  precision: number;
  scale: number;
};

export function buildTypeTree(types: OrcTypeProto[]): OrcType {
  const build = (id: number, path: string, depth: number): OrcType => {
    if (depth > MAX_DEPTH) throw orcError(`types are nested more than ${MAX_DEPTH} levels deep`, { columnId: id });
    const t = types[id];
    if (t === undefined) throw orcError(`missing type ${id}`, { columnId: id });
    const node: OrcType = {
      id,
      kind: t.kind,
      path,
      children: [],
      fieldNames: t.fieldNames,
      maximumLength: t.maximumLength,
      precision: t.precision,
      scale: t.scale,
    };
    t.subtypes.forEach((sub, i) => {
      let childPath: string;
      if (t.kind === K.STRUCT) childPath = path === "" ? (t.fieldNames[i] ?? `_col${i}`) : `${path}.${t.fieldNames[i] ?? i}`;
      else if (t.kind === K.LIST) childPath = `${path}[]`;
      else if (t.kind === K.MAP) childPath = `${path}{${i === 0 ? "key" : "value"}}`;
      else childPath = `${path}|${i}`;
      node.children.push(build(sub, childPath, depth + 1));
    });
    return node;
  };
  return build(0, "", 0);
}

function quoteName(name: string): string {
  return /^[A-Za-z0-9_]+$/.test(name) ? name : `\`${name.replaceAll("`", "``")}\``;
}

/** The type as ORC/Hive print it, e.g. "struct<a:int,b:array<string>>" or "decimal(10,5)". */
export function typeString(t: OrcType): string {
  switch (t.kind) {
    case K.BOOLEAN:
      return "boolean";
    case K.BYTE:
      return "tinyint";
    case K.SHORT:
      return "smallint";
    case K.INT:
      return "int";
    case K.LONG:
      return "bigint";
    case K.FLOAT:
      return "float";
    case K.DOUBLE:
      return "double";
    case K.STRING:
      return "string";
    case K.BINARY:
      return "binary";
    case K.TIMESTAMP:
      return "timestamp";
    case K.TIMESTAMP_INSTANT:
      return "timestamp with local time zone";
    case K.DATE:
      return "date";
    case K.DECIMAL:
      return t.precision === 0 ? "decimal" : `decimal(${t.precision},${t.scale})`;
    case K.VARCHAR:
      return `varchar(${t.maximumLength})`;
    case K.CHAR:
      return `char(${t.maximumLength})`;
    case K.LIST:
      return `array<${t.children.map(typeString).join(",")}>`;
    case K.MAP:
      return `map<${t.children.map(typeString).join(",")}>`;
    case K.UNION:
      return `uniontype<${t.children.map(typeString).join(",")}>`;
    case K.STRUCT:
      return `struct<${t.children.map((c, i) => `${quoteName(t.fieldNames[i] ?? `_col${i}`)}:${typeString(c)}`).join(",")}>`;
    default:
      return `unknown(${t.kind})`;
  }
}

/** The row-level columns: the root struct's fields, or the root itself as "_col0" when it is not a struct. */
export function topLevelColumns(root: OrcType): { name: string; type: OrcType }[] {
  if (root.kind !== K.STRUCT) return [{ name: "_col0", type: { ...root, path: "_col0" } }];
  return root.children.map((type, i) => ({ name: root.fieldNames[i] ?? `_col${i}`, type }));
}
