// The session's collections (spec 2.8, 3.6) as the page reads them: the list over GraphQL, the matched rows as a blob.
import { requestGraphQL } from "./graphql-client.ts";
import { codeOfStatus, RequestError } from "./request-error.ts";

/** The fields the page reads of a collection (also asked for in the live subscription). */
export const COLLECTION_FIELDS = "id name description position color matchCount nodeCount edgeCount matchesUrl updatedAt";

export const COLLECTIONS_QUERY = `query Collections($id: ID!) { vizSession(id: $id) { collections { ${COLLECTION_FIELDS} } } }`;

export type CollectionInfo = {
  id: string;
  name: string;
  description: string | null;
  /** Render order: 0 is painted on top. */
  position: number;
  /** #RRGGBB or #RRGGBBAA. */
  color: string;
  /** Nodes plus edges matched; null when unknown (not zero). */
  matchCount: number | null;
  nodeCount: number | null;
  edgeCount: number | null;
  matchesUrl: string | null;
  updatedAt: string | null;
};

/** Matched node-table rows, and edge-table rows (undefined when the server does not know them). */
export type Matches = { nodes: Uint32Array; edges: Uint32Array | undefined };

/** How a query is asked: over HTTP (requestGraphQL) or over the live connection. */
export type Ask = <T>(query: string, variables: Record<string, unknown>) => Promise<T>;

/** The session's collections in render order, the one on top first. */
export async function fetchCollections(sessionId: string, ask: Ask = requestGraphQL): Promise<CollectionInfo[]> {
  const data = await ask<{ vizSession: { collections: CollectionInfo[] | null } | null }>(COLLECTIONS_QUERY, { id: sessionId });
  return inRenderOrder(data.vizSession?.collections ?? []);
}

export function inRenderOrder(list: readonly CollectionInfo[]): CollectionInfo[] {
  return [...list].sort((a, b) => a.position - b.position);
}

export async function fetchMatches(url: string): Promise<Matches> {
  const response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
  if (!response.ok) throw new RequestError(`collection matches: the server answered ${response.status}`, codeOfStatus(response.status));
  return decodeMatches(await response.arrayBuffer());
}

const UNKNOWN = 0xffffffff;

/** Little-endian uint32 words: node count, edge count (0xffffffff: unknown), node rows, edge rows. */
export function decodeMatches(buffer: ArrayBuffer): Matches {
  const view = new DataView(buffer);
  const words = Math.floor(buffer.byteLength / 4);
  const word = (i: number) => view.getUint32(i * 4, true);
  if (words < 2) return { nodes: new Uint32Array(0), edges: undefined };
  const nodeCount = Math.min(word(0), words - 2);
  const edgeWord = word(1);
  const nodes = new Uint32Array(nodeCount);
  for (let i = 0; i < nodeCount; i++) nodes[i] = word(2 + i);
  if (edgeWord === UNKNOWN) return { nodes, edges: undefined };
  const edgeCount = Math.min(edgeWord, words - 2 - nodeCount);
  const edges = new Uint32Array(edgeCount);
  for (let i = 0; i < edgeCount; i++) edges[i] = word(2 + nodeCount + i);
  return { nodes, edges };
}
