// Test harness for graph.html: a stand-in for the server's layout job on one session. It answers controlSessionLayout
// as the gateway does (START is idempotent while a job runs; PAUSE, STOP and DONE store the positions) and streams
// binary frames (the real header, float32 x,y) to every connected page, moving nodes from a seeded disc to a ring.
import type { WebSocket } from "ws";
import { encodeFrame, type LayoutJobState } from "../../../web/src/layout-frames.ts";
import { mulberry32 } from "../../../web/src/random.ts";

export type LayoutAction = "START" | "PAUSE" | "RESUME" | "SET_PARAMS" | "STOP";

export type SessionLayoutAnswer = {
  state: "RUNNING" | "PAUSED" | "DONE" | "STOPPED" | "FAILED";
  library: string;
  algorithm: string;
  params: Record<string, unknown>;
  iteration: number;
  maxIter: number;
  nodeCount: number;
  error: string | null;
  updatedAt: string;
};

export type LayoutJobOptions = {
  /** Iterations of a job (default 40). */
  maxIter?: number;
  /** Iterations per frame (default 2). */
  step?: number;
  /** Time between frames in ms (default 50); 0 leaves the job still: frames go out only when the test sends them. */
  frameMs?: number;
  /** START fails (the mutation answers an error with this message). */
  failStart?: string;
};

export type LayoutJobFixture = {
  readonly job: SessionLayoutAnswer | null;
  /** Every control the pages sent, in order. */
  readonly controls: { action: LayoutAction; layout: Record<string, unknown> | null }[];
  /** Frames sent, all sockets together. */
  readonly framesSent: number;
  /** The sequence number of the latest frame. */
  readonly seq: number;
  control(action: LayoutAction, layout: Record<string, unknown> | null): SessionLayoutAnswer;
  /** Sends one frame of the current job (or the given positions, at the given iteration) to every page now. */
  sendFrame(positions?: Float32Array, state?: LayoutJobState, iteration?: number): void;
  /** The running job fails with this reason (a failed frame, then the LAYOUT_JOB event). */
  fail(reason: string): void;
  /** A page's stream socket: it gets the latest frame at once when a job exists. */
  connect(socket: WebSocket): void;
  sockets(): number;
  stop(): void;
};

const FA2_DEFAULTS = {
  max_iter: 500,
  outbound_attraction_distribution: true,
  lin_log_mode: false,
  prevent_overlapping: false,
  edge_weight_influence: 1,
  jitter_tolerance: 1,
  barnes_hut_theta: 0.5,
  scaling_ratio: 2,
  strong_gravity_mode: false,
  gravity: 1,
};

/**
 * `store` keeps the final (and paused or stopped) positions as the session's layout; `changed` publishes the
 * LAYOUT_JOB event to every page.
 */
export function createLayoutJobFixture(
  nodeCount: () => number,
  store: (positions: Float32Array) => void,
  changed: () => void,
  options: LayoutJobOptions = {},
): LayoutJobFixture {
  const maxIter = options.maxIter ?? 40;
  const step = options.step ?? 2;
  const frameMs = options.frameMs ?? 50;
  const sockets = new Set<WebSocket>();
  const controls: { action: LayoutAction; layout: Record<string, unknown> | null }[] = [];
  let job: SessionLayoutAnswer | null = null;
  let seq = 0;
  let framesSent = 0;
  let timer: NodeJS.Timeout | undefined;
  let latest: ArrayBuffer | undefined;
  let from = new Float32Array(0);
  let to = new Float32Array(0);

  const positionsAt = (iteration: number) => {
    const t = Math.min(1, iteration / maxIter);
    const out = new Float32Array(from.length);
    for (let i = 0; i < out.length; i++) out[i] = (from[i] ?? 0) * (1 - t) + (to[i] ?? 0) * t;
    return out;
  };

  const broadcast = (positions: Float32Array, state: LayoutJobState) => {
    if (!job) return;
    const n = positions.length / 2;
    latest = encodeFrame({ seq: ++seq, nodeCount: n, dims: 2, iteration: job.iteration, maxIter: job.maxIter, state, positions });
    for (const socket of sockets) {
      socket.send(latest);
      framesSent++;
    }
  };

  const touch = (state: SessionLayoutAnswer["state"]) => {
    if (!job) return;
    job = { ...job, state, updatedAt: new Date().toISOString() };
    changed();
  };

  const halt = () => {
    if (timer) clearInterval(timer);
    timer = undefined;
  };

  const run = () => {
    halt();
    if (frameMs <= 0) return;
    timer = setInterval(() => {
      if (job?.state !== "RUNNING") return halt();
      job = { ...job, iteration: Math.min(job.maxIter, job.iteration + step) };
      const positions = positionsAt(job.iteration);
      if (job.iteration >= job.maxIter) {
        halt();
        job = { ...job, state: "DONE" };
        store(positions);
        broadcast(positions, "done");
        touch("DONE");
        return;
      }
      broadcast(positions, "running");
    }, frameMs);
  };

  const start = (layout: Record<string, unknown> | null) => {
    const n = nodeCount();
    const random = mulberry32(n + 7);
    from = new Float32Array(n * 2);
    to = new Float32Array(n * 2);
    for (let i = 0; i < n; i++) {
      const r = 100 * Math.sqrt(random());
      const a = random() * Math.PI * 2;
      from[i * 2] = r * Math.cos(a);
      from[i * 2 + 1] = r * Math.sin(a);
      to[i * 2] = 300 * Math.cos((i / n) * Math.PI * 2);
      to[i * 2 + 1] = 300 * Math.sin((i / n) * Math.PI * 2);
    }
    const params = { ...FA2_DEFAULTS, ...((layout?.params as Record<string, unknown> | undefined) ?? {}) };
    job = {
      state: "RUNNING",
      library: "cugraph",
      algorithm: "force_atlas2",
      params,
      iteration: 0,
      maxIter,
      nodeCount: n,
      error: null,
      updatedAt: new Date().toISOString(),
    };
    seq = 0;
    changed();
    broadcast(positionsAt(0), "running");
    run();
  };

  return {
    get job() {
      return job;
    },
    controls,
    get framesSent() {
      return framesSent;
    },
    get seq() {
      return seq;
    },
    control(action, layout) {
      controls.push({ action, layout });
      if (action === "START") {
        if (options.failStart) throw new Error(options.failStart);
        if (!job || (job.state !== "RUNNING" && job.state !== "PAUSED")) start(layout);
      } else if (!job) throw new Error("this session has no layout job");
      else if (action === "PAUSE" && job.state === "RUNNING") {
        halt();
        job = { ...job, state: "PAUSED" };
        store(positionsAt(job.iteration));
        broadcast(positionsAt(job.iteration), "paused");
        touch("PAUSED");
      } else if (action === "RESUME" && job.state === "PAUSED") {
        job = { ...job, state: "RUNNING" };
        touch("RUNNING");
        run();
      } else if (action === "SET_PARAMS") {
        job = { ...job, params: { ...job.params, ...((layout?.params as Record<string, unknown> | undefined) ?? {}) } };
        touch(job.state);
      } else if (action === "STOP" && (job.state === "RUNNING" || job.state === "PAUSED")) {
        halt();
        job = { ...job, state: "STOPPED" };
        store(positionsAt(job.iteration));
        broadcast(positionsAt(job.iteration), "stopped");
        touch("STOPPED");
      }
      if (!job) throw new Error("no job");
      return job;
    },
    sendFrame(positions, state = "running", iteration) {
      if (job && iteration !== undefined) job = { ...job, iteration };
      broadcast(positions ?? positionsAt(job?.iteration ?? 0), state);
    },
    fail(reason) {
      if (!job) return;
      halt();
      job = { ...job, state: "FAILED", error: reason };
      broadcast(positionsAt(job.iteration), "failed");
      touch("FAILED");
    },
    connect(socket) {
      sockets.add(socket);
      socket.on("close", () => sockets.delete(socket));
      if (latest && job) socket.send(latest);
    },
    sockets: () => sockets.size,
    stop() {
      halt();
      for (const socket of sockets) socket.terminate();
      sockets.clear();
    },
  };
}
