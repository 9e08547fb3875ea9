// Validated GFQL query AST: the shapes parseGfql returns and executeGfql consumes.

/** A comparison operand: a number, string, boolean or a parsed temporal value. */
export type Scalar = number | string | boolean | Date;

export type Predicate =
  | { type: "GT" | "LT" | "GE" | "LE" | "EQ" | "NE"; val: Scalar }
  | { type: "Between"; lower: Scalar; upper: Scalar; inclusive: boolean }
  | { type: "IsIn"; options: Array<Scalar | null> }
  | { type: "Contains"; pat: string; case: boolean; flags: number; na: boolean | null; regex: boolean }
  | { type: "Startswith" | "Endswith"; pat: string[]; case: boolean; na: boolean | null }
  | { type: "Match" | "Fullmatch"; pat: string; case: boolean; flags: number; na: boolean | null }
  | { type: "IsNull" | "NotNull" | "IsNA" | "NotNA" };

/** One filter_dict entry after parsing: a plain value is equality, a list is membership. */
export type FilterValue =
  | { kind: "eq"; value: Scalar | null }
  | { kind: "in"; values: Array<Scalar | null> }
  | { kind: "predicate"; predicate: Predicate };

export type FilterDict = Record<string, FilterValue>;

export type NodeOp = { type: "Node"; filter: FilterDict; name?: string };

export type Direction = "forward" | "reverse" | "undirected";

export type EdgeOp = {
  type: "Edge";
  direction: Direction;
  edgeMatch: FilterDict;
  sourceNodeMatch: FilterDict;
  destinationNodeMatch: FilterDict;
  /** Resolved hop bounds; maxHops is null only with toFixedPoint. */
  minHops: number;
  maxHops: number | null;
  toFixedPoint: boolean;
  name?: string;
};

export type ChainOp = NodeOp | EdgeOp;

export type ChainQuery = { type: "Chain"; chain: ChainOp[] };

export type RefBinding = { type: "Ref"; ref: string; chain: ChainOp[] };

export type Binding = NodeOp | EdgeOp | ChainQuery | RefBinding | LetQuery;

export type LetQuery = { type: "Let"; bindings: Array<{ name: string; value: Binding }>; output?: string };

export type GfqlQuery = ChainQuery | LetQuery;
