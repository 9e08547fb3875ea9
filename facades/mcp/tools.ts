// The nine tools of spec 4.6: each runs GraphQL operations and answers a JSON payload (or plain text) for a text
// content block. Tool-level failures become {error: "[code] message"}; access failures become HTTP failures.
import type { ExecutionResult } from "graphql";
import { McpFailure, rateLimitFailure } from "./json-rpc.ts";
import * as ops from "./operations.ts";
import { type SessionInfo, sessionInfoText } from "./session-info.ts";

export type RunOperation = (document: string, variables?: Record<string, unknown>) => Promise<ExecutionResult>;

export type ToolCall = { args: Record<string, unknown>; run: RunOperation; timeoutMs: number };

export type Tool = {
  name: string;
  description: string;
  /** read: anyone who may view the session's dataset; owner: only the person who has the visualization open. */
  access: "read" | "owner";
  /** Whether the tool acts on one session (its session_id argument). */
  onSession: boolean;
  /** A JSON payload, or a string sent as plain text. */
  call(call: ToolCall): Promise<unknown>;
};

/** A failure the caller can fix (bad query, unknown collection): reported in the payload with HTTP 200. */
export class ToolError extends Error {
  override name = "ToolError";
}

type GraphQLErrorLike = { message: string; extensions?: Record<string, unknown> };

/** The operation's data, or the failure its first error stands for. */
export function dataOf<T>(result: ExecutionResult): T {
  const error = result.errors?.[0] as GraphQLErrorLike | undefined;
  if (!error) return result.data as T;
  const code = String(error.extensions?.code ?? "INTERNAL");
  const limited = rateLimitFailure(error);
  if (limited) throw limited;
  switch (code) {
    case "UNAUTHENTICATED":
    case "TOKEN_EXPIRED":
      throw new McpFailure("UNAUTHENTICATED", error.message);
    case "FORBIDDEN":
      throw new McpFailure("FORBIDDEN", error.message);
    case "TIMEOUT":
      throw new McpFailure("TIMEOUT", "Tool call timeout");
    case "UNAVAILABLE":
      throw new McpFailure("UNAVAILABLE", error.message);
    case "INTERNAL":
      throw new Error(error.message);
    default:
      throw new ToolError(/^\[[^\]]+\]/.test(error.message) ? error.message : `[${code.toLowerCase()}] ${error.message}`);
  }
}

/** A collection as the tools answer it: null optional fields are left out, a null matchCount stays (unknown, not 0). */
function collectionPayload(c: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(c)) if (value !== null || key === "matchCount") out[key] = value;
  return out;
}

type Collection = Record<string, unknown>;

const listSessions: Tool = {
  name: "list_sessions",
  description: "Lists your own open visualizations (session ids with their dataset). Best effort: it never lists other people's sessions.",
  access: "read",
  onSession: false,
  async call({ run }) {
    type Row = { id: string; createdAt: string; ownerAvailable: boolean; revision: { id: string }; dataset: { id: string; name: string } };
    const data = dataOf<{ vizSessions: Row[] }>(await run(ops.LIST_SESSIONS));
    const sessions = data.vizSessions.map((s) => ({
      session_id: s.id,
      dataset_id: s.dataset.id,
      dataset_name: s.dataset.name,
      revision_id: s.revision.id,
      open: s.ownerAvailable,
      created_at: s.createdAt,
    }));
    return { sessions, count: sessions.length };
  },
};

const getSessionInfo: Tool = {
  name: "get_session_info",
  description:
    "Plain-text schema summary of a visualization: session id, node and edge counts, column names with dtypes (at most 120 per axis), title and description. Call it before writing queries.",
  access: "read",
  onSession: true,
  async call({ args, run }) {
    const data = dataOf<{ vizSession: SessionInfo }>(await run(ops.SESSION_INFO, { id: args.session_id }));
    return sessionInfoText(data.vizSession);
  },
};

const queryGraph: Tool = {
  name: "query_graph",
  description:
    'Read-only query of the visualization\'s graph: a JSON string of GFQL operations (e.g. [{"type":"Node","filter_dict":{"kind":"person"}},{"type":"Edge","direction":"forward","hops":1},{"type":"Node"}]) or a Let object, or one read-only Cypher query. output_type shape (default) gives counts; nodes, edges or all add rows (at most 50, or 20 when no columns are projected); counts are always the true totals.',
  access: "read",
  onSession: true,
  async call({ args, run, timeoutMs }) {
    if (args.format !== undefined && String(args.format).toLowerCase() !== "json")
      throw new ToolError(`[unsupported-format] only json is returned; leave format unset (got ${JSON.stringify(args.format)})`);
    const output = String(args.output_type ?? "shape");
    type Answer = { nodeCount: number; edgeCount: number; warnings: string[]; nodes: unknown[] | null; edges: unknown[] | null };
    const { gfql } = dataOf<{ gfql: Answer }>(
      await run(ops.QUERY_GRAPH, {
        id: args.session_id,
        query: args.gfql_operations,
        output,
        timeoutMs,
        strictness: args.strictness ?? null,
      }),
    );
    const payload: Record<string, unknown> = { output_type: output, node_count: gfql.nodeCount, edge_count: gfql.edgeCount };
    if (gfql.nodes) Object.assign(payload, { nodes: gfql.nodes, nodes_returned: gfql.nodes.length });
    if (gfql.edges) Object.assign(payload, { edges: gfql.edges, edges_returned: gfql.edges.length });
    const truncated = (gfql.nodes && gfql.nodes.length < gfql.nodeCount) || (gfql.edges && gfql.edges.length < gfql.edgeCount);
    if (output !== "shape") payload.truncated = Boolean(truncated);
    // filters on columns the tables lack match nothing; say so rather than answer an unexplained zero
    if (gfql.warnings.length > 0) payload.warnings = gfql.warnings;
    return payload;
  },
};

const createCollection: Tool = {
  name: "create_collection",
  description:
    "Colors the nodes and edges a GFQL query matches, live in every open viewer. gfql_operations is a JSON string of an operation array or a Let object (wrap a single operation in an array; Cypher is not accepted); edge steps without a direction match both ways. Give node_color (#RRGGBB or #RRGGBBAA) or a palette name. A collection with the same name is replaced; beyond 10 the oldest is dropped. The answer's collection.matchCount counts the colored elements (null when unknown).",
  access: "owner",
  onSession: true,
  async call({ args, run, timeoutMs }) {
    const input = {
      sessionId: args.session_id,
      name: args.name,
      query: args.gfql_operations,
      nodeColor: args.node_color,
      palette: args.palette,
      description: args.description,
      timeoutMs,
    };
    const data = dataOf<{ createCollection: Collection }>(await run(ops.CREATE_COLLECTION, { input }));
    return { collection: collectionPayload(data.createCollection) };
  },
};

const listCollections: Tool = {
  name: "list_collections",
  description: "Lists the visualization's collections in render order (position 0 is painted on top) with id, name, position and color.",
  access: "read",
  onSession: true,
  async call({ args, run }) {
    type Data = { vizSession: { collections: Collection[]; globalLayer: { id: string; name: string } } };
    const data = dataOf<Data>(await run(ops.LIST_COLLECTIONS, { id: args.session_id }));
    const collections = data.vizSession.collections.map(collectionPayload);
    return { collections, count: collections.length, global_layer: data.vizSession.globalLayer };
  },
};

const updateCollection: Tool = {
  name: "update_collection",
  description:
    "Renames or recolors a collection (name, node_color, palette: omit what stays, never pass null). Which elements match never changes.",
  access: "owner",
  onSession: true,
  async call({ args, run }) {
    const variables = {
      session: args.session_id,
      id: args.collection_id,
      name: args.name,
      nodeColor: args.node_color,
      palette: args.palette,
    };
    const data = dataOf<{ updateCollection: Collection }>(await run(ops.UPDATE_COLLECTION, variables));
    return { collection: collectionPayload(data.updateCollection) };
  },
};

const deleteCollection: Tool = {
  name: "delete_collection",
  description: "Deletes one collection; the others stay. The global background layer cannot be deleted.",
  access: "owner",
  onSession: true,
  async call({ args, run }) {
    const data = dataOf<{ deleteCollection: { id: string; name: string } }>(
      await run(ops.DELETE_COLLECTION, { session: args.session_id, id: args.collection_id }),
    );
    return { deleted: data.deleteCollection };
  },
};

const reorderCollections: Tool = {
  name: "reorder_collections",
  description:
    "Sets the render order: order lists collection ids top to bottom (the first is painted on top); ids left out keep their relative order after the listed ones.",
  access: "owner",
  onSession: true,
  async call({ args, run }) {
    const data = dataOf<{ reorderCollections: Collection[] }>(
      await run(ops.REORDER_COLLECTIONS, { session: args.session_id, order: args.order }),
    );
    return { collections: data.reorderCollections.map(collectionPayload) };
  },
};

const resetCollections: Tool = {
  name: "reset_collections",
  description: "Removes every collection, returning the visualization to its default colors.",
  access: "owner",
  onSession: true,
  async call({ args, run }) {
    const data = dataOf<{ resetCollections: number }>(await run(ops.RESET_COLLECTIONS, { session: args.session_id }));
    return { removed: data.resetCollections, collections: [] };
  },
};

export const TOOLS: readonly Tool[] = [
  listSessions,
  getSessionInfo,
  queryGraph,
  createCollection,
  listCollections,
  updateCollection,
  deleteCollection,
  reorderCollections,
  resetCollections,
];

export const toolNamed = (name: unknown): Tool | undefined => TOOLS.find((t) => t.name === name);
