// An indexed binary min-heap of node rows ordered by a distance array (Dijkstra's queue for the weighted centralities):
// typed arrays, no allocation per node, and `decreased` to move a node up after its distance fell.

export type DistHeap = {
  readonly size: number;
  /** Queues v (not queued now) at its current distance. */
  push(v: number): void;
  /** Removes and answers the node of least distance (the heap is not empty). */
  pop(): number;
  /** v's distance fell: moves it up to its place. */
  decreased(v: number): void;
};

export function createDistHeap(dist: Float64Array): DistHeap {
  const n = dist.length;
  const heap = new Int32Array(n);
  const pos = new Int32Array(n).fill(-1);
  let size = 0;
  const up = (at: number) => {
    const v = heap[at] as number;
    const d = dist[v] as number;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      const p = heap[parent] as number;
      if ((dist[p] as number) <= d) break;
      heap[at] = p;
      pos[p] = at;
      at = parent;
    }
    heap[at] = v;
    pos[v] = at;
  };
  const down = (at: number) => {
    const v = heap[at] as number;
    const d = dist[v] as number;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= size) break;
      const right = child + 1;
      if (right < size && (dist[heap[right] as number] as number) < (dist[heap[child] as number] as number)) child = right;
      const c = heap[child] as number;
      if ((dist[c] as number) >= d) break;
      heap[at] = c;
      pos[c] = at;
      at = child;
    }
    heap[at] = v;
    pos[v] = at;
  };
  return {
    get size() {
      return size;
    },
    push(v) {
      heap[size] = v;
      size++;
      up(size - 1);
    },
    pop() {
      const v = heap[0] as number;
      size--;
      pos[v] = -1;
      if (size > 0) {
        heap[0] = heap[size] as number;
        down(0);
      }
      return v;
    },
    decreased(v) {
      up(pos[v] as number);
    },
  };
}
