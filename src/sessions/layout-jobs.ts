// A session's live layout job: START / PAUSE / RESUME / SET_PARAMS / STOP by any viewer, the job's state as the
// database holds it (so every gateway instance answers the same), commands routed to the instance running it
// (through the bus with REDIS_URL), and the latest frame for a page that connects late.

import { randomBytes } from "node:crypto";
import { hostname } from "node:os";
import type { Viewer } from "../auth/viewer.ts";
import { loadAlgorithms } from "../compute/algorithm-lookup.ts";
import { configuredBackend } from "../compute/compute-pool.ts";
import type { DatasetService } from "../datasets/datasets-service.ts";
import { AppError } from "../errors/app-error.ts";
import type { Logger } from "../server/logger.ts";
import type { Db } from "../store/prisma.ts";
import { type RedisClients, redisUnavailable } from "../store/redis.ts";
import { type ControlMessage, createLayoutBus, type LayoutBus, type LayoutCommandAction } from "./layout-bus.ts";
import { findAnyLayout, type LiveLayout, maxIterOf, parseLiveLayout, parseLiveParams } from "./layout-entry.ts";
import { createLayoutFanout, type FrameListener } from "./layout-fanout.ts";
import { encodeFrame, type LayoutState } from "./layout-frame.ts";
import { createLayoutRunner, DEAD_AFTER_MS } from "./layout-runner.ts";
import type { VizSessionService } from "./viz-sessions.ts";

export const LAYOUT_ACTIONS = ["START", "PAUSE", "RESUME", "SET_PARAMS", "STOP"] as const;
export type LayoutAction = (typeof LAYOUT_ACTIONS)[number];

/** A job as GraphQL answers it. */
export type SessionLayout = {
  sessionId: string;
  state: LayoutState;
  library: string;
  algorithm: string;
  params: Record<string, unknown>;
  iteration: number;
  maxIter: number;
  nodeCount: number;
  error: string | null;
  updatedAt: Date;
};

type JobRow = NonNullable<Awaited<ReturnType<Db["sessionLayoutJob"]["findUnique"]>>>;

/** RUNNING or PAUSED on some instance's thread. */
const held = (row: JobRow) => (row.state === "RUNNING" || row.state === "PAUSED") && row.instanceId !== null;
/**
 * Held by an instance that still beats. `solo`: this instance's id when no Redis links instances (one instance
 * serves live layouts): a row another (earlier) process held is then dead at once.
 */
const live = (row: JobRow, solo?: string) =>
  held(row) && Date.now() - row.heartbeatAt.getTime() < DEAD_AFTER_MS && (solo === undefined || row.instanceId === solo);
/** A RUNNING or PAUSED row whose instance stopped beating: no thread runs it any more. */
const dead = (row: JobRow, solo?: string) => held(row) && !live(row, solo);
/** A job paused so long that its thread was let go (its positions are stored): it reads PAUSED; RESUME starts it again. */
const parked = (row: JobRow) => row.state === "PAUSED" && row.instanceId === null;

/** The job as GraphQL shows it: a dead one reads STOPPED, saying why (RESUME or START runs it again). */
const toLayout = (row: JobRow, solo?: string): SessionLayout => ({
  sessionId: row.sessionId,
  state: dead(row, solo) ? "STOPPED" : (row.state as LayoutState),
  library: row.library,
  algorithm: row.algorithm,
  params: JSON.parse(row.params) as Record<string, unknown>,
  iteration: row.iteration,
  maxIter: row.maxIter,
  nodeCount: row.nodeCount,
  error: dead(row, solo) ? "the gateway instance running this layout stopped; RESUME or START runs it again" : row.error,
  updatedAt: row.updatedAt,
});

/** How long a command waits for the instance running the job to answer. */
const REPLY_MS = 10_000;

export type SessionLayouts = ReturnType<typeof createSessionLayouts>;

export function createSessionLayouts(deps: {
  db: Db;
  sessions: VizSessionService;
  datasets: DatasetService;
  redis: RedisClients | undefined;
  logger: Logger;
  frameMs: number;
  /** A job paused this long lets its thread go. */
  parkMs: number;
}) {
  const { db, sessions, datasets, logger } = deps;
  // Random first: frames carry its first 32 characters, and two instances must never share them.
  const instanceId = `${randomBytes(6).toString("hex")}:${process.pid}:${hostname()}`.slice(0, 32);
  const replies = new Map<string, (error?: { code: string; message: string; field?: string | undefined }) => void>();
  let bus: LayoutBus | undefined;
  if (deps.redis)
    bus = createLayoutBus(deps.redis, instanceId, {
      onFrame: (sessionId, bytes) => fanout.received(sessionId, bytes),
      onControl: (message) => void onControl(message),
    });
  const fanout = createLayoutFanout({ frameMs: deps.frameMs, bus });
  const solo = bus ? undefined : instanceId;
  const isLive = (row: JobRow) => live(row, solo);
  const isDead = (row: JobRow) => dead(row, solo);
  const runner = createLayoutRunner({ db, sessions, fanout, logger, instanceId, parkMs: deps.parkMs });
  /** One control action per session at a time on this instance (two pages pressing START start one job). */
  const locks = new Map<string, Promise<unknown>>();

  function locked<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
    const before = locks.get(sessionId) ?? Promise.resolve();
    const next = before.catch(() => {}).then(work);
    const settled = next.catch(() => {});
    locks.set(sessionId, settled);
    void settled.then(() => {
      if (locks.get(sessionId) === settled) locks.delete(sessionId);
    });
    return next;
  }

  const row = (sessionId: string) => db.sessionLayoutJob.findUnique({ where: { sessionId } });

  async function onControl(message: ControlMessage): Promise<void> {
    if (message.kind === "reply") {
      if (message.to === instanceId) replies.get(message.requestId)?.(message.error);
      return;
    }
    if (message.kind === "latest") {
      const latest = runner.has(message.sessionId) ? fanout.latest(message.sessionId) : undefined;
      if (latest) bus?.publishFrame(message.sessionId, latest, true);
      return;
    }
    if (message.to !== instanceId) return;
    let error: { code: string; message: string } | undefined;
    try {
      await runner.command(message.sessionId, message.action, message.params as Record<string, unknown> | undefined);
    } catch (failure) {
      error = { code: "INTERNAL", message: failure instanceof Error ? failure.message : String(failure) };
    }
    bus?.send({ kind: "reply", to: message.from, requestId: message.requestId, ...(error ? { error } : {}) });
  }

  /** Sends a command to whichever instance runs the job; resolves once it is applied. */
  async function dispatch(job: JobRow, action: LayoutCommandAction, params?: Record<string, unknown>): Promise<void> {
    if (job.instanceId === instanceId || !bus) {
      await runner.command(job.sessionId, action, params);
      return;
    }
    // Redis away: the instance running the job cannot be reached; say so now rather than after REPLY_MS.
    if (deps.redis && !deps.redis.available()) throw redisUnavailable();
    const requestId = randomBytes(8).toString("hex");
    const answered = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        replies.delete(requestId);
        reject(new AppError("UNAVAILABLE", "the gateway instance running this layout did not answer"));
      }, REPLY_MS);
      replies.set(requestId, (error) => {
        clearTimeout(timer);
        replies.delete(requestId);
        if (error) reject(new AppError("INTERNAL", error.message));
        else resolve();
      });
    });
    bus.send({
      kind: "command",
      to: job.instanceId ?? "",
      from: instanceId,
      requestId,
      sessionId: job.sessionId,
      action,
      ...(params ? { params } : {}),
    });
    await answered;
  }

  /** Claims the session's job row for a new run here; undefined when another START won the race. */
  async function claim(sessionId: string, before: JobRow | null, layout: LiveLayout, nodeCount: number, from: number) {
    const data = {
      state: "RUNNING",
      library: layout.entry.library,
      algorithm: layout.entry.name,
      params: JSON.stringify(layout.params),
      directed: layout.directed,
      iteration: from,
      maxIter: maxIterOf(layout.params),
      nodeCount,
      error: null,
      instanceId,
      heartbeatAt: new Date(),
    };
    if (!before) {
      try {
        return await db.sessionLayoutJob.create({ data: { sessionId, ...data } });
      } catch {
        return undefined;
      }
    }
    // Only over the row as read: a START on another instance that got there first wins.
    const claimed = await db.sessionLayoutJob.updateMany({
      where: { sessionId, heartbeatAt: before.heartbeatAt, state: before.state },
      data,
    });
    return claimed.count === 1 ? row(sessionId) : undefined;
  }

  /**
   * Starts `layout` on the session here, from its stored layout (the session's, else the dataset's default);
   * `from`: the iterations an earlier run of the same job did (RESUME of a job whose thread was let go).
   */
  async function begin(viewer: Viewer, sessionId: string, before: JobRow | null, layout: LiveLayout, from = 0) {
    const session = await sessions.get(viewer, sessionId);
    const record = await datasets.getForSession(session.datasetId);
    const paths = datasets.tablePaths(record);
    if (!paths.nodes)
      throw new AppError("INVALID_INPUT", "this dataset has no tables yet: upload its data first", { details: { field: "sessionId" } });
    const stored = await sessions.layout(viewer, sessionId);
    const nodeCount = record.nodeCount ?? 0;
    const claimed = await claim(sessionId, before, layout, nodeCount, from);
    if (!claimed) return row(sessionId);
    let initial: Float32Array | undefined;
    // Start positions the request names (cuGraph's pos_list) win over the stored layout.
    const named = Object.entries(layout.entry.params).some(([name, spec]) => spec.type === "positions" && layout.params[name] != null);
    if (stored && !named && layout.entry.dims === 2 && stored.byteLength === nodeCount * 8) {
      initial = new Float32Array(nodeCount * 2);
      new Uint8Array(initial.buffer).set(stored);
    }
    const bindings = { node: record.nodeEncodings.bindings, edge: record.edgeEncodings.bindings };
    runner.start({
      sessionId,
      datasetId: session.datasetId,
      nodeCount,
      init: {
        nodesPath: paths.nodes,
        edgesPath: paths.edges,
        nodeId: bindings.node.node ?? "node",
        source: bindings.edge.source ?? "source",
        destination: bindings.edge.destination ?? "destination",
        edgeWeight: bindings.edge.edge_weight,
        library: layout.entry.library,
        algorithm: layout.entry.name,
        params: layout.params,
        directed: layout.directed,
        initial,
        backend: configuredBackend(),
        frameMs: deps.frameMs,
        iterationOffset: from,
      },
    });
    await sessions.notify(sessionId, "LAYOUT_JOB");
    return claimed;
  }

  /** The job's own layout again (RESUME of a job whose thread is gone), with its current parameters. */
  function relaunch(job: JobRow): LiveLayout {
    const params = JSON.parse(job.params) as Record<string, unknown>;
    return parseLiveLayout({ libraries: [job.library], alg: job.algorithm, params, directed: job.directed });
  }

  async function control(viewer: Viewer, sessionId: string, action: LayoutAction, layout: unknown): Promise<SessionLayout> {
    await sessions.get(viewer, sessionId);
    await loadAlgorithms();
    const answered = await locked(sessionId, async () => {
      const job = await row(sessionId);
      if (action === "START") {
        if (job && (isLive(job) || parked(job))) return job;
        return begin(viewer, sessionId, job, parseLiveLayout(layout));
      }
      if (!job) throw new AppError("CONFLICT", "no layout was started on this session", { details: { field: "action" } });
      if (action === "SET_PARAMS") {
        const entry = findAnyLayout(job.library, job.algorithm);
        if (!entry) throw new AppError("CONFLICT", `the session's layout ${job.library} ${job.algorithm} no longer runs here`);
        const changed = parseLiveParams(entry, layout);
        if (isLive(job)) await dispatch(job, "SET_PARAMS", changed);
        else {
          const params = { ...(JSON.parse(job.params) as Record<string, unknown>), ...changed };
          await db.sessionLayoutJob.update({ where: { sessionId }, data: { params: JSON.stringify(params), maxIter: maxIterOf(params) } });
          await sessions.notify(sessionId, "LAYOUT_JOB");
        }
        return row(sessionId);
      }
      if (isLive(job)) {
        await dispatch(job, action);
        return row(sessionId);
      }
      // No thread runs it: RESUME starts it again from its stored positions, STOP ends a paused or dead one (its
      // positions were stored when it paused, or stay as last stored); the rest leave it as it is.
      if (action === "RESUME" && job.state !== "DONE") return begin(viewer, sessionId, job, relaunch(job), job.iteration);
      if (action === "STOP" && (parked(job) || isDead(job))) {
        await db.sessionLayoutJob.update({ where: { sessionId }, data: { state: "STOPPED", instanceId: null } });
        await sessions.notify(sessionId, "LAYOUT_JOB");
        return row(sessionId);
      }
      return job;
    });
    if (!answered) throw new AppError("INTERNAL", "the layout job vanished");
    return toLayout(answered, solo);
  }

  async function get(sessionId: string): Promise<SessionLayout | null> {
    const job = await row(sessionId);
    return job ? toLayout(job, solo) : null;
  }

  /**
   * The frame a page connecting now draws first: the running job's latest (asked of the instance running it when
   * it runs elsewhere: it then comes through the subscription), else the finished job's stored positions.
   */
  async function latestFrame(viewer: Viewer, sessionId: string): Promise<Uint8Array | undefined> {
    const latest = fanout.latest(sessionId);
    if (latest) return latest;
    const job = await row(sessionId);
    if (!job) return undefined;
    if (isLive(job) && job.instanceId !== instanceId) {
      // The answer comes through this instance's subscription to the session's frames: let it stand first.
      await bus?.watching(sessionId);
      bus?.send({ kind: "latest", sessionId });
      return undefined;
    }
    if (runner.has(sessionId)) return undefined;
    const stored = await sessions.layout(viewer, sessionId);
    if (!stored || stored.byteLength % 8 !== 0) return undefined;
    const positions = new Float32Array(stored.byteLength / 4);
    new Uint8Array(positions.buffer).set(stored);
    const header = {
      seq: 0,
      nodeCount: positions.length / 2,
      dims: 2,
      iteration: job.iteration,
      maxIter: job.maxIter,
      state: toLayout(job, solo).state,
    };
    return encodeFrame(header, positions);
  }

  return {
    instanceId,
    control,
    get,
    latestFrame,
    subscribe: (sessionId: string, listener: FrameListener) => fanout.subscribe(sessionId, listener),
    async close(): Promise<void> {
      await runner.close();
      fanout.close();
      await bus?.close();
    },
  };
}
