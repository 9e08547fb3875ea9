// Byte run-length decoding, and boolean RLE (bits packed MSB-first into bytes, then byte RLE) used by PRESENT streams.
import type { ByteReader } from "./streams.ts";

/** Decodes `count` bytes of byte RLE (runs of 3..130 equal bytes, or 1..128 literal bytes). */
export function decodeByteRle(r: ByteReader, count: number, out: Uint8Array = new Uint8Array(count)): Uint8Array {
  r.checkCount(count, 65);
  let n = 0;
  const buf = r.buf;
  while (n < count) {
    const control = r.byte();
    if (control < 0x80) {
      const run = Math.min(control + 3, count - n);
      const value = r.byte();
      out.fill(value, n, n + run);
      n += run;
    } else {
      const literals = 256 - control;
      const take = Math.min(literals, count - n);
      if (r.pos + take > buf.length) r.fail("byte RLE literals run past the end of the stream");
      out.set(buf.subarray(r.pos, r.pos + take), n);
      r.pos += literals <= buf.length - r.pos ? literals : take;
      n += take;
    }
  }
  return out;
}

/** Decodes `count` booleans as 0/1 bytes. */
export function decodeBooleanRle(r: ByteReader, count: number): Uint8Array {
  const packed = decodeByteRle(r, Math.ceil(count / 8));
  const out = new Uint8Array(count);
  for (let i = 0; i < count; i++) out[i] = ((packed[i >>> 3] as number) >>> (7 - (i & 7))) & 1;
  return out;
}
