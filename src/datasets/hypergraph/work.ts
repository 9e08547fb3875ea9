// The events table the transform works on: event ids filled in, and each needed column's Python text computed once.
import pl from "nodejs-polars";
import type { Defs } from "./defs.ts";
import { pyStrSeries } from "./py-str.ts";

export type Work = {
  /** The events plus hidden text columns (never copied to an output: outputs name their columns). */
  frame: pl.DataFrame;
  /** The events' own columns, in order: the table's, with the EVENTID column rewritten or appended. */
  columns: string[];
  /** Column -> the hidden column holding str() of its values (null where the value is missing). */
  text: Map<string, string>;
};

/** A prefix no table column starts with, so hidden helper columns can never replace real ones. */
function hiddenPrefix(columns: readonly string[]): string {
  let prefix = "__hypergraph_";
  while (columns.some((c) => c.startsWith(prefix))) prefix = `_${prefix}`;
  return prefix;
}

/**
 * Numbers the events as pygraphistry does: `<EVENTID><DELIM>str(value)` from the EVENTID column
 * when the table has one (missing values become NULLVAL), otherwise `<EVENTID><DELIM><row index>`.
 */
export function prepareWork(table: pl.DataFrame, defs: Defs, textColumns: readonly string[]): Work {
  const hidden = hiddenPrefix(table.columns);
  const prefix = pl.lit(`${defs.eventId}${defs.delim}`);
  const index = `${hidden}index`;
  let frame: pl.DataFrame;
  if (table.columns.includes(defs.eventId)) {
    const text = pyStrSeries(table.getColumn(defs.eventId)).rename(index);
    frame = table
      .withColumns(text)
      .withColumns(prefix.add(pl.col(index).fillNull(pl.lit(defs.nullVal))).alias(defs.eventId))
      .drop(index);
  } else {
    frame = table
      .withRowIndex(index)
      .withColumns(prefix.add(pl.col(index).cast(pl.Utf8)).alias(defs.eventId))
      .drop(index);
  }
  const columns = frame.columns;
  const text = new Map<string, string>();
  for (const column of new Set(textColumns)) {
    const name = `${hidden}text_${text.size}`;
    frame = frame.withColumns(pyStrSeries(frame.getColumn(column)).rename(name));
    text.set(column, name);
  }
  return { frame, columns, text };
}

/** str() of a column's values with missing ones as NULLVAL, as every id is built. */
export function textOf(work: Work, column: string, defs: Defs): pl.Expr {
  const name = work.text.get(column);
  if (name === undefined) throw new Error(`hypergraph: no text computed for column "${column}"`);
  return pl.col(name).fillNull(pl.lit(defs.nullVal));
}

/** Whether a column's value is present (not null, not NaN), for drop_na. */
export function presentIn(work: Work, column: string): pl.Expr {
  const name = work.text.get(column);
  if (name === undefined) throw new Error(`hypergraph: no text computed for column "${column}"`);
  return pl.col(name).isNotNull();
}
