// Applies the look bindings (color, size, opacity, width, weight) to per-node and per-link typed arrays.
import type { Table, Vector } from "apache-arrow";
import type { EdgeColumns, NodeColumns } from "./bindings.ts";
import { type ColorLegend, encodeColors } from "./color-encoding.ts";
import type { Topology } from "./graph-topology.ts";
import { applyOpacity, EDGE_WIDTH, LINK_STRENGTH, opacityColumn, pickRows, scaleColumn } from "./numeric-scales.ts";
import { DEFAULT_EDGE, DEFAULT_NODE, parseHex } from "./palette.ts";

export type GraphStyle = {
  node: {
    rgba: Float32Array | undefined;
    sizes: Float32Array | undefined;
    defaultSize: number;
    legend: ColorLegend | undefined;
    /** Which nodes get a standing label first: weight, else size, else degree. */
    priority: Float32Array | Uint32Array;
  };
  edge: {
    rgba: Float32Array | undefined;
    widths: Float32Array | undefined;
    strength: Float32Array | undefined;
    legend: ColorLegend | undefined;
  };
};

export type NodeStyle = GraphStyle["node"];
export type EdgeStyle = GraphStyle["edge"];

export function buildStyle(
  nodeColumns: NodeColumns,
  edgeColumns: EdgeColumns | undefined,
  nodes: Table | undefined,
  edges: Table | undefined,
  topology: Topology,
): GraphStyle {
  return { node: buildNodeStyle(nodeColumns, nodes, topology), edge: buildEdgeStyle(edgeColumns, edges, topology) };
}

export function buildNodeStyle(columns: NodeColumns, nodes: Table | undefined, topology: Topology): NodeStyle {
  const color = get(nodes, columns.color);
  const colors = color && columns.color ? encodeColors(color, columns.color) : undefined;
  const opacity = opacityOf(get(nodes, columns.opacity));
  const rgba = colors?.rgba ?? (opacity ? fill(topology.nodeCount, DEFAULT_NODE) : undefined);
  if (rgba) applyOpacity(rgba, opacity);
  const defaultSize = defaultNodeSize(topology.nodeCount);
  const sizeColumn = get(nodes, columns.size);
  const sizes = sizeColumn
    ? scaleColumn(sizeColumn, { low: defaultSize * 0.6, high: defaultSize * 3, fallback: defaultSize }, "sqrt")
    : undefined;
  const weightColumn = get(nodes, columns.weight);
  const weights = weightColumn ? scaleColumn(weightColumn, { low: 0, high: 1, fallback: 0 }) : undefined;
  return { rgba, sizes, defaultSize, legend: colors?.legend, priority: weights ?? sizes ?? topology.degree };
}

export function buildEdgeStyle(columns: EdgeColumns | undefined, edges: Table | undefined, topology: Topology): EdgeStyle {
  const color = get(edges, columns?.color);
  const colors = color && columns?.color ? encodeColors(color, columns.color) : undefined;
  const opacity = opacityOf(get(edges, columns?.opacity));
  let rgba = colors?.rgba ?? (opacity && edges ? fill(edges.numRows, DEFAULT_EDGE) : undefined);
  if (rgba) {
    applyOpacity(rgba, opacity);
    rgba = pickRows(rgba, topology.linkRows, 4);
  }
  const widthColumn = get(edges, columns?.size);
  const widths = widthColumn ? scaleColumn(widthColumn, EDGE_WIDTH) : undefined;
  const strengthColumn = get(edges, columns?.weight);
  const strength = strengthColumn ? scaleColumn(strengthColumn, LINK_STRENGTH) : undefined;
  return {
    rgba,
    widths: widths && pickRows(widths, topology.linkRows, 1),
    strength: strength && pickRows(strength, topology.linkRows, 1),
    legend: colors?.legend,
  };
}

function get(table: Table | undefined, name: string | undefined): Vector | undefined {
  return (name && table?.getChild(name)) || undefined;
}

/** Smaller dots as graphs grow, so a million nodes do not paint the canvas solid. */
export function defaultNodeSize(nodeCount: number): number {
  if (nodeCount <= 1_000) return 7;
  if (nodeCount <= 50_000) return 4;
  if (nodeCount <= 500_000) return 2.5;
  return 1.5;
}

function opacityOf(vector: Vector | undefined): Float32Array | undefined {
  return vector ? opacityColumn(vector) : undefined;
}

function fill(count: number, hex: string): Float32Array {
  const rgb = parseHex(hex) ?? [0.5, 0.5, 0.5];
  const out = new Float32Array(count * 4);
  for (let i = 0; i < count; i++) out.set([rgb[0], rgb[1], rgb[2], 1], i * 4);
  return out;
}
