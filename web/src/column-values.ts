// Reads Arrow columns into flat typed arrays (numbers, ids) or one string per row, without per-row objects.
import { type Data, DataType, makeVector, type Vector } from "apache-arrow";

export type NumberColumn = {
  values: Float64Array;
  /** 1 where the row has a value; undefined when every row has one. */
  valid: Uint8Array | undefined;
  min: number;
  max: number;
  /** "time" columns hold epoch milliseconds. */
  kind: "number" | "time";
};

export type Keys = Float64Array | (string | null)[];

const MS_PER_UNIT = [1000, 1, 1e-3, 1e-6];

export function isNumericType(type: DataType): boolean {
  return DataType.isInt(type) || DataType.isFloat(type) || isTimeType(type) || DataType.isDuration(type);
}

export function isTimeType(type: DataType): boolean {
  return DataType.isTimestamp(type) || DataType.isDate(type);
}

export function isTextType(type: DataType): boolean {
  return DataType.isUtf8(type) || DataType.isLargeUtf8(type) || DataType.isUtf8View(type);
}

export function readNumbers(vector: Vector): NumberColumn {
  const values = new Float64Array(vector.length);
  let valid: Uint8Array | undefined;
  let min = Number.POSITIVE_INFINITY;
  let max = Number.NEGATIVE_INFINITY;
  const time = isTimeType(vector.type);
  let row = 0;
  for (const chunk of vector.data) {
    const read = chunkReader(chunk, time);
    for (let i = 0; i < chunk.length; i++, row++) {
      const value = isNull(chunk, i) ? Number.NaN : read(i);
      if (Number.isNaN(value)) {
        valid ??= new Uint8Array(vector.length).fill(1);
        valid[row] = 0;
        values[row] = Number.NaN;
        continue;
      }
      values[row] = value;
      if (value < min) min = value;
      if (value > max) max = value;
    }
  }
  if (min > max) min = max = 0;
  return { values, valid, min, max, kind: time ? "time" : "number" };
}

/** Reads one chunk's numbers straight from its value buffer where the layout allows it. */
function chunkReader(chunk: Data, time: boolean): (i: number) => number {
  const type = chunk.type;
  const buffer = chunk.values as ArrayLike<number | bigint> | undefined;
  const flat = buffer && (DataType.isInt(type) || (DataType.isFloat(type) && type.precision !== 0) || DataType.isTimestamp(type));
  if (flat && !DataType.isDate(type)) {
    const scale = DataType.isTimestamp(type) ? (MS_PER_UNIT[type.unit] ?? 1) : 1;
    const offset = chunk.offset;
    return (i) => Number(buffer[offset + i]) * scale;
  }
  const view = genericVector(chunk);
  return (i) => {
    const value: unknown = view.get(i);
    if (value === null || value === undefined) return Number.NaN;
    return time && value instanceof Date ? value.getTime() : Number(value);
  };
}

const views = new WeakMap<Data, Vector>();

/** A one-chunk vector gives the library's own decoding for the unusual types (float16, dates, decimals). */
function genericVector(chunk: Data): Vector {
  let view = views.get(chunk);
  if (!view) {
    view = makeVector(chunk);
    views.set(chunk, view);
  }
  return view;
}

export function isNull(chunk: Data, i: number): boolean {
  if (!chunk.nullCount || !chunk.nullBitmap || chunk.nullBitmap.length === 0) return false;
  const bit = chunk.offset + i;
  return ((chunk.nullBitmap[bit >> 3] ?? 0) & (1 << (bit & 7))) === 0;
}

const latin1 = new TextDecoder("latin1");
const utf8 = new TextDecoder();

/** One string (or null) per row; text is decoded per chunk in one pass when it is plain ASCII. */
export function readStrings(vector: Vector): (string | null)[] {
  const out: (string | null)[] = new Array(vector.length);
  let row = 0;
  for (const chunk of vector.data) {
    const type = chunk.type;
    if ((DataType.isUtf8(type) || DataType.isLargeUtf8(type)) && chunk.valueOffsets && chunk.values) {
      readUtf8Chunk(chunk, out, row);
    } else if (DataType.isDictionary(type) && chunk.dictionary) {
      const words = readStrings(chunk.dictionary);
      const codes = chunk.values as ArrayLike<number | bigint>;
      for (let i = 0; i < chunk.length; i++) out[row + i] = isNull(chunk, i) ? null : (words[Number(codes[chunk.offset + i])] ?? null);
    } else {
      const view = genericVector(chunk);
      for (let i = 0; i < chunk.length; i++) {
        const value: unknown = view.get(i);
        out[row + i] = value === null || value === undefined ? null : String(value);
      }
    }
    row += chunk.length;
  }
  return out;
}

function readUtf8Chunk(chunk: Data, out: (string | null)[], row: number): void {
  const offsets = chunk.valueOffsets as ArrayLike<number | bigint>;
  const bytes = chunk.values as Uint8Array;
  const start = Number(offsets[chunk.offset] ?? 0);
  const end = Number(offsets[chunk.offset + chunk.length] ?? start);
  let ascii = true;
  for (let b = start; b < end; b++) {
    if ((bytes[b] ?? 0) >= 0x80) {
      ascii = false;
      break;
    }
  }
  const whole = ascii ? latin1.decode(bytes.subarray(start, end)) : "";
  for (let i = 0; i < chunk.length; i++) {
    if (isNull(chunk, i)) {
      out[row + i] = null;
      continue;
    }
    const a = Number(offsets[chunk.offset + i]);
    const b = Number(offsets[chunk.offset + i + 1]);
    out[row + i] = ascii ? whole.slice(a - start, b - start) : utf8.decode(bytes.subarray(a, b));
  }
}

/** Ids for matching edges to nodes: numbers when exact, text otherwise. */
export function readKeys(vector: Vector): Keys {
  if (DataType.isInt(vector.type) || DataType.isFloat(vector.type)) {
    const { values, valid, min, max } = readNumbers(vector);
    const exact = Math.abs(min) <= Number.MAX_SAFE_INTEGER && Math.abs(max) <= Number.MAX_SAFE_INTEGER;
    if (!valid && (exact || !DataType.isInt(vector.type))) return values;
  }
  return readStrings(vector);
}
