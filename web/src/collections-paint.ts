// Paints the visible collections over the base encodings: matched nodes and edges take the collection's color, and
// where collections overlap the one on top (lowest position) wins.
import type { GraphStyle } from "./graph-style.ts";
import type { Topology } from "./graph-topology.ts";
import { DEFAULT_EDGE, DEFAULT_NODE, parseHex } from "./palette.ts";

export type Rgba = readonly [number, number, number, number];

/** One visible collection: its color and the node-table and edge-table rows it matched (edges: undefined when unknown). */
export type PaintLayer = { id: string; rgba: Rgba; nodeRows: Uint32Array; edgeRows: Uint32Array | undefined };

/** What cosmos.gl is given: per-point and per-link colors (undefined: its defaults) and whether links blend their ends. */
export type PaintedColors = { node: Float32Array | undefined; edge: Float32Array | undefined; interpolate: boolean };

const HEX_RGBA = /^#([0-9a-f]{6})([0-9a-f]{2})?$/i;

/** #RRGGBB or #RRGGBBAA (also #RGB) as 0..1 RGBA. */
export function parseRgba(value: string): Rgba | undefined {
  const match = HEX_RGBA.exec(value.trim());
  if (match?.[1]) {
    const rgb = parseHex(match[1]);
    const alpha = match[2] ? Number.parseInt(match[2], 16) / 255 : 1;
    return rgb ? [rgb[0], rgb[1], rgb[2], alpha] : undefined;
  }
  const rgb = parseHex(value);
  return rgb ? [rgb[0], rgb[1], rgb[2], 1] : undefined;
}

/**
 * Edge-table rows as drawn link indices: the identity when every edge was drawn, else a lookup that leaves out rows
 * of edges not drawn (an end is not a node).
 */
export function linkOfRow(topology: Pick<Topology, "links" | "linkRows">): (row: number) => number | undefined {
  const linkCount = topology.links.length / 2;
  const rows = topology.linkRows;
  if (!rows) return (row) => (row < linkCount ? row : undefined);
  const byRow = new Map<number, number>();
  for (let link = 0; link < rows.length; link++) byRow.set(rows[link] ?? -1, link);
  return (row) => byRow.get(row);
}

/** The colors to draw: the style's own when no layer is visible, else the style's with the layers painted over. */
export function paintColors(style: GraphStyle, topology: Topology, layers: readonly PaintLayer[]): PaintedColors {
  const interpolate = style.edge.rgba === undefined && style.node.rgba !== undefined;
  if (layers.length === 0) return { node: style.node.rgba, edge: style.edge.rgba, interpolate };
  const nodeCount = topology.nodeCount;
  const linkCount = topology.links.length / 2;
  const baseNodes = style.node.rgba ?? filled(nodeCount, DEFAULT_NODE);
  // Links that blended their ends' colors keep that look (flat), now that painted links need colors of their own.
  const baseLinks = style.edge.rgba ?? (interpolate ? blendedEnds(baseNodes, topology.links) : filled(linkCount, DEFAULT_EDGE));
  const node = baseNodes.slice();
  const edge = baseLinks.slice();
  const linkOf = layers.some((layer) => layer.edgeRows?.length) ? linkOfRow(topology) : undefined;
  // Bottom first, so the collection on top is painted last and wins.
  for (let k = layers.length - 1; k >= 0; k--) {
    const layer = layers[k];
    if (!layer) continue;
    for (const row of layer.nodeRows) if (row < nodeCount) node.set(layer.rgba, row * 4);
    if (!layer.edgeRows || !linkOf) continue;
    for (const row of layer.edgeRows) {
      const link = linkOf(row);
      if (link !== undefined && link < linkCount) edge.set(layer.rgba, link * 4);
    }
  }
  return { node, edge, interpolate: false };
}

function filled(count: number, hex: string): Float32Array {
  const rgb = parseHex(hex) ?? [0.5, 0.5, 0.5];
  const out = new Float32Array(count * 4);
  for (let i = 0; i < count; i++) out.set([rgb[0], rgb[1], rgb[2], 1], i * 4);
  return out;
}

function blendedEnds(nodes: Float32Array, links: Float32Array): Float32Array {
  const out = new Float32Array(links.length * 2);
  for (let l = 0; l < links.length / 2; l++) {
    const s = (links[l * 2] ?? 0) * 4;
    const t = (links[l * 2 + 1] ?? 0) * 4;
    for (let c = 0; c < 4; c++) out[l * 4 + c] = ((nodes[s + c] ?? 0) + (nodes[t + c] ?? 0)) / 2;
  }
  return out;
}
