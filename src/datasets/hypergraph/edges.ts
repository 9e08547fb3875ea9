// Edges: event -> attribute per (row, entity column), or attribute -> attribute per EDGES pair when direct.
import pl from "nodejs-polars";
import { byCodePoint, type Defs } from "./defs.ts";
import { build, type Columns, columnsOf, nullOf, unionFrames } from "./frames.ts";
import { presentIn, textOf, type Work } from "./work.ts";

/**
 * The event columns every edge carries: all of them, or only the event id with drop_edge_attrs. The
 * node-type column is left out, as pygraphistry does, so it cannot be mistaken for the node's type.
 */
function attributes(work: Work, defs: Defs): Columns {
  return columnsOf(defs.dropEdgeAttrs ? [defs.eventId] : work.columns.filter((c) => c !== defs.nodeType));
}

function idOf(work: Work, defs: Defs, column: string | undefined): pl.Expr {
  if (column === undefined) return nullOf(pl.Utf8);
  return pl.lit(`${defs.categoryOf(column)}${defs.delim}`).add(textOf(work, column, defs));
}

/** Typed text, or a typed null when there is no column (an empty table of the right shape). */
const text = (value: string | undefined) => (value === undefined ? nullOf(pl.Utf8) : pl.lit(value));

function hyperedgeColumns(work: Work, defs: Defs, column?: string): Columns {
  const columns = attributes(work, defs);
  if (defs.usesCategories) {
    columns.set(defs.edgeType, text(column === undefined ? undefined : defs.categoryOf(column)));
    columns.set(defs.category, text(column));
  } else {
    columns.set(defs.edgeType, text(column));
  }
  columns.set(defs.attribId, idOf(work, defs, column));
  return columns;
}

function directColumns(work: Work, defs: Defs, pair?: [string, string]): Columns {
  const columns = attributes(work, defs);
  const join = (a: string, b: string) => `${a}${defs.delim}${b}`;
  const [from, to] = pair ?? [undefined, undefined];
  const plain = pair && join(pair[0], pair[1]);
  if (defs.usesCategories) {
    columns.set(defs.edgeType, text(pair && join(defs.categoryOf(pair[0]), defs.categoryOf(pair[1]))));
    columns.set(defs.category, text(plain));
  } else {
    columns.set(defs.edgeType, text(plain));
  }
  columns.set(defs.source, idOf(work, defs, from));
  columns.set(defs.destination, idOf(work, defs, to));
  return columns;
}

function stack(work: Work, frames: pl.DataFrame[], empty: Columns): pl.DataFrame {
  return frames.length > 0 ? unionFrames(frames) : build(work.frame.head(0), empty).clear();
}

/** direct=false: one edge per (row, entity column), columns in sorted order; nulls dropped with drop_na. */
export function hyperedges(work: Work, entityTypes: readonly string[], defs: Defs): pl.DataFrame {
  const frames = [...entityTypes].sort(byCodePoint).map((column) => {
    const rows = defs.dropNa ? work.frame.filter(presentIn(work, column)) : work.frame;
    return build(rows, hyperedgeColumns(work, defs, column));
  });
  return stack(work, frames, hyperedgeColumns(work, defs));
}

/** EDGES, or by default each entity column paired with every later one, in entity_types order. */
export function directShape(entityTypes: readonly string[], defs: Defs): Record<string, string[]> {
  if (defs.edges) return defs.edges;
  const shape: Record<string, string[]> = {};
  entityTypes.forEach((column, i) => {
    shape[column] = entityTypes.slice(i + 1);
  });
  return shape;
}

/** direct=true: one edge per row and (source column, destination column) pair, both sorted by name. */
export function directEdges(work: Work, entityTypes: readonly string[], defs: Defs): pl.DataFrame {
  const shape = directShape(entityTypes, defs);
  const pairs = Object.keys(shape)
    .sort(byCodePoint)
    .flatMap((from) => [...(shape[from] ?? [])].sort(byCodePoint).map((to): [string, string] => [from, to]));
  const frames = pairs.map((pair) => {
    const rows = defs.dropNa ? work.frame.filter(presentIn(work, pair[0]).and(presentIn(work, pair[1]))) : work.frame;
    return build(rows, directColumns(work, defs, pair));
  });
  return stack(work, frames, directColumns(work, defs));
}
