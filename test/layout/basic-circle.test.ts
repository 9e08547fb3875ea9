// igraph's circle layout (and its alias circular): positions against python-igraph's layout_circle.
import { describe, expect, it } from "vitest";
import { computeGraph } from "../../kernels/cpu/csr.ts";
import { cpuContext } from "../../src/compute/types.ts";
import { findLayout } from "../../src/layout/registry.ts";
import { answerValue, runReference } from "../helpers/graph-reference.ts";
import { allFinite, randomGraph } from "../helpers/layout-quality.ts";

const graphOf = (n: number, edges: [number, number][]) => computeGraph(n, edges, { directed: false });

describe("igraph circle", () => {
  const n = 37;
  const edges = randomGraph(n, 60, 3);
  it("matches python-igraph's layout_circle, with and without order; circular is the same layout", async () => {
    const [answers] = await runReference([{ n, edges, calls: ["g.layout_circle().coords", "g.layout_circle(order=[5, 3, 1, 0]).coords"] }]);
    const expected = answerValue<number[][]>(answers?.[0]);
    const ordered = answerValue<number[][]>(answers?.[1]);
    for (const name of ["circle", "circular"]) {
      const entry = findLayout("igraph", name);
      expect(entry?.dims).toBe(2);
      const positions = entry?.place(graphOf(n, edges), {}, cpuContext) as Float64Array;
      expect(allFinite(positions)).toBe(true);
      for (let i = 0; i < n; i++) {
        expect(positions[i * 2]).toBeCloseTo(expected[i]?.[0] as number, 12);
        expect(positions[i * 2 + 1]).toBeCloseTo(expected[i]?.[1] as number, 12);
      }
    }
    const withOrder = findLayout("igraph", "circle")?.place(
      graphOf(n, edges),
      { order: Int32Array.from([5, 3, 1, 0]) },
      cpuContext,
    ) as Float64Array;
    for (let i = 0; i < n; i++) {
      expect(withOrder[i * 2]).toBeCloseTo(ordered[i]?.[0] as number, 12);
      expect(withOrder[i * 2 + 1]).toBeCloseTo(ordered[i]?.[1] as number, 12);
    }
  });

  it("answers columns x and y through run", () => {
    const out = findLayout("igraph", "circle")?.run(graphOf(4, [[0, 1]]), {}, cpuContext, "layout");
    expect(out?.kind).toBe("nodes");
    if (out?.kind !== "nodes") return;
    expect(out.columns.map((c) => c.name)).toEqual(["x", "y"]);
    expect(Array.from(out.columns[0]?.values as Float64Array).map((v) => Math.round(v * 1e9) / 1e9 + 0)).toEqual([1, 0, -1, 0]);
  });
});
