// A node's distinct neighbours from the topology's link array (no DOM, so Node tests can use it).
import type { Topology } from "./graph-topology.ts";

/** Distinct neighbours of a node (a self-loop excluded), in the order of the links that reach them. */
export function neighboursOf(topology: Topology, index: number): number[] {
  const links = topology.links;
  const seen = new Set<number>();
  const out: number[] = [];
  for (let k = 0; k + 1 < links.length; k += 2) {
    const s = links[k] ?? -1;
    const t = links[k + 1] ?? -1;
    const other = s === index ? t : t === index ? s : -1;
    if (other < 0 || other === index || seen.has(other)) continue;
    seen.add(other);
    out.push(other);
  }
  return out;
}
