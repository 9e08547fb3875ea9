// Test harness for graph.html: builds a session's node and edge tables (Arrow) and its Session answer.
import { Float64, Int32, Table, Utf8, type Vector, vectorFromArray } from "apache-arrow";
import { mulberry32 } from "../../../web/src/random.ts";

export type FieldFilterFixture = {
  kind: "inclusion" | "exclusion";
  graphType: "point" | "edge";
  attribute?: string;
  global: Record<string, boolean>;
  byType: Record<string, Record<string, boolean>>;
  showNulls?: boolean;
};

export type GraphFixture = {
  sessionId: string;
  datasetId: string;
  name: string;
  isOwner: boolean;
  revision: { id: string; number: number };
  nodes: Table;
  edges: Table;
  nodeBindings: Record<string, string>;
  edgeBindings: Record<string, string>;
  fieldFilters: FieldFilterFixture[];
  /** The layout the session holds, x,y per node (undefined: GET layout answers 204). */
  layout: Float32Array | undefined;
  /** Dataset.layout: the layout the dataset was created with (its node table then has x and y), else absent. */
  datasetLayout?: unknown;
};

/** pandas-style dtype names for the Session answer, from the Arrow types. */
export function dtypesOf(table: Table): Record<string, string> {
  const out: Record<string, string> = {};
  for (const field of table.schema.fields) {
    const type = String(field.type);
    out[field.name] = /^Int32/.test(type)
      ? "int32"
      : /^Int64/.test(type)
        ? "int64"
        : /^Float64/.test(type)
          ? "float64"
          : /^Dictionary/.test(type)
            ? "category"
            : /^Timestamp/.test(type)
              ? "datetime64[ms]"
              : "object";
  }
  return out;
}

/** The vizSession object of the Session query, as the gateway answers it. */
export function sessionAnswer(fixture: GraphFixture) {
  return {
    id: fixture.sessionId,
    revision: fixture.revision,
    isOwner: fixture.isOwner,
    dataset: {
      id: fixture.datasetId,
      name: fixture.name,
      dataVersion: "v1",
      layout: fixture.datasetLayout ?? null,
      nodeEncodings: { bindings: fixture.nodeBindings },
      edgeEncodings: { bindings: fixture.edgeBindings },
      fieldFilters: fixture.fieldFilters,
      tables: {
        nodes: { numRows: fixture.nodes.numRows, dtypes: dtypesOf(fixture.nodes) },
        edges: { numRows: fixture.edges.numRows, dtypes: dtypesOf(fixture.edges) },
      },
    },
  };
}

const PEOPLE = ["Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot", "Golf", "Hotel", "India", "Juliet", "Kilo", "Lima"];

/**
 * A small social-and-servers graph: people (type "person") and servers (type "server") in three groups, with a
 * node inclusion filter (global rules, and separate rules for servers) and an edge exclusion filter.
 */
export function smallGraphFixture(): GraphFixture {
  const count = 36;
  const ids: number[] = [];
  const names: string[] = [];
  const types: string[] = [];
  const groups: string[] = [];
  const scores: number[] = [];
  const secrets: string[] = [];
  const ips: (string | null)[] = [];
  const notes: (string | null)[] = [];
  for (let i = 0; i < count; i++) {
    const server = i % 6 === 5;
    ids.push(1000 + i);
    names.push(i === 7 ? "Zeta Prime" : server ? `srv-${i}` : `${PEOPLE[i % PEOPLE.length]} ${i}`);
    types.push(server ? "server" : "person");
    groups.push(["red team", "blue team", "green team"][i % 3] ?? "red team");
    scores.push(((i * 37) % 100) / 10);
    secrets.push(`s3cr3t-${i}`);
    ips.push(server ? `10.0.0.${i}` : null);
    notes.push(i % 4 === 0 ? null : `note ${i}`);
  }
  const sources: number[] = [];
  const destinations: number[] = [];
  const weights: number[] = [];
  const internal: string[] = [];
  for (let i = 0; i < count; i++) {
    // A ring inside each group plus a few links across groups.
    const next = (i + 3) % count;
    sources.push(1000 + i);
    destinations.push(1000 + next);
    weights.push(1 + (i % 5));
    internal.push(`edge-${i}`);
    if (i % 5 === 0) {
      sources.push(1000 + i);
      destinations.push(1000 + ((i + 1) % count));
      weights.push(0.5);
      internal.push(`cross-${i}`);
    }
  }
  return {
    sessionId: "session-small",
    datasetId: "dataset-small",
    name: "Harness graph",
    isOwner: true,
    revision: { id: "rev-1", number: 1 },
    nodes: new Table({
      id: vectorFromArray(ids, new Int32()),
      name: vectorFromArray(names, new Utf8()),
      type: vectorFromArray(types),
      group: vectorFromArray(groups, new Utf8()),
      score: vectorFromArray(scores, new Float64()),
      secret: vectorFromArray(secrets, new Utf8()),
      ip: vectorFromArray(ips, new Utf8()),
      note: vectorFromArray(notes, new Utf8()),
    }),
    edges: new Table({
      src: vectorFromArray(sources, new Int32()),
      dst: vectorFromArray(destinations, new Int32()),
      weight: vectorFromArray(weights, new Float64()),
      internal_id: vectorFromArray(internal, new Utf8()),
    }),
    nodeBindings: { node: "id", node_label: "name", node_color: "group", node_size: "score" },
    edgeBindings: { source: "src", destination: "dst", edge_weight: "weight" },
    fieldFilters: [
      {
        kind: "inclusion",
        graphType: "point",
        global: { name: true, type: true, group: true, score: true, note: true, secret: false },
        byType: { server: { name: true, ip: true } },
      },
      { kind: "exclusion", graphType: "edge", global: { internal_id: true }, byType: {} },
    ],
    layout: undefined,
  };
}

/**
 * A random graph for the benchmark: `edges` links over edges/2 nodes in 20 communities, a category color, a numeric
 * size, non-sequential integer ids (so the page maps ids, as it would for real data), and a saved layout.
 */
export function randomGraphFixture(edgeCount: number, withLayout: boolean): GraphFixture {
  const nodeCount = Math.max(2, Math.floor(edgeCount / 2));
  const random = mulberry32(edgeCount);
  const ids = new Int32Array(nodeCount);
  const community = new Array<string>(nodeCount);
  const size = new Float64Array(nodeCount);
  for (let i = 0; i < nodeCount; i++) {
    ids[i] = i * 7 + 3;
    community[i] = `c${i % 20}`;
    size[i] = random() * 10;
  }
  const src = new Int32Array(edgeCount);
  const dst = new Int32Array(edgeCount);
  for (let e = 0; e < edgeCount; e++) {
    const a = Math.floor(random() * nodeCount);
    // Mostly inside the community, sometimes across.
    const b = random() < 0.8 ? (a + 20 * Math.floor(random() * 50 + 1)) % nodeCount : Math.floor(random() * nodeCount);
    src[e] = ids[a] ?? 3;
    dst[e] = ids[b] ?? 3;
  }
  let layout: Float32Array | undefined;
  if (withLayout) {
    layout = new Float32Array(nodeCount * 2);
    for (let i = 0; i < nodeCount; i++) {
      const c = i % 20;
      const r = 300 * Math.sqrt(random());
      const a = random() * Math.PI * 2;
      layout[i * 2] = 2048 + 1200 * Math.cos((c / 20) * Math.PI * 2) + r * Math.cos(a);
      layout[i * 2 + 1] = 2048 + 1200 * Math.sin((c / 20) * Math.PI * 2) + r * Math.sin(a);
    }
  }
  return {
    sessionId: `session-${edgeCount}`,
    datasetId: `dataset-${edgeCount}`,
    name: `Random graph, ${edgeCount.toLocaleString("en-US")} edges`,
    isOwner: true,
    revision: { id: "rev-1", number: 1 },
    nodes: new Table({
      id: vectorFromArray(ids),
      community: vectorFromArray(community, new Utf8()),
      size: vectorFromArray(size),
    }),
    edges: new Table({ src: vectorFromArray(src), dst: vectorFromArray(dst) }),
    nodeBindings: { node: "id", node_color: "community", node_size: "size" },
    edgeBindings: { source: "src", destination: "dst" },
    fieldFilters: [],
    layout,
  };
}

/** One row of a table as the row route answers it: plain JSON values. */
export function rowObject(table: Table, index: number): Record<string, unknown> | undefined {
  if (index < 0 || index >= table.numRows) return undefined;
  const out: Record<string, unknown> = {};
  for (const field of table.schema.fields) {
    const vector = table.getChild(field.name) as Vector | null;
    const value: unknown = vector?.get(index);
    out[field.name] = typeof value === "bigint" ? Number(value) : (value ?? null);
  }
  return out;
}

/** The fixture with a stored layout: its nodes evenly on a ring in the middle of the page's space. */
export function withLayout(fixture: GraphFixture): GraphFixture {
  const n = fixture.nodes.numRows;
  const layout = new Float32Array(n * 2);
  for (let i = 0; i < n; i++) {
    layout[i * 2] = 2048 + 800 * Math.cos((i / n) * Math.PI * 2);
    layout[i * 2 + 1] = 2048 + 800 * Math.sin((i / n) * Math.PI * 2);
  }
  return { ...fixture, layout };
}
