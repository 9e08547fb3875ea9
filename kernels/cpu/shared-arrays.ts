// Arrays a graph is kept in, in shared memory: the CPU backend's kernel pools (threads.ts) then hand their threads
// the same memory instead of copying every array once more per run (a copy the size of the arrays, and its time).
// Reading and writing them costs what ordinary typed arrays cost.

/** A zero-filled Int32Array of `length` in a SharedArrayBuffer. */
export function sharedInt32(length: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4 * length));
}

/** A zero-filled Float64Array of `length` in a SharedArrayBuffer. */
export function sharedFloat64(length: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(8 * length));
}
