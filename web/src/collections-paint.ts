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

/** Edge-table row -> drawn link index (-1: not drawn), per topology, made once. */
const linkByRow = new WeakMap<object, Int32Array>();

/** Edge-table rows as drawn link indices: undefined when every edge was drawn (the identity). */
function linksOfRows(topology: Pick<Topology, "links" | "linkRows">): Int32Array | undefined {
  const rows = topology.linkRows;
  if (!rows) return undefined;
  let table = linkByRow.get(rows);
  if (table) return table;
  let top = 0;
  for (let link = 0; link < rows.length; link++) top = Math.max(top, rows[link] ?? 0);
  table = new Int32Array(top + 1).fill(-1);
  for (let link = 0; link < rows.length; link++) table[rows[link] ?? 0] = link;
  linkByRow.set(rows, table);
  return table;
}

/** The colors to draw: the style's own when no layer is visible, else the style's with the layers painted over. */
export function paintColors(style: GraphStyle, topology: Topology, layers: readonly PaintLayer[]): PaintedColors {
  return createPainter()(style, topology, layers);
}

export type Painter = (style: GraphStyle, topology: Topology, layers: readonly PaintLayer[]) => PaintedColors;

/**
 * paintColors for one view: the base colors of a style (defaults filled, ends blended) are worked out once per style
 * and topology, and the painted colors are written into the same two arrays each time (a filter or timebar step
 * repaints 100k links without allocating). The arrays returned are reused by the next call.
 */
export function createPainter(): Painter {
  let baseFor: { style: GraphStyle; topology: Topology } | undefined;
  let baseNodes: Float32Array = new Float32Array(0);
  let baseLinks: Float32Array = new Float32Array(0);
  let node = new Float32Array(0);
  let edge = new Float32Array(0);
  return (style, topology, layers) => {
    const interpolate = style.edge.rgba === undefined && style.node.rgba !== undefined;
    if (layers.length === 0) return { node: style.node.rgba, edge: style.edge.rgba, interpolate };
    const nodeCount = topology.nodeCount;
    const linkCount = topology.links.length / 2;
    if (baseFor?.style !== style || baseFor.topology !== topology) {
      baseFor = { style, topology };
      baseNodes = style.node.rgba ?? filled(nodeCount, DEFAULT_NODE);
      // Links that blended their ends' colors keep that look (flat), now that painted links need colors of their own.
      baseLinks = style.edge.rgba ?? (interpolate ? blendedEnds(baseNodes, topology.links) : filled(linkCount, DEFAULT_EDGE));
      node = new Float32Array(baseNodes.length);
      edge = new Float32Array(baseLinks.length);
    }
    node.set(baseNodes);
    edge.set(baseLinks);
    const table = layers.some((layer) => layer.edgeRows?.length) ? linksOfRows(topology) : undefined;
    // Bottom first, so the collection on top is painted last and wins.
    for (let k = layers.length - 1; k >= 0; k--) {
      const layer = layers[k];
      if (!layer) continue;
      const [r, g, b, a] = layer.rgba;
      const rows = layer.nodeRows;
      for (let i = 0; i < rows.length; i++) {
        const row = rows[i] as number;
        if (row >= nodeCount) continue;
        const at = row * 4;
        node[at] = r;
        node[at + 1] = g;
        node[at + 2] = b;
        node[at + 3] = a;
      }
      const edgeRows = layer.edgeRows;
      if (!edgeRows) continue;
      for (let i = 0; i < edgeRows.length; i++) {
        const row = edgeRows[i] as number;
        const link = table ? (table[row] ?? -1) : row;
        if (link < 0 || link >= linkCount) continue;
        const at = link * 4;
        edge[at] = r;
        edge[at + 1] = g;
        edge[at + 2] = b;
        edge[at + 3] = a;
      }
    }
    return { node, edge, interpolate: false };
  };
}

function filled(count: number, hex: string): Float32Array {
  const rgb = parseHex(hex) ?? [0.5, 0.5, 0.5];
  const out = new Float32Array(count * 4);
  for (let i = 0; i < count * 4; i += 4) {
    out[i] = rgb[0];
    out[i + 1] = rgb[1];
    out[i + 2] = rgb[2];
    out[i + 3] = 1;
  }
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
