// Parses a GFQL Call ({"type":"Call","function","params"}) against the safelist into a validated CallSpec.

import { AGG_FNS, type AggFn, type CallOp, type CallSpec, type Scalar } from "./ast.ts";
import { parseComputeCall } from "./call-compute.ts";
import { parseFa2Call } from "./call-fa2-layout.ts";
import { parseLayoutCall } from "./call-layout.ts";
import { CALL_PARAMS, SAFELIST_V1, SUPPORTED_CALLS } from "./call-names.ts";
import { checkKeys, gfqlError, isPlainObject } from "./gfql-error.ts";
import { parseEdgeObject } from "./parse-op.ts";
import { parseFilterDict } from "./parse-predicate.ts";

const invalid = (fn: string, key: string, want: string, path: string) =>
  gfqlError("E201", `invalid parameter '${key}' for '${fn}': expected ${want}`, `${path}.params.${key}`);

function str(p: Record<string, unknown>, key: string, dflt: string, fn: string, path: string): string {
  const v = p[key];
  if (v === undefined) return dflt;
  if (typeof v !== "string" || v === "") throw invalid(fn, key, "a non-empty string", path);
  return v;
}

function count(p: Record<string, unknown>, key: string, fn: string, path: string): number {
  const v = p[key];
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) throw invalid(fn, key, "a non-negative integer", path);
  return v;
}

function strings(p: Record<string, unknown>, key: string, fn: string, path: string): string[] {
  const v = p[key];
  if (!Array.isArray(v) || v.length === 0 || !v.every((s) => typeof s === "string" && s !== "")) {
    throw invalid(fn, key, "a non-empty list of column names", path);
  }
  return v as string[];
}

/** Node ids for drop_nodes/keep_nodes: a list of ids, or a {column: [ids]} table naming one column. */
function nodeIds(p: Record<string, unknown>, fn: string, path: string): Array<Scalar | null> {
  let v = p.nodes;
  if (isPlainObject(v)) {
    const cols = Object.values(v);
    if (cols.length !== 1) throw invalid(fn, "nodes", "a list of ids or a one-column {id: [..]} table", path);
    v = cols[0];
  }
  if (!Array.isArray(v) || !v.every((x) => x === null || typeof x === "string" || typeof x === "number" || typeof x === "boolean")) {
    throw invalid(fn, "nodes", "a list of ids or a one-column {id: [..]} table", path);
  }
  return v as Array<Scalar | null>;
}

/** A bare column name: the only select/order_by expression implemented for now. */
function column(value: unknown, fn: string, key: string, path: string): string {
  if (typeof value !== "string" || value.trim() === "") throw invalid(fn, key, "a column name", path);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(value)) {
    throw gfqlError(
      "unsupported-call",
      `'${fn}' supports bare column names only, not the expression ${JSON.stringify(value)}`,
      `${path}.params.${key}`,
    );
  }
  return value;
}

function refuseNonDefault(p: Record<string, unknown>, keys: string[], fn: string, path: string): void {
  for (const key of keys) {
    const v = p[key];
    if (
      v === undefined ||
      v === null ||
      v === false ||
      (Array.isArray(v) && v.length === 0) ||
      (isPlainObject(v) && Object.keys(v).length === 0)
    )
      continue;
    if (typeof v === "string" && v.trim() === "") continue;
    throw gfqlError("unsupported-call", `parameter '${key}' of '${fn}' is not supported yet`, `${path}.params.${key}`);
  }
}

function parseHop(p: Record<string, unknown>, path: string): CallSpec {
  refuseNonDefault(p, ["nodes", "target_wave_front", "return_as_wave_front"], "hop", path);
  const { engine: _engine, nodes: _nodes, target_wave_front: _t, return_as_wave_front: _r, ...edge } = p;
  // hop() defaults to direction forward and one hop; the Edge op's parser resolves the bounds the same way.
  const edgeOp = parseEdgeObject({ type: "Edge", direction: "forward", ...edge }, `${path}.params`);
  return { fn: "hop", edge: edgeOp };
}

function parseAggregations(p: Record<string, unknown>, path: string): Array<{ out: string; agg: AggFn; column?: string }> {
  const v = p.aggregations;
  const want = "a list of [out, fn] or [out, fn, column]";
  if (!Array.isArray(v) || v.length === 0) throw invalid("group_by", "aggregations", want, path);
  return v.map((item, i) => {
    if (!Array.isArray(item) || item.length < 2 || item.length > 3 || !item.every((s) => typeof s === "string" && s !== "")) {
      throw invalid("group_by", "aggregations", want, path);
    }
    const [out, agg, col] = item as string[];
    if (!(AGG_FNS as readonly string[]).includes(agg as string)) {
      throw gfqlError(
        "unsupported-call",
        `aggregation '${agg}' is not supported; use one of ${AGG_FNS.join(", ")}`,
        `${path}.params.aggregations[${i}]`,
      );
    }
    const spec: { out: string; agg: AggFn; column?: string } = { out: out as string, agg: agg as AggFn };
    if (col !== undefined && col !== "*") spec.column = column(col, "group_by", `aggregations[${i}]`, path);
    else if (agg !== "count") throw invalid("group_by", `aggregations[${i}]`, `a column for '${agg}'`, path);
    return spec;
  });
}

function parseSpec(fn: string, p: Record<string, unknown>, path: string): CallSpec {
  switch (fn) {
    case "get_degrees":
      return {
        fn,
        col: str(p, "col", "degree", fn, path),
        degreeIn: str(p, "degree_in", "degree_in", fn, path),
        degreeOut: str(p, "degree_out", "degree_out", fn, path),
      };
    case "get_indegrees":
      return { fn, col: str(p, "col", "degree_in", fn, path) };
    case "get_outdegrees":
      return { fn, col: str(p, "col", "degree_out", fn, path) };
    case "filter_nodes_by_dict":
    case "filter_edges_by_dict":
      if (!isPlainObject(p.filter_dict)) throw invalid(fn, "filter_dict", "an object", path);
      return { fn, filter: parseFilterDict(p.filter_dict, `${path}.params.filter_dict`) };
    case "hop":
      return parseHop(p, path);
    case "materialize_nodes": {
      if (p.reuse !== undefined && typeof p.reuse !== "boolean") throw invalid(fn, "reuse", "a boolean", path);
      return { fn, reuse: p.reuse !== false };
    }
    case "prune_self_edges":
    case "distinct":
      return { fn };
    case "count_table": {
      // pygraphistry's count_table(table="nodes", source=None, alias="count(*)")
      const table = p.table ?? "nodes";
      if (table !== "nodes" && table !== "edges") throw invalid(fn, "table", '"nodes" or "edges"', path);
      if (p.source !== undefined && p.source !== null && (typeof p.source !== "string" || p.source === ""))
        throw invalid(fn, "source", "a column name", path);
      if (p.alias !== undefined && (typeof p.alias !== "string" || p.alias === "")) throw invalid(fn, "alias", "a column name", path);
      return {
        fn,
        table,
        alias: (p.alias as string | undefined) ?? "count(*)",
        ...(typeof p.source === "string" ? { source: p.source } : {}),
      };
    }
    case "drop_nodes":
    case "keep_nodes":
      return { fn, ids: nodeIds(p, fn, path) };
    case "rows": {
      refuseNonDefault(p, ["alias_endpoints", "binding_ops"], fn, path);
      const table = p.table ?? "nodes";
      if (table !== "nodes" && table !== "edges") throw invalid(fn, "table", "'nodes' or 'edges'", path);
      const spec: CallSpec = { fn, table };
      if (p.source !== undefined && p.source !== null) spec.source = str(p, "source", "", fn, path);
      return spec;
    }
    case "select": {
      if (!Array.isArray(p.items) || p.items.length === 0) throw invalid(fn, "items", "a non-empty list", path);
      const items = p.items.map((item, i) => {
        if (typeof item === "string") return { alias: item, column: column(item, fn, `items[${i}]`, path) };
        if (!Array.isArray(item) || item.length !== 2 || typeof item[0] !== "string" || item[0] === "") {
          throw invalid(fn, `items[${i}]`, "a column name or an [alias, column] pair", path);
        }
        return { alias: item[0], column: column(item[1], fn, `items[${i}]`, path) };
      });
      return { fn, items };
    }
    case "where_rows": {
      refuseNonDefault(p, ["expr"], fn, path);
      if (p.filter_dict !== undefined && !isPlainObject(p.filter_dict)) throw invalid(fn, "filter_dict", "an object", path);
      return { fn, filter: parseFilterDict(p.filter_dict, `${path}.params.filter_dict`) };
    }
    case "order_by": {
      if (!Array.isArray(p.keys) || p.keys.length === 0) throw invalid(fn, "keys", "a non-empty list of [column, asc|desc]", path);
      const keys = p.keys.map((k, i) => {
        const dir = Array.isArray(k) && k.length === 2 && typeof k[1] === "string" ? k[1].toLowerCase() : "";
        if (!Array.isArray(k) || (dir !== "asc" && dir !== "desc")) throw invalid(fn, `keys[${i}]`, "[column, 'asc'|'desc']", path);
        return { column: column(k[0], fn, `keys[${i}]`, path), descending: dir === "desc" };
      });
      return { fn, keys };
    }
    case "skip":
    case "limit":
      return { fn, value: count(p, "value", fn, path) };
    case "group_by":
      return {
        fn,
        keys: strings(p, "keys", fn, path).map((k, i) => column(k, fn, `keys[${i}]`, path)),
        aggregations: parseAggregations(p, path),
      };
    case "compute_igraph":
    case "compute_cugraph":
      return parseComputeCall(fn, p, path);
    case "layout_igraph":
    case "layout_cugraph":
      return parseLayoutCall(fn, p, path);
    case "fa2_layout":
      return parseFa2Call(p, path);
    default:
      throw new Error(`unhandled call ${fn}`);
  }
}

export function parseCall(obj: Record<string, unknown>, path: string): CallOp {
  checkKeys(obj, ["type", "function", "params"], path);
  const fn = obj.function;
  if (typeof fn !== "string" || fn === "") throw gfqlError("E105", "Call needs a 'function' name", `${path}.function`);
  if (!(SAFELIST_V1 as readonly string[]).includes(fn)) {
    throw gfqlError("E303", `function '${fn}' is not in the safelist`, `${path}.function`);
  }
  const spec = CALL_PARAMS[fn];
  if (spec === undefined || !SUPPORTED_CALLS.includes(fn)) {
    throw gfqlError("unsupported-call", `'${fn}' is not supported yet; supported: ${SUPPORTED_CALLS.join(", ")}`, `${path}.function`);
  }
  const params = obj.params ?? {};
  if (!isPlainObject(params)) throw gfqlError("E201", "Call 'params' must be an object", `${path}.params`);
  for (const key of Object.keys(params)) {
    if (!spec.allowed.includes(key)) throw gfqlError("E303", `unknown parameter '${key}' for '${fn}'`, `${path}.params.${key}`);
  }
  for (const key of spec.required) {
    if (params[key] === undefined) throw gfqlError("E105", `missing required parameter '${key}' for '${fn}'`, `${path}.params`);
  }
  return { type: "Call", call: parseSpec(fn, params, path) };
}
