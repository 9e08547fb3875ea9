// The in-memory form of one decoded column chunk (a stripe's worth of values), before it becomes Arrow data.
import type { OrcType } from "./types.ts";

export type NumericValues = Uint8Array | Int8Array | Int16Array | Int32Array | BigInt64Array | Float32Array | Float64Array;

type Base = {
  type: OrcType;
  length: number;
  /** 1 where the value is present, 0 where null; null when every value is present. */
  valid: Uint8Array | null;
};

/**
 * Shapes: "values" (boolean as 0/1 bytes, integers, floats, dates as days, timestamps as epoch nanoseconds),
 * "bytes" (strings, binary, and decimals as their exact text), and the nested shapes, whose children are
 * decoded the same way. For list and map, `offsets` (length + 1 entries) index the children.
 */
export type Decoded =
  | (Base & { shape: "values"; values: NumericValues })
  | (Base & { shape: "bytes"; offsets: Int32Array; data: Uint8Array })
  | (Base & { shape: "struct"; children: Decoded[] })
  | (Base & { shape: "list"; offsets: Int32Array; children: Decoded[] })
  | (Base & { shape: "union"; tags: Uint8Array; indexes: Int32Array; children: Decoded[] });

export function isNull(col: Decoded, i: number): boolean {
  return col.valid !== null && col.valid[i] === 0;
}
