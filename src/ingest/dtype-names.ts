// Names each Arrow type as pandas would name the column's dtype (tables_schemas' dtypes).
import { type DataType, Type } from "apache-arrow";

/**
 * The pandas dtype that pyarrow's `Table.to_pandas()` gives each Arrow type, so clients see the
 * names they know. The README's dtype table is this function written out.
 */
export function pandasDtype(type: DataType): string {
  switch (type.typeId) {
    case Type.Bool:
      return "bool";
    case Type.Int: {
      const t = type as unknown as { isSigned: boolean; bitWidth: number };
      return `${t.isSigned ? "int" : "uint"}${t.bitWidth}`;
    }
    case Type.Float: {
      const precision = (type as unknown as { precision: number }).precision;
      return precision === 0 ? "float16" : precision === 1 ? "float32" : "float64";
    }
    case Type.Timestamp: {
      const t = type as unknown as { unit: number; timezone: string | null };
      const unit = ["s", "ms", "us", "ns"][t.unit] ?? "ns";
      return t.timezone ? `datetime64[${unit}, ${t.timezone}]` : `datetime64[${unit}]`;
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
