// Edge rows ordered by weight, ties by row: a stable LSD radix sort over the weights' IEEE-754 bits (four 16-bit
// passes, keys read from the weights themselves), several times faster than a comparator sort at millions of edges.

/** The rows 0 .. w.length - 1 ordered by (w[row], row); -0 sorts before +0, NaN never occurs here. */
export function sortByWeight(w: Float64Array): Int32Array {
  const m = w.length;
  // Little-endian words of each weight: [2i] low, [2i + 1] high. Order-preserving unsigned keys flip every bit of a
  // negative weight and only the sign bit of the others.
  const words = new Uint32Array(w.buffer, w.byteOffset, 2 * m);
  let order = new Int32Array(m);
  for (let i = 0; i < m; i++) order[i] = i;
  let next = new Int32Array(m);
  const count = new Int32Array(65537);
  for (let pass = 0; pass < 4; pass++) {
    const word = pass >> 1; // 0: low word, 1: high word
    const shift = (pass & 1) * 16;
    count.fill(0);
    for (let i = 0; i < m; i++) {
      const row = order[i] as number;
      const h = words[2 * row + 1] as number;
      const x = word === 0 ? (words[2 * row] as number) : h;
      const key = h & 0x80000000 ? ~x : word === 1 ? x | 0x80000000 : x;
      const d = (key >>> shift) & 0xffff;
      count[d + 1] = (count[d + 1] as number) + 1;
    }
    // A digit every key shares (integer weights leave the low words zero) moves nothing: skip the pass.
    let single = false;
    for (let d = 1; d <= 65536; d++) {
      const c = count[d] as number;
      if (c === m) single = true;
      if (c !== 0) break;
    }
    if (single) continue;
    for (let d = 0; d < 65536; d++) count[d + 1] = (count[d + 1] as number) + (count[d] as number);
    for (let i = 0; i < m; i++) {
      const row = order[i] as number;
      const h = words[2 * row + 1] as number;
      const x = word === 0 ? (words[2 * row] as number) : h;
      const key = h & 0x80000000 ? ~x : word === 1 ? x | 0x80000000 : x;
      const d = (key >>> shift) & 0xffff;
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
