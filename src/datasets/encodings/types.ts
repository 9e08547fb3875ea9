// The normalized shapes of one node_encodings/edge_encodings object and of its field filters (spec 2.4, 2.6).

export type Axis = "node" | "edge";
export type GraphType = "point" | "edge";
export type FieldFilterKind = "inclusion" | "exclusion";

export type FieldFilter = {
  kind: FieldFilterKind;
  graphType: GraphType;
  attribute?: string;
  /** Global rules: field name -> bool. */
  global: Record<string, boolean>;
  /** Type-specific rules: type name -> field name -> bool (the `types` member). */
  byType: Record<string, Record<string, boolean>>;
  /** The null-visibility toggle (`showNullFields`), when given. */
  showNulls?: boolean;
};

export type NormalizedEncodings = {
  bindings: Record<string, string>;
  /** Always the object form: { default: {...}, current: {...} }, other complex encodings kept exactly as given. */
  complex: { default: Record<string, unknown>; current: Record<string, unknown> };
  fieldFilters: FieldFilter[];
};

/** The graph type of an axis's entities: nodes are drawn as points. */
export const GRAPH_TYPE_OF: Record<Axis, GraphType> = { node: "point", edge: "edge" };
