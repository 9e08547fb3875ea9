// Names each Arrow type as pandas would name the column's dtype (tables_schemas' dtypes).
import { type DataType, type Field, Type } from "apache-arrow";
import type pl from "nodejs-polars";

/**
 * The pandas dtype that pyarrow's `Table.to_pandas()` (pandas 1.5) gives each Arrow type, so clients see the
 * names they know. The README's dtype table is this function written out. `hasNulls`: to_pandas makes an
 * integer column with a missing value float64, and a boolean one object.
 */
export function pandasDtype(type: DataType, hasNulls = false): string {
  switch (type.typeId) {
    case Type.Bool:
      return hasNulls ? "object" : "bool";
    case Type.Int: {
      const t = type as unknown as { isSigned: boolean; bitWidth: number };
      return hasNulls ? "float64" : `${t.isSigned ? "int" : "uint"}${t.bitWidth}`;
    }
    case Type.Float: {
      const precision = (type as unknown as { precision: number }).precision;
      return precision === 0 ? "float16" : precision === 1 ? "float32" : "float64";
    }
    case Type.Timestamp: {
      const t = type as unknown as { unit: number; timezone: string | null };
      const unit = ["s", "ms", "us", "ns"][t.unit] ?? "ns";
      return t.timezone ? `datetime64[${unit}, ${zoneName(t.timezone)}]` : `datetime64[${unit}]`;
    }
    case Type.Duration: {
      const unit = ["s", "ms", "us", "ns"][(type as unknown as { unit: number }).unit] ?? "ns";
      return `timedelta64[${unit}]`;
    }
    case Type.Dictionary:
      return "category";
    default:
      // Strings, binary, dates, times, decimals, nested and null columns are Python objects in pandas.
      return "object";
  }
}

/** A fixed offset ("+01:00") is pytz.FixedOffset(60) to pandas 1.5; names (UTC, Europe/Paris) stay. */
function zoneName(zone: string): string {
  const offset = /^([+-])(\d{2}):?(\d{2})$/.exec(zone);
  if (!offset) return zone;
  const minutes = (Number(offset[2]) * 60 + Number(offset[3])) * (offset[1] === "-" ? -1 : 1);
  return minutes === 0 ? "UTC" : `pytz.FixedOffset(${minutes})`;
}

/**
 * pandas dtypes a column was read as that its Arrow type alone does not say: the nullable ones asked for by a
 * dtype hint (Int64, boolean, string...). Held beside the frame until it is stored (table-files.ts).
 */
const marked = new WeakMap<pl.DataFrame, Record<string, string>>();

export function markPandasDtypes(frame: pl.DataFrame, dtypes: Record<string, string>): pl.DataFrame {
  if (Object.keys(dtypes).length > 0) marked.set(frame, { ...marked.get(frame), ...dtypes });
  return frame;
}

/** The marks of `from`, carried over to a frame derived from it (same columns). */
export function carryPandasDtypes(from: pl.DataFrame, to: pl.DataFrame): pl.DataFrame {
  const marks = marked.get(from);
  return marks ? markPandasDtypes(to, marks) : to;
}

/** Each stored column's pandas dtype: the frame's mark, else its Arrow type's name (nulls counted). */
export function pandasDtypes(fields: readonly Field[], frame?: pl.DataFrame): Record<string, string> {
  const marks = (frame && marked.get(frame)) ?? {};
  return Object.fromEntries(
    fields.map((field) => {
      const nulls = frame?.columns.includes(field.name) ? frame.getColumn(field.name).nullCount() > 0 : false;
      return [field.name, marks[field.name] ?? pandasDtype(field.type, nulls)];
    }),
  );
}
