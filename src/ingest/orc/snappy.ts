// Raw Snappy block decompression (no framing), bounded by the caller's maximum output size.

/** Decompresses one raw Snappy block; throws Error on corrupt input or output larger than maxOutput. */
export function snappyDecompress(input: Uint8Array, maxOutput: number): Uint8Array {
  let ip = 0;
  // Preamble: the uncompressed length as a varint.
  let outLen = 0;
  let scale = 1;
  for (let i = 0; ; i++) {
    if (i >= 5 || ip >= input.length) throw new Error("snappy: bad length preamble");
    const b = input[ip++] as number;
    outLen += (b & 0x7f) * scale;
    if (b < 0x80) break;
    scale *= 128;
  }
  if (outLen > maxOutput) throw new Error(`snappy: declared length ${outLen} exceeds the block size ${maxOutput}`);
  const out = new Uint8Array(outLen);
  let op = 0;
  const end = input.length;
  while (ip < end) {
    const tag = input[ip++] as number;
    const type = tag & 3;
    if (type === 0) {
      let len = tag >>> 2;
      if (len >= 60) {
        const extra = len - 59;
        if (ip + extra > end) throw new Error("snappy: truncated literal length");
        len = 0;
        for (let i = 0; i < extra; i++) len += (input[ip + i] as number) * 2 ** (8 * i);
        ip += extra;
      }
      len += 1;
      if (ip + len > end) throw new Error("snappy: literal runs past the input");
      if (op + len > outLen) throw new Error("snappy: literal runs past the declared length");
      out.set(input.subarray(ip, ip + len), op);
      ip += len;
      op += len;
      continue;
    }
    let len: number;
    let offset: number;
    if (type === 1) {
      if (ip + 1 > end) throw new Error("snappy: truncated copy");
      len = ((tag >>> 2) & 7) + 4;
      offset = ((tag >>> 5) << 8) | (input[ip] as number);
      ip += 1;
    } else if (type === 2) {
      if (ip + 2 > end) throw new Error("snappy: truncated copy");
      len = (tag >>> 2) + 1;
      offset = (input[ip] as number) | ((input[ip + 1] as number) << 8);
      ip += 2;
    } else {
      if (ip + 4 > end) throw new Error("snappy: truncated copy");
      len = (tag >>> 2) + 1;
      offset =
        (input[ip] as number) + (input[ip + 1] as number) * 256 + (input[ip + 2] as number) * 65536 + (input[ip + 3] as number) * 16777216;
      ip += 4;
    }
    if (offset === 0 || offset > op) throw new Error("snappy: copy offset out of range");
    if (op + len > outLen) throw new Error("snappy: copy runs past the declared length");
    if (offset >= len) {
      out.copyWithin(op, op - offset, op - offset + len);
      op += len;
    } else {
      for (let i = 0; i < len; i++, op++) out[op] = out[op - offset] as number;
    }
  }
  if (op !== outLen) throw new Error(`snappy: produced ${op} bytes, expected ${outLen}`);
  return out;
}
