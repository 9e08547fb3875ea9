// Sets of node or edge rows of an indexed graph: a 0/1 mask over the table for membership, and the list of rows.

/** `sorted`: the list is ascending (and its mask is built only when asked for). */
export type RowSet = { readonly mask: Uint8Array; list: Int32Array; size: number; sorted?: true };

const NO_ROWS = new Uint8Array(0);

/** A list twice as long, holding the same rows first. */
function doubled(list: Int32Array): Int32Array {
  const grown = new Int32Array(list.length * 2);
  grown.set(list);
  return grown;
}

/** Collects distinct rows of a table of `capacity` rows. */
export class RowSetBuilder {
  /** Allocated on the first row: an empty set's mask is empty (every lookup misses). */
  private mask: Uint8Array = NO_ROWS;
  private list: Int32Array;
  size = 0;
  private readonly capacity: number;

  constructor(capacity: number, expected = 16) {
    this.capacity = capacity;
    this.list = new Int32Array(Math.max(16, Math.min(expected, capacity)));
  }

  add(row: number): void {
    if (this.mask === NO_ROWS) this.mask = new Uint8Array(this.capacity);
    if (this.mask[row] === 1) return;
    this.mask[row] = 1;
    if (this.size === this.list.length) this.list = doubled(this.list);
    this.list[this.size++] = row;
  }

  addAll(set: RowSet): void {
    const { list, size } = set;
    for (let i = 0; i < size; i++) this.add(list[i] as number);
  }

  done(): RowSet {
    return { mask: this.mask, list: this.list, size: this.size };
  }
}

/**
 * Collects rows that may repeat (edge rows, from tables far larger than a query's answer): sorted and made
 * distinct once, at the end, with no mask over the whole table unless one is asked for.
 */
export class RowListBuilder {
  private list: Int32Array = new Int32Array(64);
  private size = 0;

  push(row: number): void {
    if (this.size === this.list.length) this.list = doubled(this.list);
    this.list[this.size++] = row;
  }

  pushAll(set: RowSet): void {
    for (let i = 0; i < set.size; i++) this.push(set.list[i] as number);
  }

  /** The distinct rows, ascending, of a table of `capacity` rows. */
  done(capacity: number): RowSet {
    const rows = this.list.subarray(0, this.size).sort();
    let n = 0;
    for (let i = 0; i < rows.length; i++) if (n === 0 || rows[i] !== rows[n - 1]) rows[n++] = rows[i] as number;
    const list = rows.slice(0, n);
    let mask: Uint8Array | undefined;
    return {
      list,
      size: n,
      sorted: true,
      get mask() {
        if (mask === undefined) {
          mask = new Uint8Array(capacity);
          for (let i = 0; i < n; i++) mask[list[i] as number] = 1;
        }
        return mask;
      },
    };
  }
}

/** The rows in ascending order (the tables' own order): a scan of the mask for large sets, a sort for small. */
export function ascending(set: RowSet): Int32Array {
  if (set.sorted) return set.list.slice(0, set.size);
  if (set.size > set.mask.length / 32) {
    const out = new Int32Array(set.size);
    let n = 0;
    const { mask } = set;
    for (let r = 0; r < mask.length; r++) if (mask[r] === 1) out[n++] = r;
    return out;
  }
  return set.list.slice(0, set.size).sort();
}

/** Every row of a table of `capacity` rows. */
export function allRows(capacity: number): RowSet {
  const list = new Int32Array(capacity);
  for (let r = 0; r < capacity; r++) list[r] = r;
  return { mask: new Uint8Array(capacity).fill(1), list, size: capacity };
}

/** Oriented edge rows taken at one hop: edge row, the node row left from (a) and the one arrived at (b). */
export class Layer {
  readonly e: Int32Array;
  readonly a: Int32Array;
  readonly b: Int32Array;
  /** Rows in use (at most the capacity). */
  size: number;

  constructor(capacity: number) {
    this.e = new Int32Array(capacity);
    this.a = new Int32Array(capacity);
    this.b = new Int32Array(capacity);
    this.size = capacity;
  }
}
