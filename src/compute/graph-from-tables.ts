// The ComputeGraph of a node and an edge table: the GFQL adjacency index's CSR (built once per edge frame and kept
// with it), read directed or not, weighed by the bound `edge_weight` column.
import pl from "nodejs-polars";
import { buildCsr, type ComputeGraph, type Csr } from "../../kernels/cpu/csr.ts";
import { type GraphIndex, graphIndex } from "../gfql/fast/graph-index.ts";
import { invalidField } from "./params.ts";

export type GraphTables = {
  nodes: pl.DataFrame;
  edges: pl.DataFrame | undefined;
  nodeId: string;
  source: string;
  destination: string;
  /** The bound `edge_weight` column, if any. */
  edgeWeight?: string | undefined;
};

/** One Csr per index (so undirected() and kernels caching per Csr hit), one ComputeGraph per way of reading it. */
const csrOf = new WeakMap<GraphIndex, Csr>();
const graphsOf = new WeakMap<Csr, Map<string, ComputeGraph>>();
/** Edgeless graphs: one Csr per node table. */
const edgeless = new WeakMap<pl.DataFrame, Csr>();

function indexCsr(index: GraphIndex): Csr {
  let csr = csrOf.get(index);
  if (!csr) {
    csr = {
      n: index.nodeCount,
      m: index.edgeCount,
      src: index.srcRow,
      dst: index.dstRow,
      outStart: index.outStart,
      outEdges: index.outEdges,
      outDst: index.outDst,
      inStart: index.inStart,
      inEdges: index.inEdges,
      inSrc: index.inSrc,
    };
    csrOf.set(index, csr);
  }
  return csr;
}

const NUMERIC = /^(U?Int(8|16|32|64)|Float(32|64))$/;

/**
 * The bound edge weight per edge, as cuGraph reads it: null when nothing is bound or the bound column is not
 * numeric (the graph is then unweighted); a null value weighs 1.
 */
function boundWeight(edges: pl.DataFrame, column: string | undefined): Float64Array | null {
  if (!column || !edges.columns.includes(column)) return null;
  const series = edges.getColumn(column);
  if (!NUMERIC.test(String(series.dtype.variant))) return null;
  const filled = series.nullCount() > 0 ? series.cast(pl.Float64).fillNull("one") : series.cast(pl.Float64);
  return Float64Array.from(filled.toTypedArray() as Float64Array);
}

/** The CSR of the tables (shared with GFQL's adjacency index); 400 when an edge names a node the table lacks. */
export function csrOfTables(tables: GraphTables): Csr {
  const { nodes, edges, nodeId, source, destination } = tables;
  if (!edges || edges.height === 0) {
    let csr = edgeless.get(nodes);
    if (!csr) {
      csr = buildCsr(nodes.height, new Int32Array(0), new Int32Array(0));
      edgeless.set(nodes, csr);
    }
    return csr;
  }
  const index = graphIndex({ nodes, nodeId, source, destination }, edges, true);
  if (!index)
    throw invalidField(
      `compute needs unique node ids in "${nodeId}" and every edge's "${source}" and "${destination}" among them, of the same type`,
      "edges",
    );
  return indexCsr(index);
}

/** The graph algorithms run on, kept per CSR and way of reading it. */
export function computeGraphOf(tables: GraphTables, directed: boolean): ComputeGraph {
  const csr = csrOfTables(tables);
  const key = `${directed}|${tables.edgeWeight ?? ""}`;
  let graphs = graphsOf.get(csr);
  if (!graphs) {
    graphs = new Map();
    graphsOf.set(csr, graphs);
  }
  let graph = graphs.get(key);
  if (!graph) {
    const weight = tables.edges && tables.edges.height > 0 ? boundWeight(tables.edges, tables.edgeWeight) : null;
    graph = { ...csr, directed, weight };
    graphs.set(key, graph);
  }
  return graph;
}
