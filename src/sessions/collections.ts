// Collections of a live session (spec 2.8, 3.6): named sets chosen by GFQL and painted in one color. The matched
// rows are computed once, at creation, and kept as a blob the page paints from; every change is published.
import { readFile } from "node:fs/promises";
import type { Prisma, VizCollection, VizSession } from "../../prisma/generated/sqlite/client.ts";
import type { Viewer } from "../auth/viewer.ts";
import { type DatasetRecord, toDatasetRecord } from "../datasets/dataset-records.ts";
import { AppError } from "../errors/app-error.ts";
import type { GfqlService } from "../gfql/surface/gfql-service.ts";
import type { BlobStore } from "../store/blobs.ts";
import type { Db } from "../store/prisma.ts";
import type { PubSub } from "../store/pubsub.ts";
import { randomHex } from "../store/random-hex.ts";
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

/** What a creation stores in a collection's row besides its id, session, name and position. */
type CollectionContent = Pick<
  VizCollection,
  "query" | "nodeColor" | "palette" | "description" | "matchBlob" | "matchCount" | "nodeCount" | "edgeCount" | "dataVersion"
>;

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

/**
 * The matched positions as one blob: [nodeCount, edgeCount or 0xffffffff when unknown], node rows, edge rows; as the
 * three pieces the file is written from (no joined copy).
 */
function encodeMatches(nodeRows: Uint32Array, edgeRows: Uint32Array | undefined): Uint8Array[] {
  const head = new Uint32Array([nodeRows.length, edgeRows ? edgeRows.length : 0xffffffff]);
  const bytes = (rows: Uint32Array) => new Uint8Array(rows.buffer, rows.byteOffset, rows.byteLength);
  return [bytes(head), bytes(nodeRows), ...(edgeRows ? [bytes(edgeRows)] : [])];
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

  /**
   * Each session's collections in order as this process's last creation left them, with the session revision that
   * creation moved it to. Every change of a session's collections moves its revision in the same transaction, so the
   * list is what is stored for as long as the session is at that revision: the next creation writes in one batch
   * transaction that moves the revision only from that one (else it finds no row, rolls back, and reads the list in
   * an interactive transaction). Kept only while every row was matched on the dataset version the creation ran on:
   * rows of an older version are matched again by whoever reads them (`current`, without moving the revision), and a
   * new version moves every session's revision (dataset-versions.ts). Other changes drop the session's list.
   */
  const lists = new Map<string, { revision: number; rows: VizCollection[] }>();
  const MAX_LISTS = 10_000;
  function keepList(sessionId: string, revision: number, rows: VizCollection[], dataVersion: string | null): void {
    const kept = lists.get(sessionId);
    // Two changes' answers may come back out of order: the later revision stays.
    if (kept && kept.revision > revision) return;
    lists.delete(sessionId);
    if (rows.some((c) => c.dataVersion !== dataVersion)) return;
    if (lists.size >= MAX_LISTS) lists.delete(lists.keys().next().value as string);
    lists.set(sessionId, { revision, rows });
  }
  /** The kept list of the session at `revision`, if that is the revision it was kept at. */
  const listAt = (sessionId: string, revision: number) => {
    const kept = lists.get(sessionId);
    return kept && kept.revision === revision ? kept.rows : undefined;
  };

  /**
   * Runs `change` in a transaction that first moves the session's revision (which also serializes writers), then
   * publishes; answers the change's result and the revision it moved the session to.
   */
  async function changing<T>(sessionId: string, change: (tx: Db) => Promise<T>): Promise<[T, number]> {
    // The list kept for the session is no longer what is stored (and a creation's batch would only fail on it).
    lists.delete(sessionId);
    const [result, moved] = await db.$transaction(async (tx) => {
      const moved = await tx.vizSession.update({ where: { id: sessionId }, data: { revisionNumber: { increment: 1 } } });
      return [await change(tx as Db), moved] as const;
    });
    return [result, changed(moved)];
  }

  /** After a committed change: keeps the session row as committed and publishes the change; answers its revision. */
  function changed(moved: VizSession): number {
    // The next tool call on the session reads the row from there (session-rows.ts).
    sessions.remember(moved);
    pubsub.publish("vizSession:changed", moved.id, { kind: "COLLECTIONS", sessionId: moved.id, revisionNumber: moved.revisionNumber });
    return moved.revisionNumber;
  }

  /**
   * Renumbers positions 0..n-1 in the given order: one statement per distinct shift (dropping the oldest of ten
   * moves the nine after it down by one: one statement, not nine).
   */
  async function renumber(tx: Db, ordered: Array<Pick<VizCollection, "id" | "position">>): Promise<void> {
    for (const step of renumbering(tx, ordered)) await step;
  }

  /** renumber's statements, not yet run (Prisma runs a query when it is awaited or given to a batch transaction). */
  function renumbering(client: Db, ordered: Array<Pick<VizCollection, "id" | "position">>): Prisma.PrismaPromise<unknown>[] {
    const byShift = new Map<number, string[]>();
    for (const [position, c] of ordered.entries()) {
      const shift = c.position - position;
      if (shift !== 0) byShift.set(shift, [...(byShift.get(shift) ?? []), c.id]);
    }
    return [...byShift].map(([shift, ids]) =>
      client.vizCollection.updateMany({ where: { id: { in: ids } }, data: { position: { decrement: shift } } }),
    );
  }

  const inOrder = (tx: Db, sessionId: string) =>
    tx.vizCollection.findMany({ where: { sessionId }, orderBy: [{ position: "asc" }, { createdAt: "asc" }] });

  /**
   * What creating collection `name` does to a session whose collections are `current` (in order): replace the one of
   * that name in place, or add one at the end, first dropping the oldest beyond MAX_COLLECTIONS and closing the gaps.
   * `statements` are its writes, not yet run, the new or replaced row last; `after(saved)` is the list they leave;
   * `dropped` the match blobs no longer named.
   */
  function planCreate(sessionId: string, current: VizCollection[], name: string, content: CollectionContent) {
    const same = current.find((c) => c.name === name);
    if (same) {
      return {
        statements: (client: Db) => [client.vizCollection.update({ where: { id: same.id }, data: { ...content, createdAt: new Date() } })],
        after: (saved: VizCollection) => current.map((c) => (c === same ? saved : c)),
        dropped: same.matchBlob ? [same.matchBlob] : [],
      };
    }
    let kept = current;
    let evicted: VizCollection[] = [];
    if (current.length >= MAX_COLLECTIONS) {
      const byAge = [...current].sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || a.position - b.position);
      evicted = byAge.slice(0, current.length - MAX_COLLECTIONS + 1);
      kept = current.filter((c) => !evicted.includes(c));
    }
    const id = `c${randomHex(8)}`;
    return {
      statements: (client: Db) => [
        ...(evicted.length > 0 ? [client.vizCollection.deleteMany({ where: { id: { in: evicted.map((c) => c.id) } } })] : []),
        ...renumbering(client, kept),
        client.vizCollection.create({ data: { id, sessionId, name, position: kept.length, ...content } }),
      ],
      after: (saved: VizCollection) => [...kept.map((c, position) => (c.position === position ? c : { ...c, position })), saved],
      dropped: evicted.flatMap((c) => (c.matchBlob ? [c.matchBlob] : [])),
    };
  }

  /** Runs `work` after every earlier one of the same session (in this process) has ended. */
  const turns = new Map<string, Promise<unknown>>();
  function inTurn<T>(sessionId: string, work: () => Promise<T>): Promise<T> {
    const run = (turns.get(sessionId) ?? Promise.resolve()).then(work);
    const settled = run.then(
      () => {},
      () => {},
    );
    turns.set(sessionId, settled);
    void settled.then(() => {
      if (turns.get(sessionId) === settled) turns.delete(sessionId);
    });
    return run;
  }

  async function list(viewer: Viewer, sessionId: string): Promise<VizCollection[]> {
    const session = await sessions.get(viewer, sessionId);
    const record = toDatasetRecord(session.dataset);
    return Promise.all((await inOrder(db, sessionId)).map((c) => current(record, c)));
  }

  /**
   * The collections as a change event of revision `revision` leaves them (the event's `collections`, which every
   * subscribed page asks for): the list this process kept at that revision or past it, else read as `list` reads it.
   * The session comes the same way (viz-sessions.ts getAt): a creation's event costs its pages no read.
   */
  async function listForEvent(viewer: Viewer, sessionId: string, revision: number): Promise<VizCollection[]> {
    const session = await sessions.getAt(viewer, sessionId, revision);
    const record = toDatasetRecord(session.dataset);
    const kept = lists.get(sessionId);
    const rows = kept && kept.revision >= revision ? kept.rows : await inOrder(db, sessionId);
    return Promise.all(rows.map((c) => current(record, c)));
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

    // The kept list answers that no collection has this name (then nothing can be repeated); one that has it is read.
    const known = listAt(sessionId, session.revisionNumber);
    const existing =
      known && !known.some((c) => c.name === name)
        ? null
        : await db.vizCollection.findUnique({ where: { sessionId_name: { sessionId, name } } });
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
    const content: CollectionContent = { query: queryText, nodeColor, palette, description, ...matched };

    // Creations on one session take turns in this process, so that each finds the list the one before kept.
    const { saved, dropped } = await inTurn(sessionId, async () => {
      const kept = lists.get(sessionId);
      if (kept) {
        // One batch transaction (no interactive one: about 0.3 ms less of this process's time) that moves the
        // revision only from the kept list's: when another instance changed the session meanwhile, it finds no row
        // and rolls back, and the transaction below reads the list.
        const plan = planCreate(sessionId, kept.rows, name, content);
        const results = await db
          .$transaction([
            db.vizSession.update({ where: { id: sessionId, revisionNumber: kept.revision }, data: { revisionNumber: { increment: 1 } } }),
            ...plan.statements(db),
          ])
          .catch((error: unknown) => {
            if ((error as { code?: string }).code === "P2025") return undefined;
            throw error;
          });
        if (results) {
          const saved = results.at(-1) as VizCollection;
          keepList(sessionId, changed(results[0] as VizSession), plan.after(saved), content.dataVersion);
          return { saved, dropped: plan.dropped };
        }
      }
      const [[saved, plan], revision] = await changing(sessionId, async (tx) => {
        const plan = planCreate(sessionId, await inOrder(tx, sessionId), name, content);
        let last: unknown;
        for (const statement of plan.statements(tx)) last = await statement;
        return [last as VizCollection, plan] as const;
      });
      keepList(sessionId, revision, plan.after(saved), content.dataVersion);
      return { saved, dropped: plan.dropped };
    });
    for (const b of dropped) {
      try {
        blobs.removeFile(blobPath(sessionId, b));
      } catch {
        // left for the startup sweep (blob-sweep.ts), which removes blobs no collection names
      }
    }
    return saved;
  }

  /** Runs the query on the dataset's current tables and stores the matched positions as a new blob. */
  async function matchOn(record: DatasetRecord, sessionId: string, query: unknown, timeoutMs?: number) {
    const answer = await deps.gfql.match(record, query, timeoutMs);
    const nodeRows = answer.nodeRows;
    const blob = nodeRows ? `${Date.now().toString(36)}-${randomHex(6)}.u32` : null;
    // A new name each time, stored only once written: no temporary file and rename (blobs.ts writeNew).
    if (blob && nodeRows) await blobs.writeNew(blobPath(sessionId, blob), encodeMatches(nodeRows, answer.edgeRows));
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
      // Rows matched again here keep the session's revision: a list kept for it would no longer be what is stored.
      lists.delete(c.sessionId);
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
    const [updated] = await changing(sessionId, async (tx) => {
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
    return updated;
  }

  async function remove(viewer: Viewer, sessionId: string, id: string): Promise<VizCollection> {
    await owned(viewer, sessionId);
    const [removed] = await changing(sessionId, async (tx) => {
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
    const [ordered] = await changing(sessionId, async (tx) => {
      const current = await inOrder(tx, sessionId);
      const unknown = order.filter((id) => !current.some((c) => c.id === id));
      if (unknown.length > 0)
        throw invalid("unknown-collection", `no collection ${unknown.map((u) => JSON.stringify(u)).join(", ")} in this session`, "order");
      const listed = order.map((id) => current.find((c) => c.id === id) as VizCollection);
      const rest = current.filter((c) => !order.includes(c.id));
      await renumber(tx, [...listed, ...rest]);
      return inOrder(tx, sessionId);
    });
    return ordered;
  }

  async function reset(viewer: Viewer, sessionId: string): Promise<number> {
    await owned(viewer, sessionId);
    const current = await inOrder(db, sessionId);
    const [count] = await changing(sessionId, async (tx) => (await tx.vizCollection.deleteMany({ where: { sessionId } })).count);
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

  return { list, listForEvent, create, update, remove, reorder, reset, matches };
}
