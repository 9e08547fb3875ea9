// Syntax tree of the supported Cypher subset (values already resolved: literals and $params).

import type { Pos } from "./errors.ts";

export type Value = string | number | boolean | null | Value[];

export type NodePattern = { variable?: string; labels: string[]; props: Array<[string, Value]>; pos: Pos };

export type RelPattern = {
  variable?: string;
  types: string[];
  direction: "forward" | "reverse" | "undirected";
  /** Absent: one hop. `[*]` is {min: undefined, max: undefined}. */
  range?: { min?: number; max?: number };
  props: Array<[string, Value]>;
  pos: Pos;
};

/** One path pattern: nodes[i] -rels[i]- nodes[i + 1]. */
export type PathPattern = { nodes: NodePattern[]; rels: RelPattern[]; pos: Pos };

/** One MATCH or OPTIONAL MATCH clause: comma-separated patterns and its own WHERE. */
export type MatchClause = { optional: boolean; patterns: PathPattern[]; where?: Expr; pos: Pos };

export type Operand = ({ kind: "prop"; variable: string; key: string } | { kind: "var"; name: string } | { kind: "lit"; value: Value }) & {
  pos: Pos;
};

export type CmpOp = "=" | "<>" | "<" | "<=" | ">" | ">=" | "=~" | "STARTS WITH" | "ENDS WITH" | "CONTAINS" | "IN";

export type Expr = (
  | { kind: "and" | "or" | "xor"; left: Expr; right: Expr }
  | { kind: "not"; expr: Expr }
  | { kind: "cmp"; op: CmpOp; left: Operand; right: Operand }
  | { kind: "null"; negated: boolean; operand: Operand }
  | { kind: "operand"; operand: Operand }
  | { kind: "label"; variable: string; labels: string[] }
) & { pos: Pos };

export const AGGREGATES = ["count", "collect", "sum", "min", "max", "avg"] as const;
export type Aggregate = (typeof AGGREGATES)[number];

/** The argument of an aggregate: `*` (count only), a whole variable or a property. */
export type AggArg = { kind: "star" } | { kind: "var"; name: string } | { kind: "prop"; variable: string; key: string };

export type ReturnExpr = (
  | { kind: "var"; name: string }
  | { kind: "prop"; variable: string; key: string }
  | { kind: "agg"; fn: Aggregate; arg: AggArg; distinct: boolean }
) & { pos: Pos; text: string };

export type ReturnItem = { expr: ReturnExpr; alias?: string };

export type CypherQuery = {
  matches: MatchClause[];
  distinct: boolean;
  items: ReturnItem[];
  orderBy: Array<{ expr: ReturnExpr; descending: boolean }>;
  skip?: number;
  limit?: number;
  returnPos: Pos;
};
