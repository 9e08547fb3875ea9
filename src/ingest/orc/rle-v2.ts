// Integer run-length encoding version 2: SHORT_REPEAT, DIRECT, PATCHED_BASE and DELTA sub-encodings.
import type { ByteReader } from "./streams.ts";

/** The 5-bit width codes of DIRECT, PATCHED_BASE and DELTA headers, decoded to bit widths. */
const WIDTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 26, 28, 30, 32, 40, 48, 56, 64];

function decodeWidth(code: number): number {
  return WIDTHS[code & 0x1f] as number;
}

/** The packing width ORC uses for patch-list entries of `bits` bits. */
function closestFixedBits(bits: number): number {
  if (bits === 0) return 1;
  if (bits <= 24) return bits;
  for (const w of [26, 28, 30, 32, 40, 48, 56]) if (bits <= w) return w;
  return 64;
}

/** Reads `n` big-endian bit-packed values of `width` bits as numbers (exact up to 53 bits), then realigns to a byte. */
function unpack(r: ByteReader, width: number, n: number, out: Float64Array): void {
  const bytes = Math.ceil((width * n) / 8);
  if (bytes > r.remaining) r.fail(`bit-packed run of ${n} x ${width} bits runs past the end of the stream`);
  const buf = r.buf;
  let pos = r.pos;
  if (width === 8) {
    for (let i = 0; i < n; i++) out[i] = buf[pos++] as number;
  } else if (width === 16) {
    for (let i = 0; i < n; i++, pos += 2) out[i] = ((buf[pos] as number) << 8) | (buf[pos + 1] as number);
  } else {
    let cur = 0;
    let bitsLeft = 0;
    for (let i = 0; i < n; i++) {
      let v = 0;
      let need = width;
      while (need > 0) {
        if (bitsLeft === 0) {
          cur = buf[pos++] as number;
          bitsLeft = 8;
        }
        const take = need < bitsLeft ? need : bitsLeft;
        bitsLeft -= take;
        v = v * (1 << take) + ((cur >>> bitsLeft) & ((1 << take) - 1));
        need -= take;
      }
      out[i] = v;
    }
  }
  r.pos += bytes;
}

/** Like unpack, but exact for widths up to 64 bits. */
function unpackBig(r: ByteReader, width: number, n: number, out: BigUint64Array, scratch: Float64Array): void {
  if (width <= 48) {
    unpack(r, width, n, scratch);
    for (let i = 0; i < n; i++) out[i] = BigInt(scratch[i] as number);
    return;
  }
  const bytes = Math.ceil((width * n) / 8);
  if (bytes > r.remaining) r.fail(`bit-packed run of ${n} x ${width} bits runs past the end of the stream`);
  const buf = r.buf;
  let bitPos = r.pos * 8;
  for (let i = 0; i < n; i++) {
    let v = 0n;
    for (let b = 0; b < width; b++, bitPos++) {
      v = (v << 1n) | BigInt(((buf[bitPos >>> 3] as number) >>> (7 - (bitPos & 7))) & 1);
    }
    out[i] = v;
  }
  r.pos += bytes;
}

function unzigzag(u: number): number {
  return u <= 0xffffffff ? (u >>> 1) ^ -(u & 1) : u % 2 === 0 ? u / 2 : -(u + 1) / 2;
}

function unzigzagBig(u: bigint): bigint {
  return BigInt.asIntN(64, (u >> 1n) ^ -(u & 1n));
}

/** Decodes `count` integers into `out` (numbers, or exact 64-bit values when `out` is a BigInt64Array). */
export function decodeRleV2(r: ByteReader, count: number, signed: boolean, out: Float64Array | BigInt64Array): void {
  r.checkCount(count, 128);
  const scratch = new Float64Array(512);
  if (out instanceof BigInt64Array) {
    const scratchBig = new BigUint64Array(512);
    let n = 0;
    while (n < count) n = decodeRunBig(r, n, count, signed, out, scratch, scratchBig);
  } else {
    let n = 0;
    while (n < count) n = decodeRun(r, n, count, signed, out, scratch);
  }
}

function decodeRun(r: ByteReader, n: number, count: number, signed: boolean, out: Float64Array, tmp: Float64Array): number {
  const h = r.byte();
  const encoding = h >>> 6;
  if (encoding === 0) {
    // SHORT_REPEAT: 1..8 value bytes, repeated 3..10 times.
    const width = ((h >>> 3) & 7) + 1;
    const repeat = (h & 7) + 3;
    let v = 0;
    for (let i = 0; i < width; i++) v = v * 256 + r.byte();
    if (signed) v = unzigzag(v);
    const end = Math.min(count, n + repeat);
    out.fill(v, n, end);
    return end;
  }
  const width = decodeWidth(h >>> 1);
  const length = (((h & 1) << 8) | r.byte()) + 1;
  if (encoding === 1) {
    // DIRECT: bit-packed values.
    unpack(r, width, length, tmp);
    for (let j = 0; j < length && n < count; j++) out[n++] = signed ? unzigzag(tmp[j] as number) : (tmp[j] as number);
    return n;
  }
  if (encoding === 2) {
    // PATCHED_BASE: base + narrow values, with a patch list restoring the high bits of outliers.
    const b3 = r.byte();
    const baseBytes = ((b3 >>> 5) & 7) + 1;
    const patchWidth = decodeWidth(b3);
    const b4 = r.byte();
    const gapWidth = ((b4 >>> 5) & 7) + 1;
    const patchCount = b4 & 0x1f;
    if (patchWidth + gapWidth > 64) r.fail("corrupt PATCHED_BASE run (patch + gap width over 64 bits)");
    let base = 0;
    for (let i = 0; i < baseBytes; i++) base = base * 256 + r.byte();
    const signBit = 2 ** (baseBytes * 8 - 1);
    if (base >= signBit) base = -(base - signBit);
    unpack(r, width, length, tmp);
    const patches = new Float64Array(patchCount);
    unpack(r, closestFixedBits(patchWidth + gapWidth), patchCount, patches);
    const patchScale = 2 ** patchWidth;
    const valueScale = 2 ** width;
    let at = 0;
    for (let p = 0; p < patchCount; p++) {
      const entry = patches[p] as number;
      const gap = Math.floor(entry / patchScale);
      const patch = entry - gap * patchScale;
      at += gap;
      if (gap === 255 && patch === 0) continue;
      if (at >= length) r.fail("corrupt PATCHED_BASE run (patch position out of range)");
      tmp[at] = (tmp[at] as number) + patch * valueScale;
    }
    for (let j = 0; j < length && n < count; j++) out[n++] = base + (tmp[j] as number);
    return n;
  }
  // DELTA: base, delta base, then bit-packed delta magnitudes (or a fixed delta when the width code is 0).
  const deltaWidth = (h >>> 1) & 0x1f ? width : 0;
  let v = signed ? r.svarint() : r.uvarint();
  const delta = r.svarint();
  out[n++] = v;
  if (length === 1 || n >= count) return n;
  if (deltaWidth === 0) {
    for (let j = 1; j < length && n < count; j++) {
      v += delta;
      out[n++] = v;
    }
    return n;
  }
  v += delta;
  out[n++] = v;
  const rest = length - 2;
  unpack(r, deltaWidth, rest, tmp);
  for (let j = 0; j < rest && n < count; j++) {
    v = delta < 0 ? v - (tmp[j] as number) : v + (tmp[j] as number);
    out[n++] = v;
  }
  return n;
}

function decodeRunBig(
  r: ByteReader,
  n: number,
  count: number,
  signed: boolean,
  out: BigInt64Array,
  scratch: Float64Array,
  tmp: BigUint64Array,
): number {
  const h = r.byte();
  const encoding = h >>> 6;
  if (encoding === 0) {
    const width = ((h >>> 3) & 7) + 1;
    const repeat = (h & 7) + 3;
    let u = 0n;
    for (let i = 0; i < width; i++) u = (u << 8n) | BigInt(r.byte());
    const v = signed ? unzigzagBig(u) : BigInt.asIntN(64, u);
    const end = Math.min(count, n + repeat);
    out.fill(v, n, end);
    return end;
  }
  const width = decodeWidth(h >>> 1);
  const length = (((h & 1) << 8) | r.byte()) + 1;
  if (encoding === 1) {
    unpackBig(r, width, length, tmp, scratch);
    for (let j = 0; j < length && n < count; j++) {
      const u = tmp[j] as bigint;
      out[n++] = signed ? unzigzagBig(u) : BigInt.asIntN(64, u);
    }
    return n;
  }
  if (encoding === 2) {
    const b3 = r.byte();
    const baseBytes = ((b3 >>> 5) & 7) + 1;
    const patchWidth = decodeWidth(b3);
    const b4 = r.byte();
    const gapWidth = ((b4 >>> 5) & 7) + 1;
    const patchCount = b4 & 0x1f;
    if (patchWidth + gapWidth > 64) r.fail("corrupt PATCHED_BASE run (patch + gap width over 64 bits)");
    let base = 0n;
    for (let i = 0; i < baseBytes; i++) base = (base << 8n) | BigInt(r.byte());
    const signBit = 1n << BigInt(baseBytes * 8 - 1);
    if (base >= signBit) base = -(base - signBit);
    unpackBig(r, width, length, tmp, scratch);
    const patches = new BigUint64Array(patchCount);
    unpackBig(r, closestFixedBits(patchWidth + gapWidth), patchCount, patches, scratch);
    const pw = BigInt(patchWidth);
    const mask = (1n << pw) - 1n;
    const shift = BigInt(width);
    let at = 0;
    for (let p = 0; p < patchCount; p++) {
      const entry = patches[p] as bigint;
      const gap = Number(entry >> pw);
      const patch = entry & mask;
      at += gap;
      if (gap === 255 && patch === 0n) continue;
      if (at >= length) r.fail("corrupt PATCHED_BASE run (patch position out of range)");
      tmp[at] = BigInt.asUintN(64, (tmp[at] as bigint) | (patch << shift));
    }
    for (let j = 0; j < length && n < count; j++) out[n++] = BigInt.asIntN(64, base + (tmp[j] as bigint));
    return n;
  }
  const deltaWidth = (h >>> 1) & 0x1f ? width : 0;
  let v = signed ? r.svarintBig() : BigInt.asIntN(64, r.uvarintBig());
  const delta = r.svarintBig();
  out[n++] = v;
  if (length === 1 || n >= count) return n;
  if (deltaWidth === 0) {
    for (let j = 1; j < length && n < count; j++) {
      v = BigInt.asIntN(64, v + delta);
      out[n++] = v;
    }
    return n;
  }
  v = BigInt.asIntN(64, v + delta);
  out[n++] = v;
  const rest = length - 2;
  unpackBig(r, deltaWidth, rest, tmp, scratch);
  for (let j = 0; j < rest && n < count; j++) {
    const d = tmp[j] as bigint;
    v = BigInt.asIntN(64, delta < 0n ? v - d : v + d);
    out[n++] = v;
  }
  return n;
}
