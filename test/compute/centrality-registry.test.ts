// The centrality family in the registry: the 16 names of spec 2.9 under their libraries, each running on its
// defaults over an empty graph and a graph without edges, its main column named by the label.
import { describe, expect, it } from "vitest";
import { entries } from "../../src/compute/algorithms/centrality/index.ts";
import { findAlgorithm } from "../../src/compute/registry.ts";
import { asCompute, runEntry } from "./centrality-fixtures.ts";

const NAMES = {
  igraph: [
    "pagerank",
    "betweenness",
    "closeness",
    "harmonic_centrality",
    "eccentricity",
    "eigenvector_centrality",
    "hub_score",
    "authority_score",
    "constraint",
    "bibcoupling",
    "cocitation",
  ],
  cugraph: ["pagerank", "katz_centrality", "hits", "betweenness_centrality", "edge_betweenness_centrality"],
} as const;

describe("centrality registry entries", () => {
  it("registers exactly the family's 16 names, each findable by library and name", () => {
    const got = entries.map((e) => `${e.library}/${e.name}`).sort();
    const want = [...NAMES.igraph.map((n) => `igraph/${n}`), ...NAMES.cugraph.map((n) => `cugraph/${n}`)].sort();
    expect(got).toEqual(want);
    for (const key of want) {
      const [library, name] = key.split("/") as [string, string];
      expect(findAlgorithm(library, name)?.name).toBe(name);
    }
  });

  it("each runs on its defaults over an empty graph and an edgeless one, answering one value per row under the label", () => {
    for (const entry of entries) {
      for (const n of [0, 4]) {
        for (const directed of [true, false]) {
          const graph = asCompute({ n, edges: [], weight: [] }, directed);
          const out = runEntry(entry, graph, {}, "label");
          if (out.kind === "graph") throw new Error(`${entry.name} answered a graph`);
          expect(out.columns[0]?.name, entry.name).toBe("label");
          expect(out.columns[0]?.values.length, entry.name).toBe(out.kind === "nodes" ? n : 0);
        }
      }
    }
  });

  it("declares its backends: OpenCL where a kernel runs, CPU only for constraint and the coupling matrices", () => {
    for (const entry of entries) {
      expect(entry.backends).toContain("cpu");
      const cpuOnly = ["constraint", "bibcoupling", "cocitation"].includes(entry.name);
      expect(entry.backends.includes("opencl"), entry.name).toBe(!cpuOnly);
      expect(entry.doc.length).toBeGreaterThan(10);
    }
  });
});
