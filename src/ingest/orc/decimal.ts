// Decimal columns: unbounded zigzag varints (DATA) plus per-value scales (SECONDARY), rendered as exact text.
import type { ByteReader } from "./streams.ts";

/** 38 digits need 127 bits, 19 varint bytes; anything longer is corrupt. */
const MAX_VARINT_BYTES = 20;
const MAX_SCALE = 38;

/** Reads one zigzag varint: a number when it fits 49 bits, else a bigint. */
function readZigzag(r: ByteReader): number | bigint {
  const buf = r.buf;
  const start = r.pos;
  let end = start;
  for (;;) {
    if (end >= buf.length) r.fail("decimal varint runs past the end of the stream");
    if (end - start >= MAX_VARINT_BYTES) r.fail("decimal varint is too long");
    if ((buf[end++] as number) < 0x80) break;
  }
  r.pos = end;
  if (end - start <= 7) {
    let u = 0;
    let scale = 1;
    for (let i = start; i < end; i++, scale *= 128) u += ((buf[i] as number) & 0x7f) * scale;
    return u % 2 === 0 ? u / 2 : -(u + 1) / 2;
  }
  let u = 0n;
  for (let i = end - 1; i >= start; i--) u = (u << 7n) | BigInt((buf[i] as number) & 0x7f);
  return (u >> 1n) ^ -(u & 1n);
}

/**
 * Text of unscaled * 10^-scale, rescaled to `targetScale` (digits appended, or dropped with truncation toward
 * zero as the ORC C++ reader does); targetScale < 0 keeps the value's own scale (Hive 0.11 unbounded decimals).
 */
export function formatDecimal(unscaled: number | bigint, scale: number, targetScale: number): string {
  const negative = unscaled < 0;
  let digits = (negative ? -unscaled : unscaled).toString();
  let s = scale;
  if (targetScale >= 0 && targetScale !== s) {
    if (targetScale > s) digits = digits === "0" ? digits : digits + "0".repeat(targetScale - s);
    else digits = digits.length > s - targetScale ? digits.slice(0, digits.length - (s - targetScale)) : "0";
    s = targetScale;
  }
  const sign = negative && /[1-9]/.test(digits) ? "-" : "";
  if (s === 0) return sign + digits;
  const padded = digits.padStart(s + 1, "0");
  return `${sign}${padded.slice(0, padded.length - s)}.${padded.slice(padded.length - s)}`;
}

/** Decodes `count` decimals; `scales` are the SECONDARY stream's values. */
export function decodeDecimals(data: ByteReader, scales: Float64Array, count: number, precision: number, typeScale: number): string[] {
  data.checkCount(count, 1);
  const target = precision === 0 ? -1 : typeScale;
  const out = new Array<string>(count);
  for (let i = 0; i < count; i++) {
    const value = readZigzag(data);
    const scale = scales[i] as number;
    if (!(scale >= 0 && scale <= MAX_SCALE)) data.fail(`decimal scale ${scale} is out of range (0..${MAX_SCALE})`);
    out[i] = formatDecimal(value, scale, target);
  }
  return out;
}
