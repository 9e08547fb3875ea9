// Decodes one stripe's streams for a column subtree into Decoded chunks (nulls, primitives, strings, nested).
import { decodeBooleanRle, decodeByteRle } from "./byte-rle.ts";
import { decodeDecimals } from "./decimal.ts";
import type { Decoded, NumericValues } from "./decoded.ts";
import { orcError } from "./errors.ts";
import { decodeBigInts, decodeLengths, decodeNumbers, isDictionary } from "./integers.ts";
import { type ByteReader, S, type StripeStreams } from "./streams.ts";
import { ORC_EPOCH_UTC, writerEpoch } from "./timezone.ts";
import { K, type OrcType } from "./types.ts";

/** Arrow offsets are 32-bit: no chunk may hold more bytes or child values than this. */
const MAX_OFFSET = 0x7fffffff;

export type StripeContext = { streams: StripeStreams; writerTimezone: string | undefined };

function popcount(valid: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < valid.length; i++) n += valid[i] as number;
  return n;
}

/**
 * Which of `count` rows are present: the column's PRESENT stream, read only at rows where the parent is present
 * (struct children carry no entry for a null struct), combined with the parent's mask.
 */
function readValid(
  ctx: StripeContext,
  t: OrcType,
  count: number,
  parentValid: Uint8Array | null,
): { valid: Uint8Array | null; nonNull: number } {
  const r = ctx.streams.get(t.id, S.PRESENT, t.path);
  if (r === null) return { valid: parentValid, nonNull: parentValid === null ? count : popcount(parentValid) };
  let valid: Uint8Array;
  if (parentValid === null) {
    valid = decodeBooleanRle(r, count);
  } else {
    const bits = decodeBooleanRle(r, popcount(parentValid));
    valid = new Uint8Array(count);
    for (let i = 0, k = 0; i < count; i++) if (parentValid[i] === 1) valid[i] = bits[k++] as number;
  }
  const nonNull = popcount(valid);
  return { valid: nonNull === count ? null : valid, nonNull };
}

/** Places dense (non-null only) values at the present rows of `out`; null rows stay 0. */
function expand(dense: ArrayLike<number>, valid: Uint8Array | null, out: Exclude<NumericValues, BigInt64Array>): void {
  if (valid === null) {
    for (let i = 0; i < out.length; i++) out[i] = dense[i] as number;
    return;
  }
  for (let i = 0, k = 0; i < out.length; i++) if (valid[i] === 1) out[i] = dense[k++] as number;
}

function expandBig(dense: BigInt64Array, valid: Uint8Array | null, count: number): BigInt64Array {
  if (valid === null) return dense;
  const out = new BigInt64Array(count);
  for (let i = 0, k = 0; i < count; i++) if (valid[i] === 1) out[i] = dense[k++] as bigint;
  return out;
}

const littleEndian = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

function readFloats(r: ByteReader, n: number, width: 4 | 8): Float32Array | Float64Array {
  const bytes = r.take(n * width);
  if (littleEndian) {
    const copy = new Uint8Array(bytes.length); // aligned copy (never Buffer#slice, which shares memory)
    copy.set(bytes);
    return width === 4 ? new Float32Array(copy.buffer, 0, n) : new Float64Array(copy.buffer, 0, n);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const out = width === 4 ? new Float32Array(n) : new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = width === 4 ? view.getFloat32(i * 4, true) : view.getFloat64(i * 8, true);
  return out;
}

/** Arrow-style offsets for `count` rows from the lengths of the present ones. */
function offsetsFrom(lengths: ArrayLike<number>, valid: Uint8Array | null, count: number, what: string, t: OrcType): Int32Array {
  const offsets = new Int32Array(count + 1);
  let total = 0;
  for (let i = 0, k = 0; i < count; i++) {
    if (valid === null || valid[i] === 1) total += lengths[k++] as number;
    if (total > MAX_OFFSET) throw orcError(`column ${JSON.stringify(t.path)}: ${what} exceed 2^31 in one stripe`, { column: t.path });
    offsets[i + 1] = total;
  }
  return offsets;
}

function decodeBytes(ctx: StripeContext, t: OrcType, count: number, valid: Uint8Array | null, nonNull: number): Decoded {
  const enc = ctx.streams.encoding(t.id);
  if (!isDictionary(enc.kind)) {
    const lengths = decodeLengths(ctx.streams.require(t.id, S.LENGTH, t.path), nonNull, enc.kind, MAX_OFFSET, "value length");
    const offsets = offsetsFrom(lengths, valid, count, "value bytes", t);
    const data = ctx.streams.require(t.id, S.DATA, t.path).take(offsets[count] as number);
    return { shape: "bytes", type: t, length: count, valid, offsets, data };
  }
  const dictSize = enc.dictionarySize;
  const lengthReader = ctx.streams.require(t.id, S.LENGTH, t.path);
  const dictLengths = decodeLengths(lengthReader, dictSize, enc.kind, MAX_OFFSET, "dictionary entry length");
  const dictOffsets = offsetsFrom(dictLengths, null, dictSize, "dictionary bytes", t);
  const blob = ctx.streams.require(t.id, S.DICTIONARY_DATA, t.path).take(dictOffsets[dictSize] as number);
  const ids = decodeLengths(ctx.streams.require(t.id, S.DATA, t.path), nonNull, enc.kind, dictSize, "dictionary id");
  const offsets = new Int32Array(count + 1);
  let total = 0;
  for (let i = 0, k = 0; i < count; i++) {
    if (valid === null || valid[i] === 1) {
      const id = ids[k++] as number;
      total += (dictOffsets[id + 1] as number) - (dictOffsets[id] as number);
      if (total > MAX_OFFSET) throw orcError(`column ${JSON.stringify(t.path)}: value bytes exceed 2^31 in one stripe`, { column: t.path });
    }
    offsets[i + 1] = total;
  }
  const data = new Uint8Array(total);
  for (let i = 0, k = 0; i < count; i++) {
    if (valid !== null && valid[i] === 0) continue;
    const id = ids[k++] as number;
    let from = dictOffsets[id] as number;
    const to = dictOffsets[id + 1] as number;
    let at = offsets[i] as number;
    if (to - from > 32) {
      data.set(blob.subarray(from, to), at);
    } else {
      while (from < to) data[at++] = blob[from++] as number;
    }
  }
  return { shape: "bytes", type: t, length: count, valid, offsets, data };
}

function decodeTimestamps(ctx: StripeContext, t: OrcType, count: number, valid: Uint8Array | null, nonNull: number): Decoded {
  const enc = ctx.streams.encoding(t.id);
  const secondsReader = ctx.streams.require(t.id, S.DATA, t.path);
  const seconds = decodeNumbers(secondsReader, nonNull, true, enc.kind);
  const nanosReader = ctx.streams.require(t.id, S.SECONDARY, t.path);
  const encodedNanos = decodeNumbers(nanosReader, nonNull, false, enc.kind);
  // Plain timestamps count from 2015-01-01 in the writer's zone; "with local time zone" ones from 2015-01-01 UTC.
  const epoch = t.kind === K.TIMESTAMP_INSTANT ? ORC_EPOCH_UTC : writerEpoch(ctx.writerTimezone);
  const dense = new BigInt64Array(nonNull);
  for (let i = 0; i < nonNull; i++) {
    const e = encodedNanos[i] as number;
    // The low 3 bits say how many decimal zeros were stripped from the nanoseconds (0 = none, z = z + 1 zeros).
    const zeros = e % 8;
    let nanos = Math.floor(e / 8);
    if (zeros !== 0) nanos *= 10 ** (zeros + 1);
    if (nanos > 999_999_999) nanosReader.fail(`nanoseconds value ${nanos} is out of range`);
    let secs = (seconds[i] as number) + epoch;
    if (!Number.isSafeInteger(secs)) secondsReader.fail(`timestamp seconds value ${secs} is out of range`);
    // Writers truncated negative millisecond times toward zero; the reference readers undo that like this.
    if (secs < 0 && nanos > 999_999) secs -= 1;
    dense[i] = BigInt(secs) * 1_000_000_000n + BigInt(nanos);
  }
  return { shape: "values", type: t, length: count, valid, values: expandBig(dense, valid, count) };
}

function decodeDecimalColumn(ctx: StripeContext, t: OrcType, count: number, valid: Uint8Array | null, nonNull: number): Decoded {
  const enc = ctx.streams.encoding(t.id);
  const scales = decodeNumbers(ctx.streams.require(t.id, S.SECONDARY, t.path), nonNull, true, enc.kind);
  const texts = decodeDecimals(ctx.streams.require(t.id, S.DATA, t.path), scales, nonNull, t.precision, t.scale);
  let total = 0;
  for (const s of texts) total += s.length;
  if (total > MAX_OFFSET) throw orcError(`column ${JSON.stringify(t.path)}: decimal text exceeds 2^31 bytes`, { column: t.path });
  const data = new Uint8Array(total);
  const offsets = new Int32Array(count + 1);
  let at = 0;
  for (let i = 0, k = 0; i < count; i++) {
    if (valid === null || valid[i] === 1) {
      const s = texts[k++] as string;
      for (let c = 0; c < s.length; c++) data[at++] = s.charCodeAt(c); // ASCII digits, sign and point
    }
    offsets[i + 1] = at;
  }
  return { shape: "bytes", type: t, length: count, valid, offsets, data };
}

function decodeUnion(ctx: StripeContext, t: OrcType, count: number, valid: Uint8Array | null, nonNull: number, depth: number): Decoded {
  const r = ctx.streams.require(t.id, S.DATA, t.path);
  const dense = decodeByteRle(r, nonNull);
  const counts = new Array<number>(t.children.length).fill(0);
  const tags = new Uint8Array(count);
  const indexes = new Int32Array(count);
  for (let i = 0, k = 0; i < count; i++) {
    if (valid !== null && valid[i] === 0) continue;
    const tag = dense[k++] as number;
    if (tag >= t.children.length) r.fail(`union tag ${tag} is out of range (${t.children.length} branches)`);
    tags[i] = tag;
    indexes[i] = counts[tag] as number;
    counts[tag] = (counts[tag] as number) + 1;
  }
  const children = t.children.map((c, i) => decodeColumn(ctx, c, counts[i] as number, null, depth + 1));
  return { shape: "union", type: t, length: count, valid, tags, indexes, children };
}

/** Decodes `count` rows of column `t` (and its subtree) from the stripe. */
export function decodeColumn(ctx: StripeContext, t: OrcType, count: number, parentValid: Uint8Array | null, depth = 0): Decoded {
  const { valid, nonNull } = readValid(ctx, t, count, parentValid);
  const enc = () => ctx.streams.encoding(t.id).kind;
  const data = () => ctx.streams.require(t.id, S.DATA, t.path);
  switch (t.kind) {
    case K.BOOLEAN: {
      const out = new Uint8Array(count);
      expand(decodeBooleanRle(data(), nonNull), valid, out);
      return { shape: "values", type: t, length: count, valid, values: out };
    }
    case K.BYTE: {
      const bytes = decodeByteRle(data(), nonNull);
      const out = new Int8Array(count);
      expand(new Int8Array(bytes.buffer, bytes.byteOffset, bytes.length), valid, out);
      return { shape: "values", type: t, length: count, valid, values: out };
    }
    case K.SHORT:
    case K.INT:
    case K.DATE: {
      const dense = decodeNumbers(data(), nonNull, true, enc());
      const out = t.kind === K.SHORT ? new Int16Array(count) : new Int32Array(count);
      expand(dense, valid, out);
      return { shape: "values", type: t, length: count, valid, values: out };
    }
    case K.LONG:
      return {
        shape: "values",
        type: t,
        length: count,
        valid,
        values: expandBig(decodeBigInts(data(), nonNull, true, enc()), valid, count),
      };
    case K.FLOAT:
    case K.DOUBLE: {
      const dense = readFloats(data(), nonNull, t.kind === K.FLOAT ? 4 : 8);
      if (valid === null) return { shape: "values", type: t, length: count, valid, values: dense };
      const out = t.kind === K.FLOAT ? new Float32Array(count) : new Float64Array(count);
      expand(dense, valid, out);
      return { shape: "values", type: t, length: count, valid, values: out };
    }
    case K.STRING:
    case K.VARCHAR:
    case K.CHAR:
    case K.BINARY:
      return decodeBytes(ctx, t, count, valid, nonNull);
    case K.TIMESTAMP:
    case K.TIMESTAMP_INSTANT:
      return decodeTimestamps(ctx, t, count, valid, nonNull);
    case K.DECIMAL:
      return decodeDecimalColumn(ctx, t, count, valid, nonNull);
    case K.STRUCT:
      return {
        shape: "struct",
        type: t,
        length: count,
        valid,
        children: t.children.map((c) => decodeColumn(ctx, c, count, valid, depth + 1)),
      };
    case K.LIST:
    case K.MAP: {
      const lengths = decodeLengths(ctx.streams.require(t.id, S.LENGTH, t.path), nonNull, enc(), MAX_OFFSET, "element count");
      const offsets = offsetsFrom(lengths, valid, count, "child values", t);
      const total = offsets[count] as number;
      const children = t.children.map((c) => decodeColumn(ctx, c, total, null, depth + 1));
      return { shape: "list", type: t, length: count, valid, offsets, children };
    }
    case K.UNION:
      return decodeUnion(ctx, t, count, valid, nonNull, depth);
    default:
      throw orcError(`column ${JSON.stringify(t.path)} has unsupported type kind ${t.kind}`, { column: t.path });
  }
}
