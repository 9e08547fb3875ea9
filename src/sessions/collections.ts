// Collections of a live session (spec 2.8, 3.6): named sets chosen by GFQL and painted in one color. The matched
// rows are computed once, at creation, and kept as a blob the page paints from; every change is published.
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { VizCollection } from "../../prisma/generated/sqlite/client.ts";
import type { Viewer } from "../auth/viewer.ts";
import { type DatasetRecord, toDatasetRecord } from "../datasets/dataset-records.ts";
import { AppError } from "../errors/app-error.ts";
import type { GfqlService } from "../gfql/surface/gfql-service.ts";
import type { BlobStore } from "../store/blobs.ts";
import type { Db } from "../store/prisma.ts";
import type { PubSub } from "../store/pubsub.ts";
import { HEX_COLOR, PALETTE_NAMES, paletteColor } from "./palettes.ts";
import type { VizSessionService } from "./viz-sessions.ts";

export const MAX_COLLECTIONS = 10;
/** The built-in layer under every collection: it is always there and cannot be deleted. */
export const GLOBAL_LAYER = { id: "global", name: "Global background" } as const;
/** The same creation repeated within this window answers the first result without running the query again. */
const IDEMPOTENT_MS = 30_000;
const DEFAULT_COLOR = "#f28e2b";

export type CollectionInput = { name: string; query: unknown; nodeColor?: string; palette?: string; description?: string };
export type CollectionPatch = { name?: string; nodeColor?: string; palette?: string };

export type CollectionService = ReturnType<typeof createCollectionService>;

const invalid = (code: string, message: string, field: string) =>
  new AppError("INVALID_INPUT", `[${code}] ${message}`, { details: { field } });

/** The color a collection is painted in: its own, else its palette's, else the default. */
export function collectionColor(c: Pick<VizCollection, "nodeColor" | "palette">): string {
  return c.nodeColor ?? (c.palette ? paletteColor(c.palette) : undefined) ?? DEFAULT_COLOR;
}

function checkColors(input: { nodeColor?: string | undefined; palette?: string | undefined }): void {
  if (input.nodeColor !== undefined && !HEX_COLOR.test(input.nodeColor))
    throw invalid("invalid-color", `node_color must be #RRGGBB or #RRGGBBAA, got ${JSON.stringify(input.nodeColor)}`, "node_color");
  if (input.palette !== undefined && !paletteColor(input.palette))
    throw invalid("unknown-palette", `unknown palette ${JSON.stringify(input.palette)}; known: ${PALETTE_NAMES.join(", ")}`, "palette");
}

function checkName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw invalid("invalid-name", "a collection needs a non-empty name", "name");
  if (trimmed.length > 200) throw invalid("invalid-name", "a collection name has at most 200 characters", "name");
  return trimmed;
}

/** Edge steps without a direction match both ways in collections, as the reference's tool fills in. */
function undirectedByDefault(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(undirectedByDefault);
  if (value === null || typeof value !== "object") return value;
  const entries = Object.entries(value).map(([k, v]) => [k, undirectedByDefault(v)] as const);
  const object = Object.fromEntries(entries) as Record<string, unknown>;
  if (object.type === "Edge" && object.direction === undefined) object.direction = "undirected";
  return object;
}

/** GFQL JSON only: an array of operations, a Chain or a Let. Cypher and bare operations are refused. */
export function collectionQuery(query: unknown): unknown {
  let value = query;
  if (typeof query === "string") {
    if (!/^\s*[[{]/.test(query))
      throw invalid("cypher-not-accepted", "collections take GFQL JSON (an array of operations or a Let), not Cypher", "gfql_operations");
    try {
      value = JSON.parse(query);
    } catch (error) {
      throw invalid("invalid-json", `gfql_operations is not valid JSON: ${(error as Error).message}`, "gfql_operations");
    }
  }
  if (!Array.isArray(value)) {
    const type = value !== null && typeof value === "object" ? (value as { type?: unknown }).type : undefined;
    if (type !== "Let" && type !== "Chain")
      throw invalid(
        "wrap-in-array",
        "gfql_operations must be an array of operations or a Let object; wrap a single operation in an array: [{...}]",
        "gfql_operations",
      );
  }
  return undirectedByDefault(value);
}

/** The matched positions as one blob: [nodeCount, edgeCount or 0xffffffff when unknown], node rows, edge rows. */
function encodeMatches(nodeRows: Uint32Array, edgeRows: Uint32Array | undefined): Uint8Array {
  const out = new Uint32Array(2 + nodeRows.length + (edgeRows?.length ?? 0));
  out[0] = nodeRows.length;
  out[1] = edgeRows ? edgeRows.length : 0xffffffff;
  out.set(nodeRows, 2);
  if (edgeRows) out.set(edgeRows, 2 + nodeRows.length);
  return new Uint8Array(out.buffer);
}

export function createCollectionService(deps: {
  db: Db;
  blobs: BlobStore;
  pubsub: PubSub;
  sessions: VizSessionService;
  gfql: GfqlService;
}) {
  const { db, blobs, pubsub, sessions } = deps;

  async function owned(viewer: Viewer, sessionId: string) {
    const session = await sessions.get(viewer, sessionId);
    if (session.ownerId !== viewer.userId) throw new AppError("FORBIDDEN", "only the session owner may modify this session");
    return session;
  }

  const blobPath = (sessionId: string, blob: string) => ["sessions", sessionId, "collections", blob];

  /** Runs `change` in a transaction that first moves the session's revision (which also serializes writers), then publishes. */
  async function changing<T>(sessionId: string, change: (tx: Db) => Promise<T>): Promise<T> {
    const [result, revisionNumber] = await db.$transaction(async (tx) => {
      const moved = await tx.vizSession.update({ where: { id: sessionId }, data: { revisionNumber: { increment: 1 } } });
      return [await change(tx as Db), moved.revisionNumber] as const;
    });
    sessions.forget(sessionId);
    pubsub.publish("vizSession:changed", sessionId, { kind: "COLLECTIONS", sessionId, revisionNumber });
    return result;
  }

  /**
   * Renumbers positions 0..n-1 in the given order: one statement per distinct shift (dropping the oldest of ten
   * moves the nine after it down by one: one statement, not nine).
   */
  async function renumber(tx: Db, ordered: Array<Pick<VizCollection, "id" | "position">>): Promise<void> {
    const byShift = new Map<number, string[]>();
    for (const [position, c] of ordered.entries()) {
      const shift = c.position - position;
      if (shift !== 0) byShift.set(shift, [...(byShift.get(shift) ?? []), c.id]);
    }
    for (const [shift, ids] of byShift)
      await tx.vizCollection.updateMany({ where: { id: { in: ids } }, data: { position: { decrement: shift } } });
  }

  const inOrder = (tx: Db, sessionId: string) =>
    tx.vizCollection.findMany({ where: { sessionId }, orderBy: [{ position: "asc" }, { createdAt: "asc" }] });

  async function list(viewer: Viewer, sessionId: string): Promise<VizCollection[]> {
    const session = await sessions.get(viewer, sessionId);
    const record = toDatasetRecord(session.dataset);
    return Promise.all((await inOrder(db, sessionId)).map((c) => current(record, c)));
  }

  async function create(viewer: Viewer, sessionId: string, input: CollectionInput, options: { timeoutMs?: number } = {}) {
    const session = await owned(viewer, sessionId);
    const name = checkName(input.name);
    checkColors(input);
    const query = collectionQuery(input.query);
    const queryText = JSON.stringify(query);
    const description = input.description?.trim() || null;
    // node_color wins over a palette; a palette is kept only when it is what paints the collection.
    const nodeColor = input.nodeColor ?? null;
    const palette = nodeColor ? null : (input.palette ?? null);

    const existing = await db.vizCollection.findUnique({ where: { sessionId_name: { sessionId, name } } });
    const same =
      existing &&
      existing.dataVersion === session.dataset.dataVersion &&
      existing.query === queryText &&
      existing.nodeColor === nodeColor &&
      existing.palette === palette &&
      existing.description === description &&
      Date.now() - existing.updatedAt.getTime() < IDEMPOTENT_MS;
    if (same) return existing;

    const matched = await matchOn(toDatasetRecord(session.dataset), sessionId, query, options.timeoutMs);
    const content = { query: queryText, nodeColor, palette, description, ...matched };

    const dropped: string[] = [];
    const saved = await changing(sessionId, async (tx) => {
      const current = await inOrder(tx, sessionId);
      const same = current.find((c) => c.name === name);
      if (same) {
        if (same.matchBlob) dropped.push(same.matchBlob);
        return tx.vizCollection.update({ where: { id: same.id }, data: { ...content, createdAt: new Date() } });
      }
      let kept = current;
      if (current.length >= MAX_COLLECTIONS) {
        const byAge = [...current].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.position - b.position);
        const evicted = byAge.slice(0, current.length - MAX_COLLECTIONS + 1);
        await tx.vizCollection.deleteMany({ where: { id: { in: evicted.map((c) => c.id) } } });
        for (const c of evicted) if (c.matchBlob) dropped.push(c.matchBlob);
        kept = current.filter((c) => !evicted.includes(c));
        await renumber(tx, kept);
      }
      return tx.vizCollection.create({
        data: { id: `c${randomBytes(8).toString("hex")}`, sessionId, name, position: kept.length, ...content },
      });
    });
    await Promise.all(dropped.map((b) => blobs.remove(blobPath(sessionId, b)).catch(() => {})));
    return saved;
  }

  /** Runs the query on the dataset's current tables and stores the matched positions as a new blob. */
  async function matchOn(record: DatasetRecord, sessionId: string, query: unknown, timeoutMs?: number) {
    const answer = await deps.gfql.match(record, query, timeoutMs);
    const nodeRows = answer.nodeRows;
    const blob = nodeRows ? `${Date.now().toString(36)}-${randomBytes(6).toString("hex")}.u32` : null;
    if (blob && nodeRows) await blobs.writeAtomic(blobPath(sessionId, blob), encodeMatches(nodeRows, answer.edgeRows));
    return {
      matchBlob: blob,
      matchCount: nodeRows ? nodeRows.length + (answer.edgeRows?.length ?? 0) : null,
      nodeCount: nodeRows ? nodeRows.length : null,
      edgeCount: answer.edgeRows ? answer.edgeRows.length : null,
      dataVersion: record.dataVersion,
    };
  }

  const refreshing = new Map<string, Promise<VizCollection>>();

  /**
   * A collection matched on tables the dataset has since replaced (a later upload rebuilt them) is matched again on
   * the current ones; when its query no longer runs there, what it matches becomes unknown (null), never stale.
   */
  function current(record: DatasetRecord, c: VizCollection): Promise<VizCollection> {
    if (c.dataVersion === record.dataVersion) return Promise.resolve(c);
    let pending = refreshing.get(c.id);
    if (!pending) {
      pending = (async () => {
        const unknown = { matchBlob: null, matchCount: null, nodeCount: null, edgeCount: null, dataVersion: record.dataVersion };
        const matched = await matchOn(record, c.sessionId, JSON.parse(c.query)).catch(() => unknown);
        const updated = await db.vizCollection.update({ where: { id: c.id }, data: matched }).catch(async (error: unknown) => {
          if (matched.matchBlob) await blobs.remove(blobPath(c.sessionId, matched.matchBlob)).catch(() => {});
          throw error;
        });
        if (c.matchBlob) await blobs.remove(blobPath(c.sessionId, c.matchBlob)).catch(() => {});
        return updated;
      })().finally(() => refreshing.delete(c.id));
      refreshing.set(c.id, pending);
    }
    return pending;
  }

  async function find(tx: Db, sessionId: string, id: string): Promise<VizCollection> {
    if (id === GLOBAL_LAYER.id) throw invalid("global-layer", "the global background layer cannot be changed or deleted", "collection_id");
    const found = await tx.vizCollection.findFirst({ where: { id, sessionId } });
    if (!found) throw invalid("unknown-collection", `no collection ${JSON.stringify(id)} in this session`, "collection_id");
    return found;
  }

  async function update(viewer: Viewer, sessionId: string, id: string, patch: CollectionPatch) {
    await owned(viewer, sessionId);
    checkColors(patch);
    const name = patch.name === undefined ? undefined : checkName(patch.name);
    return changing(sessionId, async (tx) => {
      const existing = await find(tx, sessionId, id);
      if (name !== undefined && name !== existing.name) {
        const clash = await tx.vizCollection.findUnique({ where: { sessionId_name: { sessionId, name } } });
        if (clash) throw invalid("duplicate-name", `another collection is already named ${JSON.stringify(name)}`, "name");
      }
      // A new literal color replaces a palette and the other way round; the matched elements never change.
      const colors =
        patch.nodeColor !== undefined
          ? { nodeColor: patch.nodeColor, palette: null }
          : patch.palette !== undefined
            ? { nodeColor: null, palette: patch.palette }
            : {};
      return tx.vizCollection.update({ where: { id }, data: { ...(name !== undefined ? { name } : {}), ...colors } });
    });
  }

  async function remove(viewer: Viewer, sessionId: string, id: string): Promise<VizCollection> {
    await owned(viewer, sessionId);
    const removed = await changing(sessionId, async (tx) => {
      const gone = await find(tx, sessionId, id);
      await tx.vizCollection.delete({ where: { id } });
      await renumber(
        tx,
        (await inOrder(tx, sessionId)).filter((c) => c.id !== id),
      );
      return gone;
    });
    if (removed.matchBlob) await blobs.remove(blobPath(sessionId, removed.matchBlob)).catch(() => {});
    return removed;
  }

  /** The listed ids go first, in the order given (the first is painted on top); the rest keep their order after them. */
  async function reorder(viewer: Viewer, sessionId: string, order: string[]): Promise<VizCollection[]> {
    await owned(viewer, sessionId);
    if (new Set(order).size !== order.length) throw invalid("duplicate-id", "order lists a collection more than once", "order");
    return changing(sessionId, async (tx) => {
      const current = await inOrder(tx, sessionId);
      const unknown = order.filter((id) => !current.some((c) => c.id === id));
      if (unknown.length > 0)
        throw invalid("unknown-collection", `no collection ${unknown.map((u) => JSON.stringify(u)).join(", ")} in this session`, "order");
      const listed = order.map((id) => current.find((c) => c.id === id) as VizCollection);
      const rest = current.filter((c) => !order.includes(c.id));
      await renumber(tx, [...listed, ...rest]);
      return inOrder(tx, sessionId);
    });
  }

  async function reset(viewer: Viewer, sessionId: string): Promise<number> {
    await owned(viewer, sessionId);
    const current = await inOrder(db, sessionId);
    const count = await changing(sessionId, async (tx) => (await tx.vizCollection.deleteMany({ where: { sessionId } })).count);
    await Promise.all(current.map((c) => (c.matchBlob ? blobs.remove(blobPath(sessionId, c.matchBlob)).catch(() => {}) : undefined)));
    return count;
  }

  /** The matched-rows blob the page paints from (same access as viewing the session). */
  async function matches(viewer: Viewer, sessionId: string, id: string): Promise<Uint8Array> {
    const session = await sessions.get(viewer, sessionId);
    const found = await current(toDatasetRecord(session.dataset), await find(db, sessionId, id));
    if (!found.matchBlob) throw new AppError("NOT_FOUND", "the elements of this collection are not known");
    return readFile(blobs.pathOf(...blobPath(sessionId, found.matchBlob)));
  }

  return { list, create, update, remove, reorder, reset, matches };
}
