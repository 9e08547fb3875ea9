// Frame helpers with pandas' semantics: column assignment that keeps positions, and concatenation by column union.
import pl from "nodejs-polars";
import { pyStrSeries } from "./py-str.ts";

/**
 * Output columns in order. Setting an existing name replaces its expression in place, as pandas'
 * `df[name] = …` does, so a table column that shares a name with a generated one is overwritten.
 */
export type Columns = Map<string, pl.Expr>;

export function columnsOf(names: readonly string[]): Columns {
  return new Map(names.map((name) => [name, pl.col(name)]));
}

export function build(frame: pl.DataFrame, columns: Columns): pl.DataFrame {
  return frame.select(...[...columns].map(([name, expr]) => expr.alias(name)));
}

/** A typed all-null column, so frames built apart still concatenate without type conflicts. */
export function nullOf(type: pl.DataType): pl.Expr {
  return pl.lit(null).cast(type);
}

/**
 * Concatenates frames whose columns differ (pandas' `concat(..., sort=False)`): the union of columns in
 * order of first appearance, null where a frame lacks one. A column whose types disagree becomes text.
 */
export function unionFrames(frames: readonly pl.DataFrame[]): pl.DataFrame {
  const order: string[] = [];
  const types = new Map<string, pl.DataType[]>();
  for (const frame of frames) {
    for (const column of frame.columns) {
      const seen = types.get(column);
      const type = frame.getColumn(column).dtype;
      if (seen) seen.push(type);
      else {
        order.push(column);
        types.set(column, [type]);
      }
    }
  }
  const target = new Map<string, pl.DataType>();
  for (const [column, list] of types) {
    const typed = list.filter((t) => t.variant !== "Null");
    const names = new Set(typed.map(String));
    target.set(column, names.size === 0 ? pl.Utf8 : names.size === 1 && typed[0] ? typed[0] : pl.Utf8);
  }
  const aligned = frames.map((frame) => {
    let out = frame;
    for (const column of frame.columns) {
      const want = target.get(column) ?? pl.Utf8;
      const have = frame.getColumn(column).dtype;
      if (String(have) === String(want)) continue;
      out = out.withColumns(have.variant === "Null" ? pl.col(column).cast(want) : pyStrSeries(frame.getColumn(column)));
    }
    return out.select(...order.map((c) => (frame.columns.includes(c) ? pl.col(c) : nullOf(target.get(c) ?? pl.Utf8).alias(c))));
  });
  const [first, ...rest] = aligned;
  if (!first) return pl.DataFrame({});
  return rest.length === 0 ? first : pl.concat([first, ...rest], { how: "vertical" });
}
