// k-core numbers (kernels/cpu/core-number.ts) as the greatest fixed point of the h-index operator: starting from
// the degrees, each active node takes the largest k such that at least k of its entries hold values >= k (never
// rising), and wakes the nodes whose lists hold it when it drops. Values only fall, so updating in place converges
// to the same (unique) core numbers as peeling. `count` is scratch: node v's histogram at start[v] + v.

__kernel void core_hindex(const int n, __global const int* start, __global const int* nbr, __global const int* rstart,
                          __global const int* rnbr, volatile __global int* core, __global const int* active,
                          __global int* nextActive, __global int* count, volatile __global int* changed) {
  const int v = get_global_id(0);
  if (v >= n || !active[v]) return;
  const int c = core[v];
  if (c == 0) return;
  const int b = start[v];
  const int end = start[v + 1];
  __global int* hist = count + b + v;
  for (int k = 0; k <= c; k++) hist[k] = 0;
  for (int j = b; j < end; j++) {
    const int x = core[nbr[j]];
    hist[x < c ? x : c]++;
  }
  int acc = 0;
  int h = c;
  for (; h > 0; h--) {
    acc += hist[h];
    if (acc >= h) break;
  }
  if (h < c) {
    core[v] = h;
    *changed = 1;
    const int rend = rstart[v + 1];
    for (int j = rstart[v]; j < rend; j++) nextActive[rnbr[j]] = 1;
  }
}
