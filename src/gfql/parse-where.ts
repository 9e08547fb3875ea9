// Parses a Chain's `where` list of same-path comparisons ({"eq": {"left": "alias.col", "right": "alias.col"}}).

import type { ChainOp, WhereClause } from "./ast.ts";
import { checkKeys, gfqlError, isPlainObject } from "./gfql-error.ts";

const OPS: readonly WhereClause["op"][] = ["eq", "neq", "gt", "lt", "ge", "le"];

function parseRef(
  value: unknown,
  names: ReadonlySet<string>,
  ambiguous: ReadonlySet<string>,
  path: string,
): { alias: string; column: string } {
  const dot = typeof value === "string" ? value.indexOf(".") : -1;
  if (typeof value !== "string" || dot <= 0 || dot === value.length - 1) {
    throw gfqlError("E101", `expected "alias.column", not ${JSON.stringify(value)}`, path);
  }
  const alias = value.slice(0, dot);
  if (!names.has(alias)) throw gfqlError("E204", `'${alias}' names no step of this chain`, path);
  // a name may be on a Node step and an Edge step; a comparison must say which one it reads
  if (ambiguous.has(alias))
    throw gfqlError("E204", `'${alias}' names both a Node and an Edge step; compare steps with distinct names`, path);
  return { alias, column: value.slice(dot + 1) };
}

/** Validates the clauses against the chain's step names; an absent or null `where` is no clause. */
export function parseWhere(value: unknown, chain: ChainOp[], path: string): WhereClause[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw gfqlError("E101", "'where' must be a list of comparisons", path);
  const names = new Set<string>();
  const ambiguous = new Set<string>();
  for (const op of chain) {
    if (op.type === "Call" || op.name === undefined) continue;
    if (names.has(op.name)) ambiguous.add(op.name);
    names.add(op.name);
  }
  return value.map((entry, i) => {
    const at = `${path}[${i}]`;
    const keys = isPlainObject(entry) ? Object.keys(entry) : [];
    const op = keys[0] as WhereClause["op"];
    if (!isPlainObject(entry) || keys.length !== 1 || !OPS.includes(op)) {
      throw gfqlError("E101", `a where entry is one of ${OPS.join(", ")} with {left, right}`, at);
    }
    const body = entry[op];
    if (!isPlainObject(body)) throw gfqlError("E101", `'${op}' needs {left, right}`, `${at}.${op}`);
    checkKeys(body, ["left", "right"], `${at}.${op}`);
    return {
      op,
      left: parseRef(body.left, names, ambiguous, `${at}.${op}.left`),
      right: parseRef(body.right, names, ambiguous, `${at}.${op}.right`),
    };
  });
}
