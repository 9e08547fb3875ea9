// Validated GFQL query AST: the shapes parseGfql returns and executeGfql consumes.

import type { ParsedEntry } from "../compute/params.ts";
import type { Fa2LayoutSpec } from "./call-fa2-layout.ts";
import type { LayoutCallSpec } from "./call-layout.ts";
import type { CypherRowPlan } from "./cypher/rows.ts";
import type { QueryExpr } from "./query-string/parse.ts";

/** A time-of-day operand ({"type":"time"}), as nanoseconds since midnight like polars' Time. */
export type TimeOfDay = { timeNanos: number };

/**
 * A `{"type":"date"}` operand: midnight UTC of that day. pygraphistry compares a datetime column with a date by the
 * column's day (2024-03-01T10:00 equals the date 2024-03-01), a datetime operand by the instant.
 */
export class CalendarDate extends Date {}

/** A comparison operand: a number, string, boolean or a parsed temporal value (datetime/date, or time of day). */
export type Scalar = number | string | boolean | Date | TimeOfDay;

export type Predicate =
  | { type: "GT" | "LT" | "GE" | "LE" | "EQ" | "NE"; val: Scalar }
  | { type: "Between"; lower: Scalar; upper: Scalar; inclusive: boolean }
  | { type: "IsIn"; options: Array<Scalar | null> }
  | { type: "Contains"; pat: string; case: boolean; flags: number; na: boolean | null; regex: boolean }
  | { type: "Startswith" | "Endswith"; pat: string[]; case: boolean; na: boolean | null }
  | { type: "Match" | "Fullmatch"; pat: string; case: boolean; flags: number; na: boolean | null }
  | { type: "IsNull" | "NotNull" | "IsNA" | "NotNA" }
  | { type: "Duplicated"; keep: "first" | "last" | false }
  | { type: "AllOf"; predicates: Predicate[] }
  | { type: StringClassTest }
  | { type: DatePartTest };

export const STRING_CLASS_TESTS = [
  "IsNumeric",
  "IsAlpha",
  "IsDecimal",
  "IsDigit",
  "IsLower",
  "IsUpper",
  "IsSpace",
  "IsAlnum",
  "IsTitle",
] as const;
export type StringClassTest = (typeof STRING_CLASS_TESTS)[number];
export const DATE_PART_TESTS = [
  "IsMonthStart",
  "IsMonthEnd",
  "IsQuarterStart",
  "IsQuarterEnd",
  "IsYearStart",
  "IsYearEnd",
  "IsLeapYear",
] as const;
export type DatePartTest = (typeof DATE_PART_TESTS)[number];

/** One filter_dict entry after parsing: a plain value is equality, a list is membership. */
export type FilterValue =
  | { kind: "eq"; value: Scalar | null }
  | { kind: "in"; values: Array<Scalar | null> }
  | { kind: "predicate"; predicate: Predicate };

export type FilterDict = Record<string, FilterValue>;

/** A Node step; `query` is a pandas DataFrame.query string, parsed (query-string/). */
export type NodeOp = {
  type: "Node";
  filter: FilterDict;
  name?: string;
  query?: QueryExpr;
  /**
   * Set by the Cypher compiler, not enumerable (no wire form; cypher/index.ts bindPerPath): the name marks the nodes
   * the matched paths bind at this step, as a Cypher variable does, rather than GFQL's marks (which, before an Edge
   * step, take its kept edges' endpoints).
   */
  pathBinding?: true;
};

export type Direction = "forward" | "reverse" | "undirected";

export type EdgeOp = {
  type: "Edge";
  direction: Direction;
  edgeMatch: FilterDict;
  sourceNodeMatch: FilterDict;
  destinationNodeMatch: FilterDict;
  /** pandas DataFrame.query strings over the edges and the source / destination nodes, parsed. */
  edgeQuery?: QueryExpr;
  sourceNodeQuery?: QueryExpr;
  destinationNodeQuery?: QueryExpr;
  /** Resolved hop bounds; maxHops is null only with toFixedPoint. */
  minHops: number;
  maxHops: number | null;
  toFixedPoint: boolean;
  /** Keep only output edges whose hop number lies in these bounds (nodes then are their endpoints). */
  outputMinHops?: number;
  outputMaxHops?: number;
  /** Column names for the hop number at which a node was first reached / an edge first taken. */
  labelNodeHops?: string;
  labelEdgeHops?: string;
  /** Label the walk's start nodes with hop 0. */
  labelSeeds?: boolean;
  name?: string;
};

/** A safelisted Call, its params validated and normalized (see parse-call.ts for the JSON forms). */
export type CallSpec =
  | { fn: "get_degrees"; col: string; degreeIn: string; degreeOut: string }
  | { fn: "get_indegrees" | "get_outdegrees"; col: string }
  | { fn: "filter_nodes_by_dict" | "filter_edges_by_dict"; filter: FilterDict }
  | { fn: "hop"; edge: EdgeOp }
  | { fn: "materialize_nodes"; reuse: boolean }
  | { fn: "prune_self_edges" | "distinct" }
  | { fn: "count_table"; table: "nodes" | "edges"; source?: string; alias: string }
  | { fn: "drop_nodes" | "keep_nodes"; ids: Array<Scalar | null> }
  | { fn: "rows"; table: "nodes" | "edges"; source?: string }
  | { fn: "select"; items: Array<{ alias: string; column: string }> }
  | { fn: "where_rows"; filter: FilterDict }
  | { fn: "order_by"; keys: Array<{ column: string; descending: boolean }> }
  | { fn: "skip" | "limit"; value: number }
  | { fn: "group_by"; keys: string[]; aggregations: Array<{ out: string; agg: AggFn; column?: string }> }
  /** compute_igraph / compute_cugraph: a checked registry entry (call-compute.ts). */
  | { fn: "compute_igraph" | "compute_cugraph"; entry: ParsedEntry }
  /** layout_igraph / layout_cugraph (call-layout.ts) and fa2_layout (call-fa2-layout.ts): positions as node columns. */
  | LayoutCallSpec
  | Fa2LayoutSpec
  /** Built only by parseCypher (no wire form): a Cypher query's per-path rows (cypher/rows.ts). */
  | { fn: "cypher_rows"; plan: CypherRowPlan };

export const AGG_FNS = ["count", "count_distinct", "sum", "min", "max", "mean", "avg", "first", "last"] as const;
export type AggFn = (typeof AGG_FNS)[number];

export type CallOp = { type: "Call"; call: CallSpec };

/** Node and Edge steps: the traversal block of a chain. */
export type TraversalOp = NodeOp | EdgeOp;

export type ChainOp = TraversalOp | CallOp;

/** A same-path comparison between two named steps' columns ("alias.col"); a chain's clauses are ANDed. */
export type WhereClause = {
  op: "eq" | "neq" | "gt" | "lt" | "ge" | "le";
  left: { alias: string; column: string };
  right: { alias: string; column: string };
};

export type ChainQuery = { type: "Chain"; chain: ChainOp[]; where?: WhereClause[] };

export type RefBinding = { type: "Ref"; ref: string; chain: ChainOp[] };

export type Binding = NodeOp | EdgeOp | CallOp | ChainQuery | RefBinding | LetQuery;

export type LetQuery = { type: "Let"; bindings: Array<{ name: string; value: Binding }>; output?: string };

export type GfqlQuery = ChainQuery | LetQuery;
