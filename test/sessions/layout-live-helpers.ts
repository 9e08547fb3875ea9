// Live layout suites: a real server on a port (in this process), datasets and sessions through its routes, and a
// page-less WebSocket client of /graph/data/<session>/layout/stream that decodes the frames.
import WebSocket from "ws";
import { loadConfig } from "../../src/config/config.ts";
import { startNodeServer } from "../../src/server/node.ts";
import type { Services } from "../../src/server/services.ts";
import { decodeFrame, type Frame } from "../../src/sessions/layout-frame.ts";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { ADMIN } from "../helpers/gateway.ts";
import { bearer, type Json, postJson } from "../helpers/http.ts";

export type LiveServer = { url: string; services: Services; stop(): Promise<void> };

export async function startLive(env: Record<string, string>): Promise<LiveServer> {
  const config = loadConfig({
    ADMIN_USERNAME: ADMIN.username,
    ADMIN_PASSWORD: ADMIN.password,
    LOG_LEVEL: "silent",
    PORT: "0",
    HOST: "127.0.0.1",
    COMPUTE_BACKEND: "cpu",
    ...env,
  });
  const running = await startNodeServer(config);
  return { url: `http://127.0.0.1:${running.port}`, services: running.gateway.services, stop: () => running.stop("test") };
}

export async function liveDatabase(provider: "sqlite" | "postgres"): Promise<TestDatabase> {
  return createTestDatabase(provider);
}

export async function login(url: string, username = ADMIN.username, password = ADMIN.password): Promise<string> {
  const answer = await postJson(url, "/api-token-auth/", { username, password });
  if (answer.status !== 200) throw new Error(`login failed: ${JSON.stringify(answer.body)}`);
  return String(answer.body.token);
}

export async function gql(url: string, token: string, query: string, variables: Record<string, unknown> = {}): Promise<Json> {
  return (await postJson(url, "/graphql", { query, variables }, bearer(token))).body;
}

/** A user (password `<name>-password`) created by the admin; answers their token. */
export async function createUser(url: string, adminToken: string, username: string): Promise<string> {
  await gql(url, adminToken, "mutation($i: CreateUserInput!) { createUser(input: $i) { id } }", {
    i: { username, password: `${username}-password` },
  });
  return login(url, username, `${username}-password`);
}

/** A dataset of the edges (node ids as numbers), through the file and dataset routes. */
export async function edgeDataset(url: string, token: string, edges: readonly (readonly [number, number])[]): Promise<string> {
  const auth = bearer(token);
  const file = await postJson(url, "/api/v2/files/", { file_type: "csv" }, auth);
  const csv = `s,d\n${edges.map(([s, d]) => `${s},${d}`).join("\n")}\n`;
  await fetch(`${url}/api/v2/upload/files/${file.body.file_id}`, { method: "POST", headers: auth, body: csv });
  const created = await postJson(
    url,
    "/api/v2/upload/datasets/",
    {
      name: "live",
      metadata: {},
      node_encodings: { bindings: {} },
      edge_encodings: { bindings: { source: "s", destination: "d" } },
      edge_files: [file.body.file_id],
    },
    auth,
  );
  if (!created.body.data?.dataset_id) throw new Error(`dataset not created: ${JSON.stringify(created.body)}`);
  return String(created.body.data.dataset_id);
}

export async function openSession(url: string, token: string, datasetId: string): Promise<string> {
  const answer = await gql(url, token, "mutation($d: ID!) { openVizSession(datasetId: $d) { id } }", { d: datasetId });
  return String(answer.data.openVizSession.id);
}

export const JOB_FIELDS = "state library algorithm params iteration maxIter nodeCount error updatedAt";

export async function control(url: string, token: string, sessionId: string, action: string, layout?: unknown): Promise<Json> {
  return gql(
    url,
    token,
    `mutation($s: ID!, $a: SessionLayoutAction!, $l: JSON) { controlSessionLayout(sessionId: $s, action: $a, layout: $l) { ${JOB_FIELDS} } }`,
    {
      s: sessionId,
      a: action,
      l: layout ?? null,
    },
  );
}

export async function layoutJob(url: string, token: string, sessionId: string): Promise<Json> {
  const answer = await gql(url, token, `query($s: ID!) { vizSession(id: $s) { layoutJob { ${JOB_FIELDS} } } }`, { s: sessionId });
  return answer.data?.vizSession?.layoutJob;
}

/** Polls layoutJob until `done` holds (or fails after `ms`). */
export async function waitForJob(url: string, token: string, sessionId: string, done: (job: Json) => boolean, ms = 30_000): Promise<Json> {
  const until = Date.now() + ms;
  for (;;) {
    const job = await layoutJob(url, token, sessionId);
    if (job && done(job)) return job;
    if (Date.now() > until) throw new Error(`layout job never got there: ${JSON.stringify(job)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export type FrameClient = {
  frames: Frame[];
  bytes: number[];
  /** Resolves with the first frame (from index `from` on) that matches. */
  next(match: (frame: Frame) => boolean, from?: number, ms?: number): Promise<Frame>;
  close(): void;
};

/** Opens the stream; rejects with the HTTP status when the upgrade is refused. */
export function streamFrames(url: string, sessionId: string, headers: Record<string, string>): Promise<FrameClient> {
  const ws = new WebSocket(`${url.replace("http", "ws")}/graph/data/${sessionId}/layout/stream`, { headers });
  const frames: Frame[] = [];
  const bytes: number[] = [];
  const waiters = new Set<() => void>();
  ws.on("message", (data: Buffer, isBinary: boolean) => {
    if (!isBinary) throw new Error("the layout stream sent text");
    const frame = decodeFrame(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
    if (!frame) throw new Error("the layout stream sent a message that is not a frame");
    frames.push(frame);
    bytes.push(data.byteLength);
    for (const wake of waiters) wake();
  });
  const client: FrameClient = {
    frames,
    bytes,
    next(match, from = 0, ms = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = frames.slice(from).find(match);
          if (!found) return false;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no matching frame within ${ms} ms (${frames.length} frames)`));
        }, ms);
        if (!check()) waiters.add(check);
      });
    },
    close: () => ws.close(),
  };
  return new Promise((resolve, reject) => {
    ws.once("open", () => resolve(client));
    ws.once("unexpected-response", (_request, response) => reject(new Error(`refused: ${response.statusCode}`)));
    ws.once("error", reject);
  });
}

/** A connected graph of `n` nodes: a ring with chords (seeded), as [source, destination] ids. */
export function ringWithChords(n: number, chords: number, seed = 7): [number, number][] {
  const edges: [number, number][] = [];
  for (let i = 0; i < n; i++) edges.push([i, (i + 1) % n]);
  let state = seed;
  const random = () => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return state / 2 ** 32;
  };
  while (edges.length < n + chords) {
    const a = Math.floor(random() * n);
    const b = Math.floor(random() * n);
    if (a !== b) edges.push([a, b]);
  }
  return edges;
}
