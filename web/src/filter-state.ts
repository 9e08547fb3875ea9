// The active filters and what they hide: a node fails a filter on one of its columns, an edge fails one on its own
// columns or has a hidden end. Hidden rows become one paint layer of transparent color, over the collections.
import type { PaintLayer } from "./collections-paint.ts";
import type { Axis } from "./data-routes.ts";
import type { Topology } from "./graph-topology.ts";
import type { Histogram } from "./histogram.ts";

/** A numeric range (inclusive; epoch ms for times), or the text values kept. */
export type ColumnFilter =
  | { axis: Axis; column: string; kind: "range"; min: number; max: number }
  | { axis: Axis; column: string; kind: "values"; values: string[] };

export type Hidden = { nodes: Uint8Array; edges: Uint8Array; nodeCount: number; edgeCount: number };

export function passes(filter: ColumnFilter, histogram: Histogram, row: number): boolean {
  if (filter.kind === "range") {
    if (histogram.kind === "text") return true;
    const value = histogram.values[row] ?? Number.NaN;
    return !Number.isNaN(value) && value >= filter.min && value <= filter.max;
  }
  if (histogram.kind !== "text") return true;
  const value = histogram.values[row];
  return value !== null && value !== undefined && filter.values.includes(value);
}

/** Nodes (by row) and drawn links hidden by the filters; `histograms` by `${axis}/${column}`. */
export function hiddenBy(filters: readonly ColumnFilter[], histograms: Map<string, Histogram>, topology: Topology): Hidden {
  const nodes = new Uint8Array(topology.nodeCount);
  const linkCount = topology.links.length / 2;
  const edges = new Uint8Array(linkCount);
  let nodeCount = 0;
  let edgeCount = 0;
  const nodeFilters = filters.filter((filter) => filter.axis === "nodes");
  const edgeFilters = filters.filter((filter) => filter.axis === "edges");
  for (let row = 0; row < nodes.length; row++) {
    for (const filter of nodeFilters) {
      const histogram = histograms.get(`nodes/${filter.column}`);
      if (histogram && !passes(filter, histogram, row)) {
        nodes[row] = 1;
        nodeCount++;
        break;
      }
    }
  }
  const rows = topology.linkRows;
  for (let link = 0; link < linkCount; link++) {
    let hidden = (nodes[topology.links[link * 2] ?? 0] ?? 0) === 1 || (nodes[topology.links[link * 2 + 1] ?? 0] ?? 0) === 1;
    const row = rows ? (rows[link] ?? link) : link;
    for (const filter of hidden ? [] : edgeFilters) {
      const histogram = histograms.get(`edges/${filter.column}`);
      if (histogram && !passes(filter, histogram, row)) {
        hidden = true;
        break;
      }
    }
    if (hidden) {
      edges[link] = 1;
      edgeCount++;
    }
  }
  return { nodes, edges, nodeCount, edgeCount };
}

/** The hidden nodes and links as a transparent paint layer (edge rows in edge-table numbering), or undefined. */
export function hiddenLayer(hidden: Hidden, topology: Topology): PaintLayer | undefined {
  if (hidden.nodeCount === 0 && hidden.edgeCount === 0) return undefined;
  const nodeRows = new Uint32Array(hidden.nodeCount);
  let k = 0;
  for (let row = 0; row < hidden.nodes.length; row++) if (hidden.nodes[row]) nodeRows[k++] = row;
  const edgeRows = new Uint32Array(hidden.edgeCount);
  k = 0;
  const rows = topology.linkRows;
  for (let link = 0; link < hidden.edges.length; link++) if (hidden.edges[link]) edgeRows[k++] = rows ? (rows[link] ?? link) : link;
  return { id: "filters", rgba: [0, 0, 0, 0], nodeRows, edgeRows };
}

/** The bins [first, last] of a numeric histogram as a range filter's bounds. */
export function binRange(histogram: Histogram, first: number, last: number): { min: number; max: number } {
  if (histogram.kind === "text") return { min: 0, max: 0 };
  const [a, b] = first <= last ? [first, last] : [last, first];
  const bins = histogram.counts.length;
  return {
    min: histogram.min + a * histogram.width,
    max: b === bins - 1 ? histogram.max : histogram.min + (b + 1) * histogram.width - Number.EPSILON * Math.abs(histogram.max),
  };
}

/** Whether a bin starts inside the range (for shading the bars). */
export function binInRange(histogram: Histogram, bin: number, min: number, max: number): boolean {
  if (histogram.kind === "text") return false;
  const start = histogram.min + bin * histogram.width;
  const slack = histogram.width * 1e-6;
  return start + histogram.width - slack > min && start + slack <= max;
}
