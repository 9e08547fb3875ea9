// Live visualization sessions (spec 2.7, 3.4, 4.5): opened from graph.html, shared by id, changes published to viewers.
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { VizSession } from "../../prisma/generated/sqlite/client.ts";
import { mayChangeRecord } from "../accounts/roles.ts";
import { isScoped, readOnce, type Viewer } from "../auth/viewer.ts";
import type { DatasetRows } from "../datasets/dataset-rows.ts";
import { AppError } from "../errors/app-error.ts";
import type { BlobStore } from "../store/blobs.ts";
import type { Db } from "../store/prisma.ts";
import type { PubSub } from "../store/pubsub.ts";
import { canViewDataset, SHARING_MODES, type SharingMode } from "./dataset-access.ts";
import { createSessionRows, type SessionRows } from "./session-rows.ts";

/** The owner counts as present while their page was seen within this window. */
const PRESENCE_MS = 60_000;

/** Whether an owner last seen at `seenAt` still counts as present. */
export function ownerPresentAt(seenAt: Date | null): boolean {
  return Boolean(seenAt && Date.now() - seenAt.getTime() < PRESENCE_MS);
}

export type VizSessionEvent = {
  /** RESYNC: sent to one subscriber that may have missed changes (session-changes.ts), never published. */
  kind: "REVISION" | "LAYOUT" | "COLLECTIONS" | "LAYOUT_JOB" | "FILTERS" | "ENCODINGS" | "RESYNC";
  sessionId: string;
  revisionNumber: number;
};

/** The most JSON text a session's shared filters or encodings may hold. */
export const SHARED_STATE_MAX_CHARS = 65_536;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** Parses stored JSON text of shared filters/encodings (null when unset or unreadable). */
export function sharedState(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

export type VizSessionService = ReturnType<typeof createVizSessionService>;

export function createVizSessionService(deps: {
  db: Db;
  blobs: BlobStore;
  pubsub: PubSub;
  datasetRows: DatasetRows;
  /** Session rows kept up to a second (session-rows.ts); read afresh each time when absent. */
  sessionRows?: SessionRows;
}) {
  const { db, blobs, pubsub, datasetRows } = deps;
  const sessionRows = deps.sessionRows ?? createSessionRows(db, 0);

  /**
   * The session row with its dataset's row (kept up to a second, dataset-rows.ts). A tool call's read (a scoped
   * viewer) takes the session row kept up to a second too (session-rows.ts); pages and every other caller read it
   * afresh (a layout or filters another instance has just stored).
   */
  async function lookUp(viewer: Viewer, id: string, revision?: number) {
    const kept = revision === undefined ? undefined : sessionRows.atRevision(id, revision);
    const row = kept ?? (isScoped(viewer) ? await sessionRows.get(id) : await db.vizSession.findUnique({ where: { id } }));
    const dataset = row && (await datasetRows.get(row.datasetId));
    // A session of a dataset the caller may not view reads exactly like a missing one.
    if (!row || !dataset || !(await canViewDataset(db, viewer, dataset))) throw new AppError("NOT_FOUND", `no session with id ${id}`);
    return { ...row, dataset };
  }

  /** The session with its dataset, if the viewer may see it (read once per scope: see readOnce). */
  const viewable = (viewer: Viewer, id: string) => readOnce(viewer, `vizSession:${id}`, () => lookUp(viewer, id));

  async function open(viewer: Viewer, datasetId: string) {
    const dataset = await db.dataset.findUnique({ where: { id: datasetId } });
    if (!dataset || !(await canViewDataset(db, viewer, dataset))) throw new AppError("NOT_FOUND", `no dataset with id ${datasetId}`);
    return db.vizSession.create({
      data: { id: randomBytes(12).toString("hex"), datasetId, ownerId: viewer.userId, ownerSeenAt: new Date() },
    });
  }

  const get = (viewer: Viewer, id: string) => viewable(viewer, id);

  /**
   * The session as a change event of revision `revision` leaves it, for that event's subscribers: the row this
   * process kept from its own write (or read) at that revision or past it serves them all, where each subscriber
   * read the row afresh before (one read per viewer per change); otherwise read as `get` reads it. The access check
   * is the same.
   */
  const getAt = (viewer: Viewer, id: string, revision: number) =>
    readOnce(viewer, `vizSession:${id}@${revision}`, () => lookUp(viewer, id, revision));

  /** The caller's own sessions (a single-use grant's: on its dataset only); administrators see all unless they ask for their own. */
  function list(viewer: Viewer, options: { mine?: boolean } = {}) {
    const everyone = viewer.isAdmin && !options.mine;
    const own = { ownerId: viewer.userId, ...(viewer.grant ? { datasetId: viewer.grant.datasetId } : {}) };
    return db.vizSession.findMany({ where: everyone ? {} : own, orderBy: { createdAt: "desc" }, take: 1000 });
  }

  async function publish(sessionId: string, kind: VizSessionEvent["kind"]) {
    const updated = await db.vizSession.update({ where: { id: sessionId }, data: { revisionNumber: { increment: 1 } } });
    sessionRows.remember(updated);
    pubsub.publish("vizSession:changed", sessionId, { kind, sessionId, revisionNumber: updated.revisionNumber });
    return updated;
  }

  async function setLayout(viewer: Viewer, id: string, bytes: Uint8Array) {
    const session = await viewable(viewer, id);
    if (session.ownerId !== viewer.userId) throw new AppError("FORBIDDEN", "only the session owner may change its layout");
    if (bytes.byteLength % 8 !== 0) throw new AppError("INVALID_INPUT", "a layout is x,y float32 pairs (a multiple of 8 bytes)");
    await storeLayout(id, bytes);
    return publish(id, "LAYOUT");
  }

  /** Stores x,y float32 pairs as the session's layout (a live layout job's positions; the caller checked access). */
  async function storeLayout(id: string, bytes: Uint8Array): Promise<void> {
    const before = await db.vizSession.findUnique({ where: { id }, select: { layoutVersion: true } });
    const version = `${Date.now().toString(36)}-${randomBytes(4).toString("hex")}.f32`;
    await blobs.writeAtomic(["sessions", id, version], bytes);
    await db.vizSession.update({ where: { id }, data: { layoutVersion: version } });
    sessionRows.forget(id);
    if (before?.layoutVersion) await blobs.remove(["sessions", id, before.layoutVersion]);
  }

  /** Stores x,y float32 pairs as the dataset's default layout (a finished live layout): sessions without their own open with it. */
  async function storeDatasetLayout(datasetId: string, bytes: Uint8Array): Promise<void> {
    const before = await db.dataset.findUnique({ where: { id: datasetId }, select: { defaultLayout: true } });
    const version = `${Date.now().toString(36)}-${randomBytes(4).toString("hex")}.f32`;
    await blobs.writeAtomic(["datasets", datasetId, "layouts", version], bytes);
    await db.dataset.update({ where: { id: datasetId }, data: { defaultLayout: version } });
    datasetRows.forget(datasetId);
    if (before?.defaultLayout) await blobs.remove(["datasets", datasetId, "layouts", before.defaultLayout]);
  }

  /** The session's own layout, else its dataset's default one while it fits the current node table. */
  async function layout(viewer: Viewer, id: string): Promise<Uint8Array | undefined> {
    const session = await viewable(viewer, id);
    if (session.layoutVersion) return readFile(blobs.pathOf("sessions", id, session.layoutVersion));
    const dataset = await db.dataset.findUnique({ where: { id: session.datasetId }, select: { defaultLayout: true, nodeCount: true } });
    if (!dataset?.defaultLayout) return undefined;
    const bytes = await readFile(blobs.pathOf("datasets", session.datasetId, "layouts", dataset.defaultLayout)).catch(() => undefined);
    return bytes && bytes.byteLength === (dataset.nodeCount ?? -1) * 8 ? bytes : undefined;
  }

  /** Records that the owner's page is connected (called while their subscription is open). */
  async function touchOwner(viewer: Viewer, id: string): Promise<void> {
    await db.vizSession.updateMany({ where: { id, ownerId: viewer.userId }, data: { ownerSeenAt: new Date() } });
    sessionRows.forget(id);
  }

  /** Owner pages connected to this process, per session. */
  const ownerPages = new Map<string, number>();
  /** How to close each owner page's subscription on this process, per user (forced logout). */
  const ownerStreams = new Map<number, Set<() => Promise<unknown>>>();

  /** Closes the user's owner-page subscriptions on this process, which ends their presence (forced logout). */
  async function endPresence(userId: number): Promise<void> {
    const streams = [...(ownerStreams.get(userId) ?? [])];
    await Promise.allSettled(streams.map((close) => close()));
    // A forced logout (on any instance) cleared the owner's presence on every session: the kept rows still show it.
    sessionRows.forgetOwner(userId);
  }

  /**
   * Keeps the owner present while `events` is being read (an owner page's subscription): touched at once and
   * every 20 s; when this process's last owner page of the session closes, the owner counts as gone at once (an
   * owner page on another instance touches again within 20 s). A plain iterator, not an async generator, so that
   * closing the subscription ends presence at once rather than after the next event.
   */
  async function ownerPresence<T>(viewer: Viewer, id: string, events: AsyncIterable<T>): Promise<AsyncIterableIterator<T>> {
    const inner = events[Symbol.asyncIterator]();
    ownerPages.set(id, (ownerPages.get(id) ?? 0) + 1);
    await touchOwner(viewer, id);
    const timer = setInterval(() => void touchOwner(viewer, id).catch(() => {}), 20_000);
    let ended = false;
    const end = async () => {
      if (ended) return;
      ended = true;
      clearInterval(timer);
      ownerStreams.get(viewer.userId)?.delete(close);
      const left = (ownerPages.get(id) ?? 1) - 1;
      if (left > 0) ownerPages.set(id, left);
      else {
        ownerPages.delete(id);
        await db.vizSession.updateMany({ where: { id, ownerId: viewer.userId }, data: { ownerSeenAt: null } }).catch(() => {});
        sessionRows.forget(id);
      }
    };
    const iterator: AsyncIterableIterator<T> = {
      async next() {
        const result = await inner.next();
        if (result.done) await end();
        return result;
      },
      async return(value?: unknown) {
        await end();
        return inner.return ? inner.return(value) : { done: true, value: undefined };
      },
      async throw(error?: unknown) {
        await end();
        return inner.throw ? inner.throw(error) : Promise.reject(error);
      },
      [Symbol.asyncIterator]: () => iterator,
    };
    const close = () => iterator.return?.() ?? Promise.resolve();
    ownerStreams.set(viewer.userId, (ownerStreams.get(viewer.userId) ?? new Set()).add(close));
    return iterator;
  }

  /**
   * Stores the session's shared filters or encodings (JSON; any viewer of the session may) and publishes FILTERS or
   * ENCODINGS. Filters are a list of objects, encodings an object; at most 64 KiB of JSON text.
   */
  async function setShared(viewer: Viewer, id: string, which: "filters" | "encodings", value: unknown) {
    await viewable(viewer, id);
    const shapeOk = which === "filters" ? Array.isArray(value) && value.every(isPlainObject) : isPlainObject(value);
    if (!shapeOk) {
      const want = which === "filters" ? "a list of filter objects" : "an object of encoding choices";
      throw new AppError("INVALID_INPUT", `${which} must be ${want}`, { details: { field: which } });
    }
    const text = JSON.stringify(value);
    if (text.length > SHARED_STATE_MAX_CHARS) {
      throw new AppError("INVALID_INPUT", `${which} must be at most ${SHARED_STATE_MAX_CHARS} characters of JSON`, {
        details: { field: which },
      });
    }
    await db.vizSession.update({ where: { id }, data: { [which]: text } });
    sessionRows.forget(id);
    return publish(id, which === "filters" ? "FILTERS" : "ENCODINGS");
  }

  async function share(viewer: Viewer, datasetId: string, mode: string) {
    if (!(SHARING_MODES as readonly string[]).includes(mode)) {
      throw new AppError("INVALID_INPUT", `mode must be one of ${SHARING_MODES.join(", ")}`, { details: { field: "mode" } });
    }
    const dataset = await db.dataset.findUnique({ where: { id: datasetId } });
    if (!dataset || !(await canViewDataset(db, viewer, dataset))) throw new AppError("NOT_FOUND", `no dataset with id ${datasetId}`);
    if (!(await mayChangeRecord(db, viewer, dataset)))
      throw new AppError("FORBIDDEN", "only the dataset's author or an admin of its organization may change its sharing");
    const updated = await db.dataset.update({ where: { id: datasetId }, data: { sharingMode: mode as SharingMode } });
    datasetRows.forget(datasetId);
    return updated;
  }

  return {
    open,
    get,
    getAt,
    list,
    setLayout,
    setShared,
    layout,
    ownerPresence,
    endPresence,
    share,
    storeLayout,
    storeDatasetLayout,
    notify: publish,
    /** Forgets the kept row of a session this process has just changed elsewhere (collections.ts). */
    forget: (id: string) => sessionRows.forget(id),
    /** Keeps the row a committed write of this process has just answered (collections.ts; session-rows.ts). */
    remember: (row: VizSession) => sessionRows.remember(row),
  };
}
