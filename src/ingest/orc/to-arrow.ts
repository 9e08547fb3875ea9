// Maps ORC types to Arrow types and turns Decoded chunks (or row ranges of them) into Arrow Data.
import {
  Binary,
  Bool,
  type Data,
  type DataType,
  DateDay,
  Float32,
  Float64,
  Int8,
  Int16,
  Int32,
  Int64,
  makeData,
  Timestamp,
  TimeUnit,
  Utf8,
} from "apache-arrow";
import type { Decoded } from "./decoded.ts";
import { checkJsonSize, JsonWriter, writeJson } from "./json.ts";
import { K, type OrcType } from "./types.ts";

/**
 * ORC type -> Arrow type. Decimals become Utf8 holding the exact decimal text with exactly `scale` digits after
 * the point (e.g. "-12.34500"): Arrow JS decimals are awkward to consume and lossy to turn into numbers, and text
 * keeps every digit. Nested types (struct, list, map, union) become Utf8 JSON, one value per row.
 */
export function arrowType(t: OrcType): DataType {
  switch (t.kind) {
    case K.BOOLEAN:
      return new Bool();
    case K.BYTE:
      return new Int8();
    case K.SHORT:
      return new Int16();
    case K.INT:
      return new Int32();
    case K.LONG:
      return new Int64();
    case K.FLOAT:
      return new Float32();
    case K.DOUBLE:
      return new Float64();
    case K.BINARY:
      return new Binary();
    case K.DATE:
      return new DateDay();
    case K.TIMESTAMP:
      return new Timestamp(TimeUnit.NANOSECOND);
    case K.TIMESTAMP_INSTANT:
      return new Timestamp(TimeUnit.NANOSECOND, "UTC");
    default:
      return new Utf8(); // string, varchar, char, decimal, and nested JSON
  }
}

/** Arrow validity bitmap (LSB first) for rows [lo, hi), or none when all are present. */
function validity(valid: Uint8Array | null, lo: number, hi: number): { nullBitmap: Uint8Array | undefined; nullCount: number } {
  if (valid === null) return { nullBitmap: undefined, nullCount: 0 };
  const n = hi - lo;
  const bitmap = new Uint8Array((n + 7) >>> 3);
  let present = 0;
  for (let i = 0; i < n; i++) {
    if (valid[lo + i] === 1) {
      bitmap[i >>> 3] = (bitmap[i >>> 3] as number) | (1 << (i & 7));
      present++;
    }
  }
  return present === n ? { nullBitmap: undefined, nullCount: 0 } : { nullBitmap: bitmap, nullCount: n - present };
}

function packBits(values: Uint8Array, lo: number, hi: number): Uint8Array {
  const n = hi - lo;
  const out = new Uint8Array((n + 7) >>> 3);
  for (let i = 0; i < n; i++) if (values[lo + i]) out[i >>> 3] = (out[i >>> 3] as number) | (1 << (i & 7));
  return out;
}

/** Rows [lo, hi) of a top-level decoded column as Arrow Data of type arrowType(col.type). */
export function toArrowData(col: Decoded, lo: number, hi: number): Data {
  const type = arrowType(col.type);
  const length = hi - lo;
  switch (col.shape) {
    case "values": {
      const nulls = validity(col.valid, lo, hi);
      if (col.type.kind === K.BOOLEAN)
        return makeData({ type: type as Bool, length, ...nulls, data: packBits(col.values as Uint8Array, lo, hi) });
      // Each ORC kind decodes into the typed array its Arrow type expects (see columns.ts).
      return makeData({ type, length, ...nulls, data: col.values.subarray(lo, hi) } as Parameters<typeof makeData>[0]);
    }
    case "bytes": {
      const base = col.offsets[lo] as number;
      const end = col.offsets[hi] as number;
      const offsets = base === 0 ? col.offsets.subarray(lo, hi + 1) : col.offsets.subarray(lo, hi + 1).map((o) => o - base);
      const nulls = validity(col.valid, lo, hi);
      const data = col.data.subarray(base, end);
      if (col.type.kind === K.BINARY) return makeData({ type: new Binary(), length, ...nulls, valueOffsets: offsets, data });
      return makeData({ type: new Utf8(), length, ...nulls, valueOffsets: offsets, data });
    }
    default: {
      checkJsonSize(col);
      const out = new JsonWriter(col.type.path);
      const offsets = new Int32Array(length + 1);
      for (let i = 0; i < length; i++) {
        if (col.valid === null || col.valid[lo + i] === 1) writeJson(col, lo + i, out);
        offsets[i + 1] = out.length;
      }
      const data = out.buf.slice(0, out.length);
      return makeData({ type: new Utf8(), length, ...validity(col.valid, lo, hi), valueOffsets: offsets, data });
    }
  }
}

/** A zero-row Data of the given type (for files without stripes). */
export function emptyData(type: DataType): Data {
  if (type instanceof Utf8 || type instanceof Binary) {
    return makeData({ type, length: 0, nullCount: 0, valueOffsets: new Int32Array(1), data: new Uint8Array(0) } as Parameters<
      typeof makeData
    >[0]);
  }
  return makeData({ type, length: 0, nullCount: 0 } as Parameters<typeof makeData>[0]);
}
