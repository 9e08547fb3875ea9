// The CSR's undirected view: every edge listed at both ends (a node's out-edges, then its in-edges), its edge rows
// built on first read only and kept with the view.
import { describe, expect, it } from "vitest";
import { undirected } from "../../kernels/cpu/csr.ts";
import { skewedGraph } from "./graphs.ts";

describe("undirected view", () => {
  const csr = skewedGraph(81, 500, 4000);

  it("lists each node's out-edges then its in-edges, with each entry's edge row", () => {
    const view = undirected(csr);
    for (let r = 0; r < csr.n; r++) {
      const want: [number, number][] = [];
      for (let j = csr.outStart[r] as number; j < (csr.outStart[r + 1] as number); j++)
        want.push([csr.outDst[j] as number, csr.outEdges[j] as number]);
      for (let j = csr.inStart[r] as number; j < (csr.inStart[r + 1] as number); j++)
        want.push([csr.inSrc[j] as number, csr.inEdges[j] as number]);
      const got: [number, number][] = [];
      for (let k = view.start[r] as number; k < (view.start[r + 1] as number); k++)
        got.push([view.nbr[k] as number, view.edge[k] as number]);
      expect(got).toEqual(want);
    }
  });

  it("is kept per CSR, and its edge rows are built once, when first read", () => {
    const other = skewedGraph(82, 300, 2000);
    const view = undirected(other);
    expect(undirected(other)).toBe(view);
    expect(Object.getOwnPropertyDescriptor(view, "edge")?.get).toBeTypeOf("function");
    const edge = view.edge;
    expect(edge.length).toBe(2 * other.m);
    expect(view.edge).toBe(edge);
    // Once built, a plain data property: loops reading view.edge[j] call no accessor.
    expect(Object.getOwnPropertyDescriptor(view, "edge")?.value).toBe(edge);
  });
});

describe("shared memory", () => {
  it("the CSR, its undirected view and the GFQL adjacency index live in shared memory (kernel pools copy none of them)", async () => {
    const csr = skewedGraph(83, 200, 1000);
    const view = undirected(csr);
    for (const array of [csr.outStart, csr.outEdges, csr.outDst, csr.inStart, csr.inEdges, csr.inSrc, view.start, view.nbr, view.edge])
      expect(array.buffer).toBeInstanceOf(SharedArrayBuffer);
    const pl = (await import("nodejs-polars")).default;
    const { graphIndex } = await import("../../src/gfql/fast/graph-index.ts");
    const nodes = pl.DataFrame({ id: [1, 2, 3] });
    const edges = pl.DataFrame({ s: [1, 2, 3], d: [2, 3, 1] });
    const index = graphIndex({ nodes, nodeId: "id", source: "s", destination: "d" }, edges, true);
    expect(index).not.toBeNull();
    for (const array of [index?.outStart, index?.outEdges, index?.outDst, index?.inStart, index?.inEdges, index?.inSrc])
      expect(array?.buffer).toBeInstanceOf(SharedArrayBuffer);
  });
});
