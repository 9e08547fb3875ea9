// igraph's qsort (FreeBSD's, after Bentley and McIlroy) and igraph_vector_qsort_ind: the permutation that sorts a
// vector. Not stable: equal values come out in the order this exact algorithm leaves them, which decides igraph's
// tie-breaks (root choice of Reingold-Tilford, Sugiyama's orderings), so layouts equal igraph's on ties too.

/** igraph's comparison of two elements (by index into keys; a descending sort compares negated keys). */
function cmp(keys: Float64Array, a: number, b: number): number {
  const x = keys[a] as number;
  const y = keys[b] as number;
  return x < y ? -1 : x > y ? 1 : 0;
}

function med3(arr: Int32Array, a: number, b: number, c: number, keys: Float64Array): number {
  const x = arr[a] as number;
  const y = arr[b] as number;
  const z = arr[c] as number;
  return cmp(keys, x, y) < 0
    ? cmp(keys, y, z) < 0
      ? b
      : cmp(keys, x, z) < 0
        ? c
        : a
    : cmp(keys, y, z) > 0
      ? b
      : cmp(keys, x, z) < 0
        ? a
        : c;
}

function swap(arr: Int32Array, i: number, j: number): void {
  const t = arr[i] as number;
  arr[i] = arr[j] as number;
  arr[j] = t;
}

function vecswap(arr: Int32Array, i: number, j: number, count: number): void {
  for (let k = 0; k < count; k++) swap(arr, i + k, j + k);
}

function insertionSort(arr: Int32Array, base: number, n: number, keys: Float64Array): void {
  for (let pm = base + 1; pm < base + n; pm++) {
    for (let pl = pm; pl > base; pl--) {
      const a = arr[pl - 1] as number;
      const b = arr[pl] as number;
      if ((keys[a] as number) <= (keys[b] as number)) break;
      arr[pl - 1] = b;
      arr[pl] = a;
    }
  }
}

/** Sorts arr[base, base + n) in place with cmp, exactly as igraph_qsort does (element indices for pointers). */
function localQsort(arr: Int32Array, base0: number, n0: number, keys: Float64Array): void {
  let base = base0;
  let n = n0;
  for (;;) {
    let swapCnt = 0;
    if (n < 7) {
      insertionSort(arr, base, n, keys);
      return;
    }
    let pm = base + Math.floor(n / 2);
    if (n > 7) {
      let pl = base;
      let pn = base + n - 1;
      if (n > 40) {
        const d = Math.floor(n / 8);
        pl = med3(arr, pl, pl + d, pl + 2 * d, keys);
        pm = med3(arr, pm - d, pm, pm + d, keys);
        pn = med3(arr, pn - 2 * d, pn - d, pn, keys);
      }
      pm = med3(arr, pl, pm, pn, keys);
    }
    swap(arr, base, pm);
    let pa = base + 1;
    let pb = pa;
    let pc = base + n - 1;
    let pd = pc;
    // The pivot stays at arr[base] through the partition.
    const pivot = keys[arr[base] as number] as number;
    for (;;) {
      while (pb <= pc) {
        const k = keys[arr[pb] as number] as number;
        if (k > pivot) break;
        if (k === pivot) {
          swapCnt = 1;
          swap(arr, pa, pb);
          pa++;
        }
        pb++;
      }
      while (pb <= pc) {
        const k = keys[arr[pc] as number] as number;
        if (k < pivot) break;
        if (k === pivot) {
          swapCnt = 1;
          swap(arr, pc, pd);
          pd--;
        }
        pc--;
      }
      if (pb > pc) break;
      swap(arr, pb, pc);
      swapCnt = 1;
      pb++;
      pc--;
    }
    if (swapCnt === 0) {
      insertionSort(arr, base, n, keys);
      return;
    }
    const pn = base + n;
    let d1 = Math.min(pa - base, pb - pa);
    vecswap(arr, base, pb - d1, d1);
    d1 = Math.min(pd - pc, pn - pd - 1);
    vecswap(arr, pb, pn - d1, d1);
    d1 = pb - pa;
    const d2 = pd - pc;
    if (d1 <= d2) {
      if (d1 > 1) localQsort(arr, base, d1, keys);
      if (d2 > 1) {
        base = pn - d2;
        n = d2;
        continue;
      }
    } else {
      if (d2 > 1) localQsort(arr, pn - d2, d2, keys);
      if (d1 > 1) {
        n = d1;
        continue;
      }
    }
    return;
  }
}

/** igraph_vector_qsort_ind: indices that sort `values` ascending (or descending), ties as igraph leaves them. */
export function qsortInd(values: ArrayLike<number>, order: "ascending" | "descending" = "ascending"): Int32Array {
  const n = values.length;
  const idx = new Int32Array(n);
  for (let i = 0; i < n; i++) idx[i] = i;
  const keys = new Float64Array(n);
  for (let i = 0; i < n; i++) keys[i] = order === "ascending" ? (values[i] as number) : -(values[i] as number);
  // Strictly increasing keys: every correct sort answers the identity (ties are what igraph's order decides).
  let increasing = true;
  for (let i = 1; i < n && increasing; i++) increasing = (keys[i - 1] as number) < (keys[i] as number);
  if (n > 0 && !increasing) localQsort(idx, 0, n, keys);
  return idx;
}
