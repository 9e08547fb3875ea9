// Turns node ids and edge endpoints into cosmos.gl's flat link array (point indices), plus degrees.
import type { Keys } from "./column-values.ts";

export type Topology = {
  nodeCount: number;
  /** [source0, target0, source1, target1, ...] as node-table row indices. */
  links: Float32Array;
  /** Edge-table row of each drawn link; undefined when every edge was drawn, in order. */
  linkRows: Int32Array | undefined;
  /** Links touching each node. */
  degree: Uint32Array;
  /** Edges whose source or destination is not a node. */
  dropped: number;
};

export function buildTopology(nodeKeys: Keys, sources: Keys, destinations: Keys): Topology {
  const nodeCount = nodeKeys.length;
  const edgeCount = Math.min(sources.length, destinations.length);
  const lookup = createLookup(nodeKeys, sources, destinations);
  const links = new Float32Array(edgeCount * 2);
  const degree = new Uint32Array(nodeCount);
  let rows: Int32Array | undefined;
  let drawn = 0;
  for (let e = 0; e < edgeCount; e++) {
    const s = lookup.source(e);
    const t = lookup.destination(e);
    if (s < 0 || t < 0) {
      if (!rows) {
        rows = new Int32Array(edgeCount);
        for (let k = 0; k < drawn; k++) rows[k] = k;
      }
      continue;
    }
    links[drawn * 2] = s;
    links[drawn * 2 + 1] = t;
    if (rows) rows[drawn] = e;
    degree[s] = (degree[s] ?? 0) + 1;
    degree[t] = (degree[t] ?? 0) + 1;
    drawn++;
  }
  return {
    nodeCount,
    links: drawn === edgeCount ? links : links.slice(0, drawn * 2),
    linkRows: rows ? rows.slice(0, drawn) : undefined,
    degree,
    dropped: edgeCount - drawn,
  };
}

type Lookup = { source(e: number): number; destination(e: number): number };

function createLookup(nodeKeys: Keys, sources: Keys, destinations: Keys): Lookup {
  const numeric = nodeKeys instanceof Float64Array && sources instanceof Float64Array && destinations instanceof Float64Array;
  if (numeric && isIdentity(nodeKeys)) {
    const n = nodeKeys.length;
    const at = (keys: Float64Array, e: number) => {
      const k = keys[e] ?? -1;
      return k >= 0 && k < n && Number.isInteger(k) ? k : -1;
    };
    return { source: (e) => at(sources, e), destination: (e) => at(destinations, e) };
  }
  if (numeric) {
    const index = new Map<number, number>();
    for (let i = 0; i < nodeKeys.length; i++) if (!index.has(nodeKeys[i] ?? Number.NaN)) index.set(nodeKeys[i] ?? Number.NaN, i);
    return { source: (e) => index.get(sources[e] ?? Number.NaN) ?? -1, destination: (e) => index.get(destinations[e] ?? Number.NaN) ?? -1 };
  }
  // Mixed or text ids meet as text (a whole number as "1", the way the server casts ids).
  const index = new Map<string, number>();
  for (let i = 0; i < nodeKeys.length; i++) {
    const key = textKey(nodeKeys, i);
    if (key !== null && !index.has(key)) index.set(key, i);
  }
  const find = (keys: Keys, e: number) => {
    const key = textKey(keys, e);
    return key === null ? -1 : (index.get(key) ?? -1);
  };
  return { source: (e) => find(sources, e), destination: (e) => find(destinations, e) };
}

function textKey(keys: Keys, i: number): string | null {
  const value = keys[i];
  if (value === undefined || value === null) return null;
  return typeof value === "number" ? (Number.isNaN(value) ? null : String(value)) : value;
}

/** Node ids 0..n-1 in order: an edge's endpoint is its own index, no map needed. */
function isIdentity(keys: Float64Array): boolean {
  for (let i = 0; i < keys.length; i++) if (keys[i] !== i) return false;
  return true;
}
