// Test harness for graph.html: serves the built page, the session's data routes, a minimal /graphql (HTTP and ws) and
// the session's layout stream (a stand-in layout job sending binary frames).
import { readFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { extname, join, normalize } from "node:path";
import { tableToIPC } from "apache-arrow";
import { buildSchema, graphql } from "graphql";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer } from "ws";
import { type GraphFixture, rowObject, sessionAnswer } from "./graph-fixture.ts";
import { createLayoutJobFixture, type LayoutAction, type LayoutJobFixture, type LayoutJobOptions } from "./layout-job-fixture.ts";

const SDL = `
scalar JSON
type Revision { id: ID! number: Int! }
type TableSchema { numRows: Int! dtypes: JSON! }
type DatasetTables { nodes: TableSchema edges: TableSchema }
type Dataset { id: ID! name: String! dataVersion: String layout: JSON nodeEncodings: JSON! edgeEncodings: JSON! fieldFilters: JSON! tables: DatasetTables! }
type Collection { id: ID! name: String! description: String position: Int! color: String! matchCount: Int nodeCount: Int
  edgeCount: Int matchesUrl: String updatedAt: String }
enum SessionLayoutState { RUNNING PAUSED DONE STOPPED FAILED }
enum SessionLayoutAction { START PAUSE RESUME SET_PARAMS STOP }
type SessionLayout { state: SessionLayoutState! library: String! algorithm: String! params: JSON! iteration: Int! maxIter: Int!
  nodeCount: Int! error: String updatedAt: String! }
type VizSession { id: ID! revision: Revision! isOwner: Boolean! dataset: Dataset! collections: [Collection!]! layoutJob: SessionLayout
  filters: JSON encodings: JSON }
type SessionChange { kind: String! revision: Revision collections: [Collection!] }
type Query { vizSession(id: ID!): VizSession }
type Mutation { controlSessionLayout(sessionId: ID!, action: SessionLayoutAction!, layout: JSON): SessionLayout!
  setSessionFilters(sessionId: ID!, filters: JSON!): VizSession! setSessionEncodings(sessionId: ID!, encodings: JSON!): VizSession! }
type Subscription { vizSessionChanged(id: ID!): SessionChange! }
`;

export type SessionChangeFixture = { kind: string; revision: { id: string; number: number } | null };

export type PageServer = {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** The page's URL for the fixture's session. */
  pageUrl: string;
  fixture: GraphFixture;
  /** Every request path (with query) the page made, in order. */
  requests: string[];
  /** Layouts the page stored with PUT, newest last. */
  layoutPuts: Float32Array[];
  /** Sends a live event to every subscribed page. */
  publish(change: SessionChangeFixture): void;
  /** The session's layout job: its state, the controls pages sent, and frames on demand. */
  layoutJob: LayoutJobFixture;
  close(): Promise<void>;
};

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".map": "application/json",
  ".svg": "image/svg+xml",
};

export async function startPageServer(distDir: string, fixture: GraphFixture, layoutOptions?: LayoutJobOptions): Promise<PageServer> {
  const schema = buildSchema(SDL);
  const requests: string[] = [];
  const layoutPuts: Float32Array[] = [];
  const listeners = new Set<(change: SessionChangeFixture) => void>();
  // Arrow IPC of the whole tables' columns, cached per column list (the benchmark asks for big ones repeatedly).
  const ipcCache = new Map<string, Uint8Array>();

  const publish = (change: SessionChangeFixture) => {
    ipcCache.clear();
    for (const listener of listeners) listener(change);
  };
  const layoutJob = createLayoutJobFixture(
    () => fixture.nodes.numRows,
    (positions) => {
      fixture.layout = positions;
    },
    () => publish({ kind: "LAYOUT_JOB", revision: fixture.revision }),
    layoutOptions,
  );
  const root = {
    vizSession: ({ id }: { id: string }) =>
      id === fixture.sessionId ? { ...sessionAnswer(fixture), collections: [], layoutJob: layoutJob.job } : null,
    controlSessionLayout: ({
      sessionId,
      action,
      layout,
    }: {
      sessionId: string;
      action: LayoutAction;
      layout?: Record<string, unknown> | null;
    }) => {
      if (sessionId !== fixture.sessionId) throw new Error("no such session");
      return layoutJob.control(action, layout ?? null);
    },
  };
  const subscriptionRoot = {
    vizSessionChanged: ({ id }: { id: string }) => changes(id === fixture.sessionId ? listeners : new Set()),
  };

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://harness");
    requests.push(url.pathname + url.search);
    if (url.pathname === "/graphql" && request.method === "POST") {
      const body = JSON.parse((await readBody(request)).toString("utf8")) as { query: string; variables?: Record<string, unknown> };
      const result = await graphql({ schema, source: body.query, rootValue: root, variableValues: body.variables ?? {} });
      return send(response, 200, "application/json", JSON.stringify(result));
    }
    const data = /^\/graph\/data\/([^/]+)\/(.+)$/.exec(url.pathname);
    if (data) {
      if (decodeURIComponent(data[1] ?? "") !== fixture.sessionId) return send(response, 404, "text/plain", "no such session");
      return dataRoute(data[2] ?? "", url, request, response);
    }
    if (url.pathname.startsWith("/graph/")) return staticFile(url.pathname.slice("/graph/".length), response);
    return send(response, 404, "text/plain", "not found");
  };

  const dataRoute = async (rest: string, url: URL, request: IncomingMessage, response: ServerResponse) => {
    const table = /^(nodes|edges)\.arrow$/.exec(rest);
    if (table && request.method === "GET") {
      const source = table[1] === "nodes" ? fixture.nodes : fixture.edges;
      const names = (url.searchParams.get("columns") ?? "").split(",").filter(Boolean);
      const missing = names.filter((name) => !source.schema.fields.some((field) => field.name === name));
      if (names.length === 0 || missing.length > 0) return send(response, 400, "text/plain", `unknown columns: ${missing.join(",")}`);
      const key = `${table[1]}:${names.join(",")}`;
      let bytes = ipcCache.get(key);
      if (!bytes) {
        bytes = tableToIPC(source.select(names), "stream");
        ipcCache.set(key, bytes);
      }
      return send(response, 200, "application/vnd.apache.arrow.stream", bytes);
    }
    const row = /^(nodes|edges)\/row\/(\d+)$/.exec(rest);
    if (row && request.method === "GET") {
      const found = rowObject(row[1] === "nodes" ? fixture.nodes : fixture.edges, Number(row[2]));
      return found ? send(response, 200, "application/json", JSON.stringify(found)) : send(response, 404, "text/plain", "no such row");
    }
    if (rest === "layout" && request.method === "GET") {
      if (!fixture.layout) return send(response, 204, "text/plain", "");
      return send(
        response,
        200,
        "application/octet-stream",
        new Uint8Array(fixture.layout.buffer, fixture.layout.byteOffset, fixture.layout.byteLength),
      );
    }
    if (rest === "layout" && request.method === "PUT") {
      if (!fixture.isOwner) return send(response, 403, "text/plain", "only the owner stores layouts");
      const bytes = await readBody(request);
      const copy = new Float32Array(bytes.byteLength / 4);
      new Uint8Array(copy.buffer).set(bytes);
      layoutPuts.push(copy);
      fixture.layout = copy;
      return send(response, 204, "text/plain", "");
    }
    return send(response, 404, "text/plain", "not found");
  };

  const staticFile = async (path: string, response: ServerResponse) => {
    const file = normalize(join(distDir, path));
    if (!file.startsWith(normalize(distDir))) return send(response, 403, "text/plain", "outside");
    try {
      const bytes = await readFile(file);
      return send(response, 200, TYPES[extname(file)] ?? "application/octet-stream", bytes);
    } catch {
      return send(response, 404, "text/plain", "not found");
    }
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => send(response, 500, "text/plain", String(error)));
  });
  // Two WebSocket routes on one port: graphql-ws on /graphql and the layout stream; each upgrade goes to its own.
  const sockets = new WebSocketServer({ noServer: true });
  const streams = new WebSocketServer({ noServer: true });
  const streamPath = `/graph/data/${encodeURIComponent(fixture.sessionId)}/layout/stream`;
  server.on("upgrade", (request, socket, head) => {
    const path = new URL(request.url ?? "/", "http://harness").pathname;
    requests.push(`${path} (websocket)`);
    if (path === "/graphql") sockets.handleUpgrade(request, socket, head, (ws) => sockets.emit("connection", ws, request));
    else if (path === streamPath) streams.handleUpgrade(request, socket, head, (ws) => layoutJob.connect(ws));
    else socket.destroy();
  });
  const wsServer = useServer({ schema, roots: { query: root, mutation: root, subscription: subscriptionRoot } }, sockets);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    origin,
    pageUrl: `${origin}/graph/graph.html?dataset=${encodeURIComponent(fixture.datasetId)}&session=${encodeURIComponent(fixture.sessionId)}`,
    fixture,
    requests,
    layoutPuts,
    publish,
    layoutJob,
    async close() {
      layoutJob.stop();
      await wsServer.dispose();
      for (const client of sockets.clients) client.terminate();
      sockets.close();
      streams.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An async stream of events for one subscriber, as graphql-js subscriptions expect. */
async function* changes(
  listeners: Set<(change: SessionChangeFixture) => void>,
): AsyncGenerator<{ vizSessionChanged: SessionChangeFixture }> {
  const queue: SessionChangeFixture[] = [];
  let wake: (() => void) | undefined;
  const listener = (change: SessionChangeFixture) => {
    queue.push(change);
    wake?.();
  };
  listeners.add(listener);
  try {
    while (true) {
      const next = queue.shift();
      if (next) {
        yield { vizSessionChanged: next };
        continue;
      }
      await new Promise<void>((resolve) => {
        wake = resolve;
      });
      wake = undefined;
    }
  } finally {
    listeners.delete(listener);
  }
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function send(response: ServerResponse, status: number, type: string, body: string | Uint8Array): void {
  if (response.headersSent) return;
  response.writeHead(status, { "content-type": type, "cache-control": "no-store" });
  response.end(body);
}
