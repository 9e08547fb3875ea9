// Edge rows ordered by weight, ties by row: a stable LSD radix sort over the weights' IEEE-754 bits (four 16-bit
// passes), several times faster than a comparator sort at millions of edges.

/** The rows 0 .. w.length - 1 ordered by (w[row], row); -0 sorts before +0, NaN never occurs here. */
export function sortByWeight(w: Float64Array): Int32Array {
  const m = w.length;
  const words = new Uint32Array(w.buffer, w.byteOffset, 2 * m);
  // Order-preserving unsigned keys: flip every bit of negatives, only the sign bit of the rest (little-endian words).
  const lo = new Uint32Array(m);
  const hi = new Uint32Array(m);
  for (let i = 0; i < m; i++) {
    const l = words[2 * i] as number;
    const h = words[2 * i + 1] as number;
    if (h & 0x80000000) {
      lo[i] = ~l >>> 0;
      hi[i] = ~h >>> 0;
    } else {
      lo[i] = l;
      hi[i] = (h | 0x80000000) >>> 0;
    }
  }
  let order = new Int32Array(m);
  for (let i = 0; i < m; i++) order[i] = i;
  let next = new Int32Array(m);
  const count = new Int32Array(65537);
  for (let pass = 0; pass < 4; pass++) {
    const key = pass < 2 ? lo : hi;
    const shift = pass % 2 === 0 ? 0 : 16;
    count.fill(0);
    for (let i = 0; i < m; i++) {
      const d = ((key[order[i] as number] as number) >>> shift) & 0xffff;
      count[d + 1] = (count[d + 1] as number) + 1;
    }
    for (let d = 0; d < 65536; d++) count[d + 1] = (count[d + 1] as number) + (count[d] as number);
    for (let i = 0; i < m; i++) {
      const row = order[i] as number;
      const d = ((key[row] as number) >>> shift) & 0xffff;
      const at = count[d] as number;
      next[at] = row;
      count[d] = at + 1;
    }
    const swap = order;
    order = next;
    next = swap;
  }
  return order;
}
