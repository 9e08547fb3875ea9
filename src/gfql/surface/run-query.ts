// One GFQL query over a dataset's stored tables: parse, execute, and shape the answer (counts, limited rows).
import pl from "nodejs-polars";
import { AppError, isAppError } from "../../errors/app-error.ts";
import { readTable } from "../../ingest/table-files.ts";
import { parseCypher } from "../cypher/index.ts";
import { executeGfql } from "../execute.ts";
import { fastRows, gatherRows } from "../fast/fast-query.ts";
import { parseGfql } from "../parse.ts";
import { beginRun, runWarnings, type Strictness } from "../strictness.ts";

export const OUTPUT_TYPES = ["shape", "nodes", "edges", "all"] as const;
/** Besides JSON rows, an answer's tables may come as files (pygraphistry's remote GFQL asks for parquet by default). */
export const FILE_FORMATS = ["parquet", "csv", "arrow"] as const;
export type FileFormat = (typeof FILE_FORMATS)[number];
export type OutputType = (typeof OUTPUT_TYPES)[number];

export type QueryJob = {
  nodesPath: string;
  edgesPath: string | undefined;
  nodeId: string;
  source: string;
  destination: string;
  /** The bound `edge_weight` column, if any. */
  edgeWeight?: string | undefined;
  /** The query as sent: JSON text or an already-parsed value. */
  query: unknown;
  output: OutputType;
  /** Most rows returned per table; counts are always the true totals. */
  limit: number;
  /** `match`: instead of rows, the positions of the matched nodes and edges in their tables (collections). */
  mode?: "rows" | "match";
  /** A time limit tighter than the pool's, for this job only. */
  timeoutMs?: number;
  /** Also write the answer's tables (up to `limit` rows) as files of this format; `shape` is a kind/rows/cols table. */
  fileFormat?: FileFormat | undefined;
  /** Only these columns of the answer's node and edge rows (all when absent). */
  nodeColumns?: string[] | undefined;
  edgeColumns?: string[] | undefined;
  /** Filters on absent columns: "warn" (default) matches nothing and warns, "quiet" too without the warning, "strict" refuses. */
  strictness?: Strictness | undefined;
};

export type QueryAnswer = {
  nodeCount: number;
  edgeCount: number;
  nodes: Record<string, unknown>[] | undefined;
  edges: Record<string, unknown>[] | undefined;
  /** Whether the answer's rows leave out some of the table's columns (a projection). */
  projected: boolean;
  /** In match mode: positions of the matched rows in the node and edge tables; undefined when unknown. */
  nodeRows?: Uint32Array | undefined;
  edgeRows?: Uint32Array | undefined;
  /** With `fileFormat`: the tables as files. */
  files?: { nodes?: Uint8Array; edges?: Uint8Array; shape?: Uint8Array } | undefined;
  /** What the run warned about (filters on absent columns), as pygraphistry's strictness.py words it. */
  warnings?: string[] | undefined;
};

/** Hidden row-position columns carried through a match-mode query. */
const NODE_ROW = "__gw_node_row";
const EDGE_ROW = "__gw_edge_row";

export type QueryFailure = { code: string; message: string; details: Record<string, unknown> | undefined };

/**
 * Rows as plain JSON values: 64-bit integers as numbers when exact, else bigint (exact-json.ts writes them as JSON
 * numbers of all their digits); dates as ISO text. nodejs-polars reads Int64 values as (rounded) numbers, so the
 * 64-bit integer columns are read as their decimal text and parsed here.
 */
function plainRows(frame: pl.DataFrame): Record<string, unknown>[] {
  const wide = frame.columns.filter((c) => /^U?Int64$/.test(String(frame.getColumn(c).dtype.variant)));
  const read = wide.length === 0 ? frame : frame.withColumns(...wide.map((c) => pl.col(c).cast(pl.Utf8)));
  const isWide = new Set(wide);
  return (read.toRecords() as Record<string, unknown>[]).map((row) =>
    Object.fromEntries(
      Object.entries(row).map(([key, value]) => {
        if (isWide.has(key) && typeof value === "string") {
          const n = Number(value);
          return [key, Number.isSafeInteger(n) ? n : BigInt(value)];
        }
        if (typeof value === "bigint") return [key, Number.isSafeInteger(Number(value)) ? Number(value) : value];
        if (value instanceof Date) return [key, value.toISOString()];
        return [key, value];
      }),
    ),
  );
}

/** How the stored tables are read: straight from disk, or through a worker's cache. */
export type TableReader = (path: string) => pl.DataFrame;

/** An answer's node or edge table as the answer reads it: its size, its columns, and its first rows on demand. */
type AnswerTable = { height: number; columns: string[]; head(n: number): pl.DataFrame };

const asTable = (frame: pl.DataFrame): AnswerTable => ({ height: frame.height, columns: frame.columns, head: (n) => frame.head(n) });

/** The rows at `rows()` (ascending positions) of a stored table, gathered only as far as the answer reads them. */
const rowsOf = (frame: pl.DataFrame, height: number, rows: () => Int32Array): AnswerTable => ({
  height,
  columns: frame.columns,
  head: (n) => gatherRows(frame, rows().subarray(0, Math.min(n, height))),
});

export function runQuery(job: QueryJob, read: TableReader = readTable): QueryAnswer {
  // Text that is not JSON (it starts with neither [ nor {) is one read-only Cypher query.
  const text = typeof job.query === "string" ? job.query : undefined;
  const query =
    text !== undefined && !/^\s*[[{]/.test(text) ? parseCypher(text) : parseGfql(text !== undefined ? JSON.parse(text) : job.query);
  const match = job.mode === "match";
  const storedNodes = read(job.nodesPath);
  // A dataset of nodes only still has an (empty) edge table, typed like its node ids.
  const storedEdges = job.edgesPath
    ? read(job.edgesPath)
    : storedNodes.select(pl.col(job.nodeId).alias(job.source), pl.col(job.nodeId).alias(job.destination)).head(0);
  const ends = { nodeId: job.nodeId, source: job.source, destination: job.destination, endpointsInNodes: true, edgeWeight: job.edgeWeight };
  // The fast path answers with row positions: a collection needs nothing else, and rows are gathered up to the limit.
  beginRun(job.strictness);
  const fast = fastRows({ nodes: storedNodes, edges: storedEdges, ...ends }, query);
  const warned = (answer: QueryAnswer): QueryAnswer => {
    const warnings = runWarnings();
    return warnings.length === 0 ? answer : { ...answer, warnings };
  };
  if (fast !== null && match) {
    const positions = (rows: Int32Array) => new Uint32Array(rows.buffer, rows.byteOffset, rows.length);
    const [nodeRows, edgeRows] = [positions(fast.nodeRows()), positions(fast.edgeRows())];
    return warned({
      projected: false,
      files: undefined,
      nodeCount: nodeRows.length,
      edgeCount: edgeRows.length,
      nodes: undefined,
      edges: undefined,
      nodeRows,
      edgeRows,
    });
  }
  if (fast !== null) {
    const nodes = rowsOf(storedNodes, fast.nodeCount, fast.nodeRows);
    return warned(answerOf(job, { nodes, edges: rowsOf(storedEdges, fast.edgeCount, fast.edgeRows) }, false));
  }
  const nodes = match ? storedNodes.withRowIndex(NODE_ROW) : storedNodes;
  const edges = match ? storedEdges.withRowIndex(EDGE_ROW) : storedEdges;
  // Dataset tables are materialized: every endpoint is a node already.
  const result = executeGfql({ nodes, edges, ...ends }, query, "polars", { strictness: job.strictness });
  if (match) return warned(matchAnswer(job, storedNodes, result));
  const isProjected = (frame: pl.DataFrame, table: pl.DataFrame) => table.columns.some((c) => !frame.columns.includes(c));
  const projected = isProjected(result.nodes, nodes) || (!result.rows && isProjected(result.edges, edges));
  return warned(answerOf(job, { nodes: asTable(result.nodes), edges: asTable(result.edges) }, projected));
}

/** Counts, rows up to the limit (only the columns asked for), and the tables as files when asked. */
function answerOf(job: QueryJob, result: { nodes: AnswerTable; edges: AnswerTable }, projected: boolean): QueryAnswer {
  const want = (axis: "nodes" | "edges") => job.output === "all" || job.output === axis;
  const nodes = job.nodeColumns ? selectColumns(result.nodes, job.nodeColumns, "node") : result.nodes;
  const edges = job.edgeColumns ? selectColumns(result.edges, job.edgeColumns, "edge") : result.edges;
  const records = (table: AnswerTable) => plainRows(table.head(job.limit));
  return {
    files: job.fileFormat ? tableFiles(job, { nodes, edges }, want) : undefined,
    projected: projected || Boolean(job.nodeColumns || job.edgeColumns),
    nodeCount: nodes.height,
    edgeCount: edges.height,
    nodes: want("nodes") ? records(nodes) : undefined,
    edges: want("edges") ? records(edges) : undefined,
  };
}

/** The answer's rows cut to the asked-for columns; a column the answer does not have is refused by name. */
function selectColumns(table: AnswerTable, columns: string[], axis: "node" | "edge"): AnswerTable {
  const missing = columns.filter((c) => !table.columns.includes(c));
  if (missing.length > 0) {
    throw new AppError("INVALID_INPUT", `[E301] the ${axis} rows have no column ${missing.map((c) => `'${c}'`).join(", ")}`, {
      details: { field: `${axis}_col_subset`, columns: table.columns.slice(0, 50) },
    });
  }
  return { height: table.height, columns, head: (n) => table.head(n).select(...columns) };
}

function fileOf(frame: pl.DataFrame, format: FileFormat): Uint8Array {
  if (format === "arrow") return new Uint8Array(frame.writeIPCStream());
  return new Uint8Array(format === "parquet" ? frame.writeParquet() : frame.writeCSV());
}

/** The answer's tables as files: the wanted axes up to the row limit, or for `shape` one row per axis. */
function tableFiles(job: QueryJob, result: { nodes: AnswerTable; edges: AnswerTable }, want: (axis: "nodes" | "edges") => boolean) {
  const format = job.fileFormat as FileFormat;
  if (job.output === "shape") {
    const shape = pl.DataFrame([
      pl.Series("kind", ["nodes", "edges"]),
      pl.Series("rows", [result.nodes.height, result.edges.height], pl.Int64),
      pl.Series("cols", [result.nodes.columns.length, result.edges.columns.length], pl.Int64),
    ]);
    return { shape: fileOf(shape, format) };
  }
  return {
    ...(want("nodes") ? { nodes: fileOf(result.nodes.head(job.limit), format) } : {}),
    ...(want("edges") ? { edges: fileOf(result.edges.head(job.limit), format) } : {}),
  };
}

function positions(frame: pl.DataFrame, column: string): Uint32Array {
  return Uint32Array.from(frame.getColumn(column).sort() as Iterable<number>);
}

/** Where the matched elements sit in the stored tables; row-pipeline answers are traced back through node ids. */
function matchAnswer(job: QueryJob, storedNodes: pl.DataFrame, result: ReturnType<typeof executeGfql>): QueryAnswer {
  let nodeRows: Uint32Array | undefined;
  if (result.nodes.columns.includes(NODE_ROW)) nodeRows = positions(result.nodes.unique({ subset: [NODE_ROW] }), NODE_ROW);
  else if (result.nodes.columns.includes(job.nodeId)) {
    const ids = result.nodes.getColumn(job.nodeId);
    nodeRows = positions(storedNodes.withRowIndex(NODE_ROW).filter(pl.col(job.nodeId).isIn(pl.lit(ids))), NODE_ROW);
  }
  const edgeRows = result.edges.columns.includes(EDGE_ROW) ? positions(result.edges.unique({ subset: [EDGE_ROW] }), EDGE_ROW) : undefined;
  return {
    projected: false,
    files: undefined,
    nodeCount: nodeRows?.length ?? result.nodes.height,
    edgeCount: edgeRows?.length ?? result.edges.height,
    nodes: undefined,
    edges: undefined,
    nodeRows,
    edgeRows,
  };
}

/** Errors cross the worker boundary as data. */
export function failureOf(error: unknown): QueryFailure {
  if (isAppError(error)) return { code: error.code, message: error.message, details: error.details };
  if (error instanceof SyntaxError)
    return { code: "INVALID_INPUT", message: `[E101] the query is not valid JSON: ${error.message}`, details: undefined };
  return { code: "INTERNAL", message: error instanceof Error ? error.message : String(error), details: undefined };
}
