// Entity nodes (one per distinct value of each entity column) and event nodes (one per row).
import pl from "nodejs-polars";
import type { Defs } from "./defs.ts";
import { build, type Columns, columnsOf, nullOf, unionFrames } from "./frames.ts";
import { presentIn, textOf, type Work } from "./work.ts";

/**
 * The node table's columns (pygraphistry's `mt_nodes`): the event columns (only the entity columns when
 * direct), then title, event id, type, category and node id as text. Every node frame carries all of
 * them so entities and events stack into one table.
 */
function nodeSchema(work: Work, entityTypes: readonly string[], defs: Defs): Map<string, pl.DataType> {
  const schema = new Map<string, pl.DataType>();
  for (const column of defs.direct ? entityTypes : work.columns) schema.set(column, work.frame.getColumn(column).dtype);
  for (const column of [defs.title, defs.eventId, defs.nodeType, defs.category, defs.nodeId]) schema.set(column, pl.Utf8);
  return schema;
}

function withSchema(columns: Columns, schema: Map<string, pl.DataType>): Columns {
  for (const [name, type] of schema) if (!columns.has(name)) columns.set(name, nullOf(type));
  return columns;
}

/** `build` on no rows: literals alone would make one row, so the result is cleared. */
function emptyFrame(work: Work, columns: Columns): pl.DataFrame {
  return build(work.frame.head(0), columns).clear();
}

export function entityNodes(work: Work, entityTypes: readonly string[], defs: Defs): pl.DataFrame {
  const schema = nodeSchema(work, entityTypes, defs);
  const frames = entityTypes.map((column) => {
    const text = work.text.get(column) ?? column;
    let base = work.frame.select(pl.col(column), pl.col(text));
    if (defs.dropNa) base = base.filter(presentIn(work, column));
    base = base.filter(pl.col(text).isFirstDistinct());
    const category = defs.categoryOf(column);
    const columns: Columns = new Map([[column, pl.col(column)]]);
    columns.set(defs.title, textOf(work, column, defs));
    columns.set(defs.nodeType, pl.lit(column));
    columns.set(defs.category, pl.lit(category));
    columns.set(defs.nodeId, pl.lit(`${category}${defs.delim}`).add(textOf(work, column, defs)));
    return build(base, withSchema(columns, schema));
  });
  if (frames.length === 0) return emptyFrame(work, withSchema(new Map(), schema));
  // CATEGORIES makes equal values of several columns one node: the first column in entity order wins.
  return unionFrames(frames).filter(pl.col(defs.nodeId).isFirstDistinct());
}

/** One node per event row (direct=false): the row's attributes plus its event id as id and title. */
export function eventNodes(work: Work, entityTypes: readonly string[], defs: Defs): pl.DataFrame {
  if (defs.direct) return emptyFrame(work, withSchema(new Map(), nodeSchema(work, entityTypes, defs)));
  const columns = columnsOf(work.columns);
  columns.set(defs.nodeType, pl.lit(defs.eventId));
  columns.set(defs.category, pl.lit(defs.eventType));
  columns.set(defs.nodeId, pl.col(defs.eventId));
  columns.set(defs.title, pl.col(defs.eventId));
  return build(work.frame, columns);
}
