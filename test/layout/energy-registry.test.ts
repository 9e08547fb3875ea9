// The energy layouts as the service runs them: every name (aliases included) is in the layout schema, parses with
// python-igraph's defaults filled, and answers finite columns x, y (z for the 3D forms) through `run`, on directed
// and undirected graphs alike (igraph ignores edge directions in these layouts).
import { describe, expect, it } from "vitest";
import { computeGraph } from "../../kernels/cpu/csr.ts";
import { ComputeCancelled, type ComputeContext, cpuContext, type Progress } from "../../src/compute/types.ts";
import { parseLayout } from "../../src/layout/parse.ts";
import { layoutSchema } from "../../src/layout/registry.ts";
import { allFinite } from "../helpers/layout-quality.ts";
import { treeGraph } from "./energy-fixtures.ts";

const NAMES: [string, string[]][] = [
  ["drl", ["x", "y"]],
  ["drl_3d", ["x", "y", "z"]],
  ["lgl", ["x", "y"]],
  ["large", ["x", "y"]],
  ["large_graph", ["x", "y"]],
  ["graphopt", ["x", "y"]],
  ["dh", ["x", "y"]],
  ["davidson_harel", ["x", "y"]],
];

describe("energy layouts in the registry", () => {
  it("lists every name and alias under igraph", () => {
    const igraph = layoutSchema().igraph;
    for (const [name] of NAMES) expect(igraph).toContain(name);
  });

  it("parses each with its defaults and answers finite x, y (and z) per node through run", () => {
    const tree = treeGraph(31, 2);
    for (const directed of [true, false]) {
      const graph = computeGraph(tree.n, tree.edges, { directed });
      for (const [alg, columns] of NAMES) {
        const parsed = parseLayout({ libraries: ["igraph"], alg, params: alg === "dh" ? { maxiter: 3 } : {}, directed });
        const out = parsed.entry.run(graph, parsed.params, cpuContext, "layout");
        expect(out.kind, alg).toBe("nodes");
        if (out.kind !== "nodes") continue;
        expect(
          out.columns.map((c) => c.name),
          alg,
        ).toEqual(columns);
        for (const column of out.columns) {
          expect(column.values, alg).toHaveLength(tree.n);
          expect(allFinite(column.values as Float64Array), alg).toBe(true);
        }
      }
    }
  });

  it("reports progress in [0, 1] and stops when the job is cancelled", () => {
    const tree = treeGraph(31, 2);
    const graph = computeGraph(tree.n, tree.edges);
    for (const [alg] of NAMES) {
      const parsed = parseLayout({ libraries: ["igraph"], alg, params: {} });
      const seen: Progress[] = [];
      let checks = 0;
      const ctx: ComputeContext = {
        ...cpuContext,
        progress: (p) => seen.push(p),
        checkCancelled: () => {
          checks++;
          if (checks > 3) throw new ComputeCancelled();
        },
      };
      expect(() => parsed.entry.run(graph, parsed.params, ctx, "layout"), alg).toThrow(ComputeCancelled);
      expect(seen.length, alg).toBeGreaterThan(0);
      for (const p of seen) expect(p.fraction ?? 0, alg).toBeGreaterThanOrEqual(0);
      for (const p of seen) expect(p.fraction ?? 0, alg).toBeLessThanOrEqual(1);
    }
  });

  it("drl with dim 3 answers z through the same entry", () => {
    const tree = treeGraph(31, 2);
    const parsed = parseLayout({ libraries: ["igraph"], alg: "drl", params: { dim: 3 } });
    const out = parsed.entry.run(computeGraph(tree.n, tree.edges), parsed.params, cpuContext, "layout");
    expect(out.kind === "nodes" && out.columns.map((c) => c.name)).toEqual(["x", "y", "z"]);
    expect(() => parseLayout({ libraries: ["igraph"], alg: "drl", params: { dim: 4 } })).toThrow();
  });
});
