// Runs the live layout jobs this instance holds: one worker thread each (never the event loop), its frames to the
// fan-out, its state changes to the database (only while the row still names this instance), the positions stored
// on PAUSE, STOP and DONE (and on DONE as the dataset's default layout), a heartbeat every 2 s.
import { Worker } from "node:worker_threads";
import type { Logger } from "../server/logger.ts";
import type { Db } from "../store/prisma.ts";
import { maxIterOf } from "./layout-entry.ts";
import type { LayoutFanout } from "./layout-fanout.ts";
import { FRAME_HEADER_BYTES, type LayoutState, writeHeader } from "./layout-frame.ts";
import type { FrameReason, LayoutThreadCommand, LayoutThreadInit, LayoutThreadReply } from "./layout-thread-messages.ts";
import type { VizSessionService } from "./viz-sessions.ts";

const ENTRY = new URL("./layout-worker.ts", import.meta.url);
export const HEARTBEAT_MS = 2_000;
/** A RUNNING or PAUSED job whose heartbeat is older than this counts as dead (its instance is gone). */
export const DEAD_AFTER_MS = 10_000;

export type LocalJobStart = {
  sessionId: string;
  datasetId: string;
  init: LayoutThreadInit;
  nodeCount: number;
};

type Waiter = { reason: FrameReason; resolve: () => void };

type Job = {
  sessionId: string;
  datasetId: string;
  worker: Worker;
  state: LayoutState;
  iteration: number;
  maxIter: number;
  params: Record<string, unknown>;
  dims: number;
  seq: number;
  positions: Float32Array | undefined;
  /** The latest frame's bytes (positions in place); its header is written when it is emitted. */
  frame: Uint8Array | undefined;
  frameSent: boolean;
  waiting: Waiter[];
  chain: Promise<void>;
  heartbeat: ReturnType<typeof setInterval>;
  /** While paused: when the thread is let go. */
  park: ReturnType<typeof setTimeout> | undefined;
  ended: boolean;
};

export type LayoutRunner = ReturnType<typeof createLayoutRunner>;

/** x,y float32 pairs of node-major positions (the stored layout's format). */
function xyBytes(positions: Float32Array, dims: number): Uint8Array {
  if (dims === 2) return new Uint8Array(positions.buffer, positions.byteOffset, positions.byteLength);
  const n = positions.length / dims;
  const xy = new Float32Array(n * 2);
  for (let i = 0; i < n; i++) {
    xy[i * 2] = positions[i * dims] as number;
    xy[i * 2 + 1] = positions[i * dims + 1] as number;
  }
  return new Uint8Array(xy.buffer);
}

export function createLayoutRunner(deps: {
  db: Db;
  sessions: VizSessionService;
  fanout: LayoutFanout;
  logger: Logger;
  instanceId: string;
  /** A job paused this long lets its thread go: the row keeps PAUSED without an instance (layout-jobs.ts). */
  parkMs: number;
}) {
  const { db, sessions, fanout, logger, instanceId } = deps;
  const jobs = new Map<string, Job>();

  /** Writes to the job's row while it is still this instance's. */
  const update = (job: Job, data: Record<string, unknown>) =>
    db.sessionLayoutJob.updateMany({ where: { sessionId: job.sessionId, instanceId }, data });

  function emit(job: Job): void {
    if (!job.positions || !job.frame) return;
    job.seq += 1;
    const header = {
      seq: job.seq,
      nodeCount: job.positions.length / job.dims,
      dims: job.dims,
      iteration: job.iteration,
      maxIter: job.maxIter,
      state: job.state,
    };
    // A frame already sent keeps its header: a repeat (FAILED after the last frame) goes as a copy.
    const bytes = job.frameSent ? job.frame.slice() : job.frame;
    job.frameSent = true;
    fanout.publish(job.sessionId, writeHeader(bytes, header));
  }

  function settle(job: Job, reason: FrameReason | "all"): void {
    const index = reason === "all" ? -1 : job.waiting.findIndex((w) => w.reason === reason);
    if (reason === "all") for (const waiter of job.waiting.splice(0)) waiter.resolve();
    else if (index >= 0) job.waiting.splice(index, 1)[0]?.resolve();
  }

  /** Runs the job's database and storage work in order, then wakes whoever waits for `reason`. */
  function then(job: Job, reason: FrameReason | "all", work: () => Promise<unknown>): void {
    job.chain = job.chain
      .then(work)
      .catch((error: unknown) => logger.error("live layout bookkeeping failed", { sessionId: job.sessionId, error: String(error) }))
      .then(() => settle(job, reason));
  }

  function end(job: Job): void {
    if (job.ended) return;
    job.ended = true;
    clearInterval(job.heartbeat);
    if (job.park) clearTimeout(job.park);
    if (jobs.get(job.sessionId) === job) jobs.delete(job.sessionId);
    fanout.ended(job.sessionId);
    void job.worker.terminate().catch(() => {});
    // Commands the thread will no longer answer: their callers read the row as it ends up.
    job.chain = job.chain.then(() => settle(job, "all"));
  }

  function onFrame(job: Job, reason: FrameReason, iteration: number, frame: Uint8Array): void {
    const positions = new Float32Array(frame.buffer, frame.byteOffset + FRAME_HEADER_BYTES, (frame.byteLength - FRAME_HEADER_BYTES) / 4);
    job.iteration = iteration;
    job.positions = positions;
    job.frame = frame;
    job.frameSent = false;
    if (job.park) clearTimeout(job.park);
    job.park = undefined;
    if (reason === "pause") job.state = "PAUSED";
    else if (reason === "resume") job.state = "RUNNING";
    else if (reason === "stop") job.state = "STOPPED";
    else if (reason === "done") job.state = "DONE";
    emit(job);
    const stored = () => sessions.storeLayout(job.sessionId, xyBytes(positions, job.dims));
    const state = { state: job.state, iteration, maxIter: job.maxIter, heartbeatAt: new Date() };
    const notify = () => sessions.notify(job.sessionId, "LAYOUT_JOB");
    if (reason === "tick") return;
    if (reason === "pause" || reason === "stop")
      then(job, reason, async () => {
        await stored();
        await update(job, state);
        await notify();
      });
    else if (reason === "resume")
      then(job, reason, async () => {
        await update(job, state);
        await notify();
      });
    else if (reason === "params")
      then(job, reason, async () => {
        await update(job, { ...state, params: JSON.stringify(job.params) });
        await notify();
      });
    else if (reason === "done")
      then(job, "all", async () => {
        await stored();
        await sessions.storeDatasetLayout(job.datasetId, xyBytes(positions, job.dims));
        await update(job, state);
        await notify();
      });
    if (reason === "stop" || reason === "done") end(job);
    if (job.state === "PAUSED" && !job.ended) {
      job.park = setTimeout(() => park(job), deps.parkMs);
      job.park.unref();
    }
  }

  /** Lets a long-paused job's thread go; its positions were stored when it paused. */
  function park(job: Job): void {
    if (job.ended || job.state !== "PAUSED") return;
    then(job, "all", () => update(job, { instanceId: null, heartbeatAt: new Date() }));
    end(job);
  }

  function onFailure(job: Job, message: string): void {
    if (job.ended) return;
    job.state = "FAILED";
    emit(job);
    then(job, "all", async () => {
      await update(job, { state: "FAILED", error: message, iteration: job.iteration, heartbeatAt: new Date() });
      await sessions.notify(job.sessionId, "LAYOUT_JOB");
    });
    end(job);
  }

  function start(spec: LocalJobStart): void {
    const previous = jobs.get(spec.sessionId);
    if (previous) end(previous);
    fanout.reset(spec.sessionId);
    const { init } = spec;
    const worker = new Worker(ENTRY, { workerData: init, ...(init.initial ? { transferList: [init.initial.buffer as ArrayBuffer] } : {}) });
    worker.unref();
    const job: Job = {
      sessionId: spec.sessionId,
      datasetId: spec.datasetId,
      worker,
      state: "RUNNING",
      iteration: init.iterationOffset ?? 0,
      maxIter: maxIterOf(init.params),
      params: { ...init.params },
      dims: 2,
      seq: 0,
      positions: undefined,
      frame: undefined,
      frameSent: false,
      waiting: [],
      chain: Promise.resolve(),
      park: undefined,
      heartbeat: setInterval(() => {
        void update(job, { heartbeatAt: new Date(), iteration: job.iteration })
          .then((result) => {
            // Another instance restarted it (this one was thought dead): stop quietly.
            if (result.count === 0) end(job);
          })
          .catch(() => {});
      }, HEARTBEAT_MS),
      ended: false,
    };
    job.heartbeat.unref();
    jobs.set(spec.sessionId, job);
    worker.on("message", (reply: LayoutThreadReply) => {
      if (job.ended) return;
      if (reply.type === "ready") job.dims = reply.dims;
      else if (reply.type === "frame") onFrame(job, reply.reason, reply.iteration, reply.frame);
      else onFailure(job, reply.field ? `${reply.field}: ${reply.message}` : reply.message);
    });
    worker.on("error", (error) => onFailure(job, error.message));
    worker.on("exit", () => onFailure(job, "the layout thread ended"));
  }

  /** Sends a command to the job's thread; resolves once its answer is stored and published (or the job ended). */
  function command(sessionId: string, action: "PAUSE" | "RESUME" | "SET_PARAMS" | "STOP", params?: Record<string, unknown>): Promise<void> {
    const job = jobs.get(sessionId);
    if (!job) return Promise.resolve();
    const message: LayoutThreadCommand =
      action === "PAUSE"
        ? { type: "pause" }
        : action === "RESUME"
          ? { type: "resume" }
          : action === "STOP"
            ? { type: "stop" }
            : { type: "params", params: params ?? {} };
    if (message.type === "params") {
      job.params = { ...job.params, ...message.params };
      job.maxIter = maxIterOf(job.params);
    }
    const reason: FrameReason = message.type;
    return new Promise<void>((resolve) => {
      job.waiting.push({ reason, resolve });
      job.worker.postMessage(message);
    }).then(() => job.chain);
  }

  return {
    start,
    command,
    has: (sessionId: string) => jobs.has(sessionId),
    /** Stops every job (their positions stored), then ends the threads. */
    async close(): Promise<void> {
      const all = [...jobs.values()];
      await Promise.race([
        Promise.allSettled(all.map((job) => command(job.sessionId, "STOP"))),
        new Promise((resolve) => setTimeout(resolve, 3_000).unref()),
      ]);
      for (const job of all) end(job);
    },
  };
}
