// Compute schema (spec 2.9): the algorithms this service runs, by library, with their parameters and outputs.
import type { AlgorithmEntry } from "../../src/compute/types.ts";
import { builder } from "../builder.ts";

type Libraries = { cugraph: string[]; igraph: string[] };

const LibraryAlgorithms = builder.objectRef<Libraries>("LibraryAlgorithms").implement({
  description: "Algorithm names by library.",
  fields: (t) => ({
    cugraph: t.exposeStringList("cugraph"),
    igraph: t.exposeStringList("igraph"),
  }),
});

const ComputeTypes = builder.objectRef<{ CuGraphKind: string[] }>("ComputeTypes").implement({
  fields: (t) => ({ CuGraphKind: t.exposeStringList("CuGraphKind") }),
});

/** cuGraph's graph kinds (spec 2.9 types.CuGraphKind). */
export const CUGRAPH_KINDS = ["Graph", "MultiGraph", "BiPartiteGraph"];

const ComputeSchema = builder
  .objectRef<{ compute: Libraries; layout: Libraries; types: { CuGraphKind: string[] } }>("ComputeSchema")
  .implement({
    description: "Spec 2.9's schema: exactly the compute algorithms (and layouts) that run here.",
    fields: (t) => ({
      compute: t.field({ type: LibraryAlgorithms, resolve: (s) => s.compute }),
      layout: t.field({
        type: LibraryAlgorithms,
        description: "Server layouts (dataset creation's `layout`, GFQL layout_igraph / layout_cugraph), aliases included.",
        resolve: (s) => s.layout,
      }),
      types: t.field({ type: ComputeTypes, resolve: (s) => s.types }),
    }),
  });

const ComputeAlgorithm = builder.objectRef<AlgorithmEntry>("ComputeAlgorithm").implement({
  description: "One registered algorithm: its library, name, parameters (the library's own names), output and backends.",
  fields: (t) => ({
    library: t.exposeString("library"),
    name: t.exposeString("name"),
    params: t.field({ type: "JSON", description: "Parameter name -> {type, default, min, max, values, ...}.", resolve: (e) => e.params }),
    output: t.exposeString("output", { description: "nodes, edges or graph." }),
    backends: t.stringList({ resolve: (e) => [...e.backends] }),
    undirectedOnly: t.boolean({ resolve: (e) => e.undirectedOnly === true }),
    doc: t.exposeString("doc"),
  }),
});

/** The registries, imported on first use: their many modules would otherwise load with the schema at every start. */
const registry = () => import("../../src/compute/registry.ts");
const layouts = () => import("../../src/layout/registry.ts");

builder.queryFields((t) => ({
  computeSchema: t.field({
    type: ComputeSchema,
    description: "The compute/layout/types schema of GET api/v1/datasets/ (spec 2.9).",
    resolve: async () => ({
      compute: (await registry()).computeSchema(),
      layout: (await layouts()).layoutSchema(),
      types: { CuGraphKind: CUGRAPH_KINDS },
    }),
  }),
  computeAlgorithms: t.field({
    type: [ComputeAlgorithm],
    description: "Every registered compute algorithm with its parameters.",
    resolve: async () => [...(await registry()).ALGORITHMS],
  }),
}));
