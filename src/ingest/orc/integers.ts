// Picks integer RLE v1 or v2 from a column's encoding and decodes a run of integers as numbers or bigints.
import { decodeRleV1 } from "./rle-v1.ts";
import { decodeRleV2 } from "./rle-v2.ts";
import type { ByteReader } from "./streams.ts";

/** ColumnEncoding.Kind: DIRECT = 0, DICTIONARY = 1 use RLE v1; DIRECT_V2 = 2, DICTIONARY_V2 = 3 use RLE v2. */
export function isRleV2(encodingKind: number): boolean {
  return encodingKind === 2 || encodingKind === 3;
}

export function isDictionary(encodingKind: number): boolean {
  return encodingKind === 1 || encodingKind === 3;
}

/** `count` integers as numbers (exact below 2^53: every type except bigint). */
export function decodeNumbers(r: ByteReader, count: number, signed: boolean, encodingKind: number): Float64Array {
  r.checkCount(count, 128);
  const out = new Float64Array(count);
  if (isRleV2(encodingKind)) decodeRleV2(r, count, signed, out);
  else decodeRleV1(r, count, signed, out);
  return out;
}

/** `count` integers as exact signed 64-bit values. */
export function decodeBigInts(r: ByteReader, count: number, signed: boolean, encodingKind: number): BigInt64Array {
  r.checkCount(count, 128);
  const out = new BigInt64Array(count);
  if (isRleV2(encodingKind)) decodeRleV2(r, count, signed, out);
  else decodeRleV1(r, count, signed, out);
  return out;
}

/** Non-negative lengths or dictionary ids, checked to be below `limit`. */
export function decodeLengths(r: ByteReader, count: number, encodingKind: number, limit: number, what: string): Float64Array {
  const out = decodeNumbers(r, count, false, encodingKind);
  for (let i = 0; i < count; i++) {
    const v = out[i] as number;
    if (!(v >= 0 && v < limit)) r.fail(`${what} ${v} is out of range (limit ${limit})`);
  }
  return out;
}
