// The contract between the compute service and the algorithms: registry entries, parameters, the run context
// (backend, progress, cancel) and what an algorithm answers (node columns, edge columns, or a graph).
import type { ComputeGraph } from "../../kernels/cpu/csr.ts";

export type Library = "igraph" | "cugraph";
export type Backend = "cpu" | "opencl";

/**
 * One parameter, by the library's own name. The service validates a request against these (unknown names, wrong
 * types and out-of-range values answer 400) and fills defaults, so `run` sees only checked values:
 * - number/integer/boolean/string: the JSON value; `enum`: one of `values`;
 * - numbers: an array of numbers;
 * - node: a node id (as the node table holds it), resolved to its row (a number); nodes: ids -> Int32Array of rows;
 * - edgeColumn: a column name of the edge table (igraph's `weights: "weight"`), resolved to a Float64Array per
 *   edge (a null value answers 400);
 *   nodeColumn likewise over the node table;
 * - json: any JSON value, passed as given (the algorithm checks it and throws ComputeInputError naming the field).
 * - positions: a list of {vertex, x, y} records (cuGraph's pos_list), vertex a node id; resolved to
 *   PositionRecords (rows and coordinates).
 * A parameter with `nullable` also takes null; an absent one without a default is undefined in `run`.
 */
export type ParamSpec = {
  type:
    | "number"
    | "integer"
    | "boolean"
    | "string"
    | "enum"
    | "numbers"
    | "node"
    | "nodes"
    | "edgeColumn"
    | "nodeColumn"
    | "json"
    | "positions";
  default?: unknown;
  required?: boolean;
  nullable?: boolean;
  min?: number;
  max?: number;
  /** min/max themselves refused. */
  exclusive?: boolean;
  values?: readonly string[];
  description?: string;
  /** json parameters: a string value names a column of the node (edge) table, resolved as nodeColumn (edgeColumn). */
  columnOf?: "node" | "edge";
};

/**
 * A result column. Values are per node row (nodes output) or per edge row (edges output, graph edgeColumns).
 * NaN and ±Infinity in a float column become null; `valid` (0 = null) marks nulls in any column. `ref: "node"`
 * means the values are node rows (-1 = null) to be written as the node ids (cuGraph's `predecessor`).
 */
export type OutColumn = {
  name: string;
  values: Float64Array | Float32Array | Int32Array | Uint8Array | ArrayLike<string | null> | ArrayLike<readonly number[] | null>;
  /** How to store it: float64 (default for Float*Array), int32/int64 (Int32Array), bool (Uint8Array), utf8, list<int64>, list<float64>. */
  type?: "float64" | "int32" | "int64" | "bool" | "utf8" | "list<int64>" | "list<float64>";
  valid?: Uint8Array;
  ref?: "node";
};

/**
 * What an algorithm answers:
 * - nodes: columns added to (or replacing same-named columns of) the node table;
 * - edges: columns added to the edge table;
 * - graph: the graph the algorithm answers (spanning trees, ego graphs, k-cores): the kept node rows and edge
 *   rows (null = all), optional columns over the kept edges, or `newEdges` replacing the edge table entirely
 *   (Gomory-Hu: node rows of each end plus columns such as `flow`).
 */
export type ComputeOutput =
  | { kind: "nodes"; columns: OutColumn[] }
  | { kind: "edges"; columns: OutColumn[] }
  | {
      kind: "graph";
      nodeRows: Int32Array | null;
      edgeRows: Int32Array | null;
      edgeColumns?: OutColumn[];
      newEdges?: { src: Int32Array; dst: Int32Array; columns: OutColumn[] };
    };

export type Progress = { phase: string; iteration?: number; fraction?: number };

/** A resolved `positions` parameter: record k puts node row rows[k] at (x[k], y[k]). */
export type PositionRecords = { rows: Int32Array; x: Float64Array; y: Float64Array };

export type ComputeContext = {
  backend: Backend;
  /** The OpenCL version of kernel `name` when this run's backend is OpenCL and has one; else the CPU twin itself. */
  kernel<A, R>(name: string, cpu: (args: A) => R): (args: A) => R;
  /** Reports progress (throttled by the caller); fraction in [0, 1]. */
  progress(p: Progress): void;
  /** Throws ComputeCancelled when the job was cancelled: call it between iterations. */
  checkCancelled(): void;
};

export type AlgorithmEntry = {
  library: Library;
  name: string;
  /** The library's parameter names; anything else answers 400. */
  params: Record<string, ParamSpec>;
  output: "nodes" | "edges" | "graph";
  /** cpu always; opencl too when the algorithm runs at least one OpenCL kernel. */
  backends: readonly Backend[];
  /** Refuses a directed graph (400) as the library does; pygraphistry callers pass directed: false. */
  undirectedOnly?: boolean;
  /** One line for the README's table: what the output is. */
  doc: string;
  /**
   * Runs synchronously (in a worker thread, off the event loop). `label` is the output label (default the name):
   * the main column takes it. Throws ComputeInputError for graphs or values it cannot take.
   */
  run(graph: ComputeGraph, params: Record<string, unknown>, ctx: ComputeContext, label: string): ComputeOutput;
};

/** A request the algorithm cannot take (negative weights for shortest paths, ...): answers 400 naming `field`. */
export class ComputeInputError extends Error {
  readonly field: string | undefined;
  constructor(message: string, field?: string) {
    super(message);
    this.name = "ComputeInputError";
    this.field = field;
  }
}

export class ComputeCancelled extends Error {
  constructor() {
    super("the compute job was cancelled");
    this.name = "ComputeCancelled";
  }
}

/** A context for direct calls (tests, benchmarks): the CPU twins, no progress, never cancelled. */
export const cpuContext: ComputeContext = {
  backend: "cpu",
  kernel: (_name, cpu) => cpu,
  progress: () => {},
  checkCancelled: () => {},
};
