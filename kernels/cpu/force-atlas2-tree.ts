// The Barnes-Hut quadtree ForceAtlas2 repels through (cuGraph's BH kernels build one per iteration): bodies sorted
// by their Morton key inside the bounding square, cells emitted in depth-first preorder with a skip pointer (the
// next cell after a cell's subtree), so a traversal is a loop without a stack: open a cell -> go to c + 1, accept it
// (or finish a leaf) -> go to skip[c]. Cells with a single non-empty quadrant are not emitted (their child stands for
// them), so a tree of n bodies has fewer than 2n cells. A leaf holds one body, or every body of a cell at the
// deepest level (coincident or nearly coincident bodies), as a range of the sorted order.
// The same arrays feed the OpenCL repulsion kernel (kernels/opencl/force-atlas2.ts).

/** Levels of the tree: 16 bits of each axis in the Morton key. */
const LEVELS = 16;

export type QuadTree = {
  /** Cells in preorder (0 = root); arrays are sized for capacity, valid up to `cells`. */
  cells: number;
  /** Body indices in Morton order. */
  order: Int32Array;
  /** Leaves: sorted-order body range [start, end); internal cells: start = -1. */
  start: Int32Array;
  end: Int32Array;
  /** Preorder index after the cell's subtree. */
  skip: Int32Array;
  /** Total mass and centre of mass. */
  mass: Float64Array;
  cx: Float64Array;
  cy: Float64Array;
  /** Side of the cell's square, squared. */
  width2: Float64Array;
};

/** Reusable arrays for trees of up to `n` bodies. */
export function allocTree(n: number): QuadTree {
  const cap = Math.max(1, 2 * n);
  return {
    cells: 0,
    order: new Int32Array(n),
    start: new Int32Array(cap),
    end: new Int32Array(cap),
    skip: new Int32Array(cap),
    mass: new Float64Array(cap),
    cx: new Float64Array(cap),
    cy: new Float64Array(cap),
    width2: new Float64Array(cap),
  };
}

const scratch = {
  keys: new Uint32Array(0),
  tmpKeys: new Uint32Array(0),
  tmpOrder: new Int32Array(0),
  parent: new Int32Array(0),
  count: new Uint32Array(1 << 16),
};

function ensureScratch(n: number): void {
  if (scratch.keys.length >= n && scratch.parent.length >= 2 * n) return;
  scratch.keys = new Uint32Array(n);
  scratch.tmpKeys = new Uint32Array(n);
  scratch.tmpOrder = new Int32Array(n);
  scratch.parent = new Int32Array(Math.max(1, 2 * n));
}

/** Spreads the low 16 bits of v to the even bits. */
function spread(v: number): number {
  let x = v & 0xffff;
  x = (x | (x << 8)) & 0x00ff00ff;
  x = (x | (x << 4)) & 0x0f0f0f0f;
  x = (x | (x << 2)) & 0x33333333;
  x = (x | (x << 1)) & 0x55555555;
  return x >>> 0;
}

/** Sorts keys (with order alongside) by two 16-bit LSD radix passes. */
function radixSort(keys: Uint32Array, order: Int32Array, n: number): void {
  const { tmpKeys, tmpOrder, count } = scratch;
  let srcK: Uint32Array = keys;
  let srcO: Int32Array = order;
  let dstK: Uint32Array = tmpKeys;
  let dstO: Int32Array = tmpOrder;
  for (let shift = 0; shift < 32; shift += 16) {
    count.fill(0);
    for (let i = 0; i < n; i++) {
      const b = ((srcK[i] as number) >>> shift) & 0xffff;
      count[b] = (count[b] as number) + 1;
    }
    let sum = 0;
    for (let b = 0; b < 65536; b++) {
      const c = count[b] as number;
      count[b] = sum;
      sum += c;
    }
    for (let i = 0; i < n; i++) {
      const k = srcK[i] as number;
      const b = (k >>> shift) & 0xffff;
      const at = count[b] as number;
      count[b] = at + 1;
      dstK[at] = k;
      dstO[at] = srcO[i] as number;
    }
    [srcK, dstK] = [dstK, srcK];
    [srcO, dstO] = [dstO, srcO];
  }
  // Two passes: the result is back in keys/order.
}

/** First index in [lo, hi) whose key has `digit` or more at the level's two bits (keys sorted). */
function lowerDigit(keys: Uint32Array, lo: number, hi: number, shift: number, digit: number): number {
  let a = lo;
  let b = hi;
  while (a < b) {
    const mid = (a + b) >>> 1;
    if ((((keys[mid] as number) >>> shift) & 3) < digit) a = mid + 1;
    else b = mid;
  }
  return a;
}

/**
 * Builds the tree of n bodies at (xs[i], ys[i]) with masses mass[i] into `tree` (allocated for at least n).
 * Non-finite coordinates are not expected (the layout keeps them finite).
 */
export function buildTree(tree: QuadTree, n: number, xs: ArrayLike<number>, ys: ArrayLike<number>, mass: ArrayLike<number>): void {
  ensureScratch(n);
  tree.cells = 0;
  if (n === 0) return;
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (let i = 0; i < n; i++) {
    const x = xs[i] as number;
    const y = ys[i] as number;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  const side = Math.max(maxX - minX, maxY - minY) * (1 + 1e-9) + 1e-9;
  const scale = 65535 / side;
  const { keys, parent } = scratch;
  const order = tree.order;
  for (let i = 0; i < n; i++) {
    const qx = Math.min(65535, Math.floor(((xs[i] as number) - minX) * scale));
    const qy = Math.min(65535, Math.floor(((ys[i] as number) - minY) * scale));
    keys[i] = (spread(qx) | (spread(qy) << 1)) >>> 0;
    order[i] = i;
  }
  radixSort(keys, order, n);

  // Preorder emission with an explicit stack of (lo, hi, level, parent cell).
  const { start, end, skip, width2 } = tree;
  const stack: number[] = [0, n, 0, -1];
  let cells = 0;
  while (stack.length > 0) {
    const par = stack.pop() as number;
    let level = stack.pop() as number;
    const hi = stack.pop() as number;
    const lo = stack.pop() as number;
    // Descend through levels where every body shares one quadrant.
    while (hi - lo > 1 && level < LEVELS) {
      const shift = 30 - 2 * level;
      if ((((keys[lo] as number) >>> shift) & 3) !== (((keys[hi - 1] as number) >>> shift) & 3)) break;
      level++;
    }
    const c = cells++;
    parent[c] = par;
    const w = side / 2 ** level;
    width2[c] = w * w;
    if (hi - lo === 1 || level >= LEVELS) {
      start[c] = lo;
      end[c] = hi;
      continue;
    }
    start[c] = -1;
    end[c] = -1;
    const shift = 30 - 2 * level;
    const b1 = lowerDigit(keys, lo, hi, shift, 1);
    const b2 = lowerDigit(keys, b1, hi, shift, 2);
    const b3 = lowerDigit(keys, b2, hi, shift, 3);
    // Push in reverse so quadrant 0 is emitted first.
    const bounds = [lo, b1, b2, b3, hi];
    for (let q = 3; q >= 0; q--) {
      const a = bounds[q] as number;
      const b = bounds[q + 1] as number;
      if (b > a) stack.push(a, b, level + 1, c);
    }
  }
  tree.cells = cells;

  // Mass, centre of mass and skip pointers bottom-up (reverse preorder visits children before parents).
  const { mass: cm, cx, cy } = tree;
  for (let c = 0; c < cells; c++) {
    cm[c] = 0;
    cx[c] = 0;
    cy[c] = 0;
    skip[c] = c + 1;
  }
  for (let c = cells - 1; c >= 0; c--) {
    if ((start[c] as number) >= 0) {
      let m = 0;
      let sx = 0;
      let sy = 0;
      for (let k = start[c] as number; k < (end[c] as number); k++) {
        const i = order[k] as number;
        const mi = mass[i] as number;
        m += mi;
        sx += mi * (xs[i] as number);
        sy += mi * (ys[i] as number);
      }
      cm[c] = m;
      cx[c] = sx;
      cy[c] = sy;
    }
    const p = parent[c] as number;
    const m = cm[c] as number;
    if (p >= 0) {
      cm[p] = (cm[p] as number) + m;
      cx[p] = (cx[p] as number) + (cx[c] as number);
      cy[p] = (cy[p] as number) + (cy[c] as number);
      if ((skip[c] as number) > (skip[p] as number)) skip[p] = skip[c] as number;
    }
    if (m > 0) {
      cx[c] = (cx[c] as number) / m;
      cy[c] = (cy[c] as number) / m;
    }
  }
}
