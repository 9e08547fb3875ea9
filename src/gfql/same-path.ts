// Chain `where` (same-path) clauses: builds the table of matched paths, filters it, and derives per-step restrictions.

import pl from "nodejs-polars";
import type { EdgeOp, WhereClause } from "./ast.ts";
import type { Passes, Restrict, Step } from "./chain.ts";
import { gfqlError } from "./gfql-error.ts";
import { A, B, EID, ID, union } from "./graph-frames.ts";
import type { HopGraph } from "./hop.ts";
import { checkJoin } from "./limits.ts";

export type WhereSpec = { clauses: WhereClause[]; path: string };

const nodeCol = (i: number) => `__gfql_p${i}`;
const edgeCol = (i: number) => `__gfql_e${i}`;
const S = "__gfql_s";
const C = "__gfql_c";

const isSingleHop = (op: EdgeOp) => op.minHops === 1 && op.maxHops === 1;

/** Kept oriented edges (EID, A, B) of hop k (1-based) of edge step i. */
function keptLayer(r: Passes, i: number, k: number): pl.DataFrame | undefined {
  const layer = r.hops[i]?.layers[k - 1];
  const kept = r.keptEdges[i];
  return layer === undefined || kept === undefined ? undefined : layer.join(kept, { on: EID, how: "semi" });
}

/**
 * One row per matched path: the node id at every Node step and the edge id at every single-hop Edge step. A
 * multi-hop step contributes the (start, end) pairs its kept walks connect.
 */
function pathTable(steps: Step[], r: Passes, path: string): pl.DataFrame | null {
  const what = "the same-path table of matched paths";
  let paths = (r.pruned[0] as pl.DataFrame).select(pl.col(ID).alias(nodeCol(0)));
  for (let i = 1; i < steps.length; i += 2) {
    const op = (steps[i] as Step).op as EdgeOp;
    const from = nodeCol(i - 1);
    if (isSingleHop(op)) {
      const layer = keptLayer(r, i, 1);
      if (layer === undefined) return null; // nothing kept: no path
      const e = layer.select(pl.col(A), pl.col(EID).alias(edgeCol(i)), pl.col(B).alias(nodeCol(i + 1)));
      checkJoin(paths, from, e, A, what, path);
      paths = paths.join(e, { leftOn: from, rightOn: A, how: "inner" });
    } else {
      let frontier = paths.select(pl.col(from).alias(S), pl.col(from).alias(C)).unique();
      const reached: pl.DataFrame[] = op.minHops === 0 ? [frontier] : [];
      const layers = r.hops[i]?.layers.length ?? 0;
      for (let k = 1; k <= layers && frontier.height > 0; k++) {
        const layer = keptLayer(r, i, k);
        if (layer === undefined) break;
        checkJoin(frontier, C, layer, A, what, path);
        frontier = frontier.join(layer, { leftOn: C, rightOn: A, how: "inner" }).select(pl.col(S), pl.col(B).alias(C)).unique();
        if (k >= op.minHops) reached.push(frontier);
      }
      const pairs = union(reached, frontier.head(0));
      checkJoin(paths, from, pairs, S, what, path);
      paths = paths.join(pairs.rename({ [C]: nodeCol(i + 1) }), { leftOn: from, rightOn: S, how: "inner" });
    }
    paths = paths.join(r.pruned[i + 1] as pl.DataFrame, { leftOn: nodeCol(i + 1), rightOn: ID, how: "semi" });
  }
  return paths;
}

function operand(
  g: HopGraph,
  steps: Step[],
  side: { alias: string; column: string },
  path: string,
): { key: string; table: pl.DataFrame; on: string } {
  const i = steps.findIndex(({ op }) => op.name === side.alias);
  const step = steps[i];
  if (step === undefined) throw gfqlError("E204", `no step named '${side.alias}'`, path);
  if (step.op.type === "Edge" && !isSingleHop(step.op)) {
    throw gfqlError("E101", `same-path comparisons on multi-hop edge '${side.alias}' are not supported yet`, path);
  }
  const table = step.op.type === "Node" ? g.nodes : g.edges;
  const on = step.op.type === "Node" ? g.nodeId : EID;
  if (!table.columns.includes(side.column)) throw gfqlError("E301", `column '${side.column}' not found for step '${side.alias}'`, path);
  return { key: step.op.type === "Node" ? nodeCol(i) : edgeCol(i), table: table.select(pl.col(on), pl.col(side.column)), on };
}

function compare(op: WhereClause["op"], l: pl.Expr, r: pl.Expr): pl.Expr {
  if (op === "eq") return l.eq(r);
  if (op === "neq") return l.neq(r);
  if (op === "gt") return l.gt(r);
  if (op === "lt") return l.lt(r);
  if (op === "ge") return l.gtEq(r);
  return l.ltEq(r);
}

/** Filters the matched paths by every clause (nulls never compare true) and returns what each step may keep. */
export function samePathRestrict(g: HopGraph, steps: Step[], r: Passes, where: WhereSpec): Restrict {
  const table = pathTable(steps, r, where.path);
  const restrict: Restrict = { nodes: new Map(), edges: new Map() };
  if (table === null) {
    steps.forEach((step, i) => {
      if (step.op.type === "Node") restrict.nodes.set(i, (r.pruned[i] as pl.DataFrame).head(0));
    });
    return restrict;
  }
  let paths = table;
  where.clauses.forEach((clause, j) => {
    const at = `${where.path}[${j}].${clause.op}`;
    const sides = [operand(g, steps, clause.left, `${at}.left`), operand(g, steps, clause.right, `${at}.right`)];
    sides.forEach((side, s) => {
      const renamed = side.table.rename({ [side.on]: `__gfql_k${s}`, [side.table.columns[1] as string]: `__gfql_w${s}` });
      paths = paths.join(renamed, { leftOn: side.key, rightOn: `__gfql_k${s}`, how: "left" });
      if (paths.columns.includes(`__gfql_k${s}`)) paths = paths.drop(`__gfql_k${s}`);
    });
    try {
      paths = paths.filter(compare(clause.op, pl.col("__gfql_w0"), pl.col("__gfql_w1")).fillNull(false)).drop("__gfql_w0", "__gfql_w1");
    } catch {
      throw gfqlError(
        "E302",
        `cannot compare ${clause.left.alias}.${clause.left.column} with ${clause.right.alias}.${clause.right.column}`,
        at,
      );
    }
  });
  steps.forEach(({ op }, i) => {
    if (op.type === "Node") restrict.nodes.set(i, paths.select(pl.col(nodeCol(i)).alias(ID)).unique());
    else if (isSingleHop(op)) restrict.edges.set(i, paths.select(pl.col(edgeCol(i)).alias(EID)).unique());
  });
  return restrict;
}
