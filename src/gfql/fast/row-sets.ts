// Sets of node or edge rows of an indexed graph: a 0/1 mask over the table for membership, and the list of rows.
import { sortRows } from "./sort-rows.ts";

/** `sorted`: the list is ascending; `lazyMask`: in no order, and the mask is built only when asked for. */
export type RowSet = { readonly mask: Uint8Array; list: Int32Array; size: number; sorted?: true; lazyMask?: true };

const NO_ROWS = new Uint8Array(0);

/**
 * Scratch memory for one query's sets and layers: views into buffers kept from query to query, so that a query
 * does not allocate (and the collector free) a dozen arrays the size of the node table. `reset` at the start of
 * each query hands the same memory out again; nothing taken from it may be read after the next reset.
 */
class Scratch {
  private ints = new Int32Array(1 << 16);
  private intsUsed = 0;
  private bytes = new Uint8Array(1 << 18);
  private bytesUsed = 0;
  /** Counts resets, so that a reader can tell its rows were handed out again. */
  epoch = 0;

  reset(): void {
    // a buffer grown for one very large query is not kept for every later one
    if (this.ints.length > 1 << 24) this.ints = new Int32Array(1 << 16);
    if (this.bytes.length > 1 << 26) this.bytes = new Uint8Array(1 << 18);
    this.intsUsed = 0;
    this.bytesUsed = 0;
    this.epoch++;
  }

  /** n ints, not cleared (every user writes before it reads). */
  int32(n: number): Int32Array {
    if (this.intsUsed + n > this.ints.length) {
      // earlier views keep the old buffer alive; the new one serves from here on
      this.ints = new Int32Array(Math.max(this.ints.length * 2, n));
      this.intsUsed = 0;
    }
    const view = this.ints.subarray(this.intsUsed, this.intsUsed + n);
    this.intsUsed += n;
    return view;
  }

  /** n bytes, all 0. */
  uint8(n: number): Uint8Array {
    if (this.bytesUsed + n > this.bytes.length) {
      this.bytes = new Uint8Array(Math.max(this.bytes.length * 2, n));
      this.bytesUsed = 0;
    }
    const view = this.bytes.subarray(this.bytesUsed, this.bytesUsed + n);
    this.bytesUsed += n;
    return view.fill(0);
  }
}

export const scratch = new Scratch();

/** A list twice as long, holding the same rows first. */
function doubled(list: Int32Array): Int32Array {
  const grown = scratch.int32(list.length * 2);
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
    this.list = scratch.int32(Math.max(16, Math.min(expected, capacity)));
  }

  add(row: number): void {
    if (this.mask === NO_ROWS) this.mask = scratch.uint8(this.capacity);
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
 * Collects edge rows (from tables far larger than a query's answer) without a mask over the whole table: rows
 * that may repeat are sorted and made distinct once, at the end; rows known distinct are left as they came.
 */
export class RowListBuilder {
  private list: Int32Array;
  size = 0;
  /** Whether every row pushed so far is distinct; cleared by whoever pushes rows that may repeat. */
  distinct = true;

  constructor(expected = 64) {
    this.list = scratch.int32(Math.max(16, expected));
  }

  push(row: number): void {
    if (this.size === this.list.length) this.list = doubled(this.list);
    this.list[this.size++] = row;
  }

  /** Rows it holds room for before it grows. */
  get capacity(): number {
    return this.list.length;
  }

  /** Appends another builder's rows (distinct from these only if the caller knows so). */
  pushFrom(other: RowListBuilder): void {
    if (this.size + other.size > this.list.length) {
      const grown = scratch.int32(Math.max(this.list.length * 2, this.size + other.size));
      grown.set(this.list.subarray(0, this.size));
      this.list = grown;
    }
    this.list.set(other.list.subarray(0, other.size), this.size);
    this.size += other.size;
  }

  /** The distinct rows of a table of `capacity` rows (its mask built only when asked for). */
  done(capacity: number): RowSet {
    let list = this.list.subarray(0, this.size);
    if (!this.distinct) {
      sortRows(list);
      let n = 0;
      for (let i = 0; i < list.length; i++) if (n === 0 || list[i] !== list[n - 1]) list[n++] = list[i] as number;
      list = list.subarray(0, n);
    }
    let mask: Uint8Array | undefined;
    const rows = list;
    return {
      list: rows,
      size: rows.length,
      ...(this.distinct ? { lazyMask: true as const } : { sorted: true as const }),
      get mask() {
        if (mask === undefined) {
          mask = scratch.uint8(capacity);
          for (let i = 0; i < rows.length; i++) mask[rows[i] as number] = 1;
        }
        return mask;
      },
    };
  }
}

/**
 * The rows in ascending order (the tables' own order): a scan of the mask for sets of more than a quarter of the
 * table, a sort for smaller ones (sortRows' radix passes read each row a few times, the scan every byte of the mask).
 */
export function ascending(set: RowSet): Int32Array {
  if (set.sorted) return set.list.slice(0, set.size);
  if (set.lazyMask) return sortRows(set.list.slice(0, set.size));
  if (set.size > set.mask.length / 4) {
    const out = new Int32Array(set.size);
    let n = 0;
    const { mask } = set;
    for (let r = 0; r < mask.length; r++) if (mask[r] === 1) out[n++] = r;
    return out;
  }
  return sortRows(set.list.slice(0, set.size));
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
    this.e = scratch.int32(capacity);
    this.a = scratch.int32(capacity);
    this.b = scratch.int32(capacity);
    this.size = capacity;
  }
}
