// The Dataset record as services hand it out: the stored row with its JSON columns decoded.
import type { Dataset as DatasetRow } from "../../prisma/generated/sqlite/client.ts";
import type { TableSchema } from "../ingest/table-files.ts";

export type FileRef = string | [string, number];

export type StoredEncodings = { bindings: Record<string, string>; complex?: unknown; fieldFilters?: unknown[] };

export type DirectSource = { version: string; schema: TableSchema };

export type DatasetRecord = Omit<
  DatasetRow,
  | "nodeFiles"
  | "edgeFiles"
  | "edgeHypergraphTransform"
  | "nodeEncodings"
  | "edgeEncodings"
  | "metadata"
  | "compute"
  | "layout"
  | "tablesSchemas"
  | "directSources"
> & {
  nodeFiles: FileRef[];
  edgeFiles: FileRef[];
  edgeHypergraphTransform: Record<string, unknown>[];
  nodeEncodings: StoredEncodings;
  edgeEncodings: StoredEncodings;
  metadata: Record<string, unknown>;
  compute: unknown;
  layout: unknown;
  tablesSchemas: { nodes?: TableSchema; edges?: TableSchema };
  directSources: { nodes?: DirectSource; edges?: DirectSource };
};

const parse = <T>(text: string | null, fallback: T): T => (text === null ? fallback : (JSON.parse(text) as T));

/**
 * The API version both real clients put in `metadata.apiversion` ("3": Arrow uploads through api/v2),
 * and so the one a dataset created without it was created through.
 */
export const METADATA_APIVERSION = "3";

/**
 * Spec 2.3's listings always show `metadata.agent` and `metadata.apiversion`. pygraphistry and the JS
 * client send both; a client that sent neither gets its `agent_name` (empty when it sent none, as the
 * spec's agent fields default) and apiversion "3". What the client sent is kept as sent.
 */
export function listedMetadata(stored: Record<string, unknown>, agentName: string | null): Record<string, unknown> {
  return { agent: agentName ?? "", apiversion: METADATA_APIVERSION, ...stored };
}

export function toDatasetRecord(row: DatasetRow): DatasetRecord {
  return {
    ...row,
    nodeFiles: parse(row.nodeFiles, []),
    edgeFiles: parse(row.edgeFiles, []),
    edgeHypergraphTransform: parse(row.edgeHypergraphTransform, []),
    nodeEncodings: parse(row.nodeEncodings, { bindings: {} }),
    edgeEncodings: parse(row.edgeEncodings, { bindings: {} }),
    metadata: listedMetadata(parse(row.metadata, {}), row.agentName),
    compute: parse(row.compute, null),
    layout: parse(row.layout, null),
    tablesSchemas: parse(row.tablesSchemas, {}),
    directSources: parse(row.directSources, {}),
  };
}
