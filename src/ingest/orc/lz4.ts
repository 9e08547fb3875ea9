// LZ4 block-format decompression (what ORC's LZ4 codec stores), bounded by the caller's maximum output size.

/** Decompresses one LZ4 block into at most maxOutput bytes; throws Error on corrupt input. */
export function lz4Decompress(input: Uint8Array, maxOutput: number, scratch?: Uint8Array): Uint8Array {
  const out = scratch && scratch.length >= maxOutput ? scratch : new Uint8Array(maxOutput);
  const end = input.length;
  let ip = 0;
  let op = 0;
  while (ip < end) {
    const token = input[ip++] as number;
    let litLen = token >>> 4;
    if (litLen === 15) {
      for (;;) {
        if (ip >= end) throw new Error("lz4: truncated literal length");
        const b = input[ip++] as number;
        litLen += b;
        if (b !== 255) break;
      }
    }
    if (ip + litLen > end) throw new Error("lz4: literal runs past the input");
    if (op + litLen > maxOutput) throw new Error(`lz4: output exceeds the block size ${maxOutput}`);
    out.set(input.subarray(ip, ip + litLen), op);
    ip += litLen;
    op += litLen;
    if (ip >= end) break; // the last sequence carries literals only
    if (ip + 2 > end) throw new Error("lz4: truncated match offset");
    const offset = (input[ip] as number) | ((input[ip + 1] as number) << 8);
    ip += 2;
    if (offset === 0 || offset > op) throw new Error("lz4: match offset out of range");
    let matchLen = token & 15;
    if (matchLen === 15) {
      for (;;) {
        if (ip >= end) throw new Error("lz4: truncated match length");
        const b = input[ip++] as number;
        matchLen += b;
        if (b !== 255) break;
      }
    }
    matchLen += 4;
    if (op + matchLen > maxOutput) throw new Error(`lz4: output exceeds the block size ${maxOutput}`);
    if (offset >= matchLen) {
      out.copyWithin(op, op - offset, op - offset + matchLen);
      op += matchLen;
    } else {
      for (let i = 0; i < matchLen; i++, op++) out[op] = out[op - offset] as number;
    }
  }
  return out.slice(0, op);
}
