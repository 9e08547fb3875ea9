// The paint path of filters and timebar steps in Node: the rows the filters hide (one typed-array pass per filter)
// and the painter that writes the collections and the filters' layer over the style into arrays it reuses.
import { describe, expect, it } from "vitest";
import { createPainter, paintColors } from "../../web/src/collections-paint.ts";
import { type ColumnFilter, hiddenBy, hiddenLayer } from "../../web/src/filter-state.ts";
import { buildTopology } from "../../web/src/graph-topology.ts";
import { type Histogram, numericHistogram } from "../../web/src/histogram.ts";

// Nodes 10, 30, 20, 40; edge rows: 0 10->20, 1 99->10 (not drawn: 99 is no node), 2 20->30, 3 30->40.
const topology = buildTopology(new Float64Array([10, 30, 20, 40]), new Float64Array([10, 99, 20, 30]), new Float64Array([20, 10, 30, 40]));
const text = (values: (string | null)[]): Histogram => ({ kind: "text", values, top: [], distinct: 0 });
const histograms = new Map<string, Histogram>([
  ["nodes/score", numericHistogram(new Float64Array([1, 5, Number.NaN, 9]), 1, 9, "number")],
  ["nodes/kind", text(["a", "b", "a", null])],
  ["edges/w", numericHistogram(new Float64Array([0.5, 0.1, 2, 3]), 0.1, 3, "number")],
]);
const style = {
  node: { rgba: undefined, sizes: undefined, defaultSize: 7, legend: undefined, priority: new Uint32Array(0) },
  edge: { rgba: undefined, widths: undefined, strength: undefined, legend: undefined },
};

describe("hiddenBy", () => {
  it("hides nodes outside a range (no value fails) and links with a hidden end", () => {
    const filters: ColumnFilter[] = [{ axis: "nodes", column: "score", kind: "range", min: 2, max: 9 }];
    const hidden = hiddenBy(filters, histograms, topology);
    expect([...hidden.nodes]).toEqual([1, 0, 1, 0]);
    // Links (drawn): 10->20 (row 0), 20->30 (row 2), 30->40 (row 3).
    expect([...hidden.edges]).toEqual([1, 1, 0]);
    expect([hidden.nodeCount, hidden.edgeCount]).toEqual([2, 2]);
  });

  it("keeps only ticked text values, and reads edge filters by edge-table row", () => {
    const filters: ColumnFilter[] = [
      { axis: "nodes", column: "kind", kind: "values", values: ["a", "b"] },
      { axis: "edges", column: "w", kind: "range", min: 1, max: 2.5 },
    ];
    const hidden = hiddenBy(filters, histograms, topology);
    expect([...hidden.nodes]).toEqual([0, 0, 0, 1]);
    // Row 0 (w 0.5) fails, row 2 (w 2) passes, row 3 has the hidden node 40.
    expect([...hidden.edges]).toEqual([1, 0, 1]);
    const layer = hiddenLayer(hidden, topology);
    expect([...(layer?.nodeRows ?? [])]).toEqual([3]);
    expect([...(layer?.edgeRows ?? [])]).toEqual([0, 3]);
  });

  it("ignores a filter of the wrong kind or on a column without a histogram", () => {
    const filters: ColumnFilter[] = [
      { axis: "nodes", column: "kind", kind: "range", min: 0, max: 1 },
      { axis: "nodes", column: "missing", kind: "range", min: 0, max: 1 },
    ];
    expect(hiddenBy(filters, histograms, topology).nodeCount).toBe(0);
  });
});

describe("painter", () => {
  it("paints as paintColors does, into the same arrays each time, from the base colors again", () => {
    const paint = createPainter();
    const hide = (filters: ColumnFilter[]) => {
      const layer = hiddenLayer(hiddenBy(filters, histograms, topology), topology);
      return layer ? [layer] : [];
    };
    const first = paint(style, topology, hide([{ axis: "nodes", column: "score", kind: "range", min: 2, max: 9 }]));
    expect(first).toEqual(paintColors(style, topology, hide([{ axis: "nodes", column: "score", kind: "range", min: 2, max: 9 }])));
    expect(first.node?.[3]).toBe(0);
    expect(first.edge?.[3]).toBe(0);
    const firstNode = first.node;
    // A timebar step: another window. Node 10 shows again, painted with the base color, in the same array.
    const second = paint(style, topology, hide([{ axis: "nodes", column: "score", kind: "range", min: 0, max: 5 }]));
    expect(second.node).toBe(firstNode);
    expect(second.node?.[3]).toBe(1);
    expect([second.node?.[15], second.edge?.[11]]).toEqual([0, 0]);
    expect(second).toEqual(paintColors(style, topology, hide([{ axis: "nodes", column: "score", kind: "range", min: 0, max: 5 }])));
    // No layer: the style's own colors (cosmos.gl's defaults).
    expect(paint(style, topology, [])).toEqual({ node: undefined, edge: undefined, interpolate: false });
  });
});
