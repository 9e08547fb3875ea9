// Integer run-length encoding version 1 (runs of 3..130 with a signed byte delta, or 1..128 varint literals).
import type { ByteReader } from "./streams.ts";

/** Decodes `count` integers into `out` (numbers, or exact 64-bit values when `out` is a BigInt64Array). */
export function decodeRleV1(r: ByteReader, count: number, signed: boolean, out: Float64Array | BigInt64Array): void {
  r.checkCount(count, 65);
  let n = 0;
  if (out instanceof BigInt64Array) {
    while (n < count) {
      const control = r.byte();
      if (control < 0x80) {
        const run = control + 3;
        const delta = BigInt((r.byte() << 24) >> 24);
        let value = signed ? r.svarintBig() : BigInt.asIntN(64, r.uvarintBig());
        for (let j = 0; j < run && n < count; j++) {
          out[n++] = value;
          value = BigInt.asIntN(64, value + delta);
        }
      } else {
        const literals = 256 - control;
        for (let j = 0; j < literals && n < count; j++) out[n++] = signed ? r.svarintBig() : BigInt.asIntN(64, r.uvarintBig());
      }
    }
    return;
  }
  while (n < count) {
    const control = r.byte();
    if (control < 0x80) {
      const run = control + 3;
      const delta = (r.byte() << 24) >> 24;
      const base = signed ? r.svarint() : r.uvarint();
      for (let j = 0; j < run && n < count; j++) out[n++] = base + j * delta;
    } else {
      const literals = 256 - control;
      for (let j = 0; j < literals && n < count; j++) out[n++] = signed ? r.svarint() : r.uvarint();
    }
  }
}
