// The startup sweep: removes data versions and blobs no record references (what a killed upload, build or write left).
import { readdir, readFile, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { type BlobStore, PROCESS_RUN, WRITING_MARKER, type WritingMarker } from "./blobs.ts";
import type { Db } from "./prisma.ts";

export type SweepOptions = {
  /** An unreferenced folder without a marker is left this long (a writer may be about to mark it; readers of a replaced version). */
  unmarkedGraceMs?: number;
  /** A folder marked by a process on another host (a shared DATA_DIR) is left this long: its writer cannot be asked. */
  foreignGraceMs?: number;
  now?: number;
};

export type SweepResult = { removed: string[]; bytes: number };

const UNMARKED_GRACE_MS = 2 * 60_000;
const FOREIGN_GRACE_MS = 24 * 3_600_000;

async function entries(dir: string): Promise<string[]> {
  return readdir(dir).catch(() => [] as string[]);
}

async function size(target: string): Promise<number> {
  const info = await stat(target).catch(() => undefined);
  if (!info) return 0;
  if (!info.isDirectory()) return info.size;
  let total = 0;
  for (const name of await entries(target)) total += await size(path.join(target, name));
  return total;
}

/** Whether the process that marked a folder may still be writing it (unknown on another host: by age). */
function writerAlive(marker: WritingMarker, now: number, foreignGraceMs: number): boolean {
  if (marker.host !== os.hostname()) return now - marker.startedAt < foreignGraceMs;
  if (marker.pid === process.pid) return marker.run === PROCESS_RUN;
  try {
    process.kill(marker.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes, under the blob store: file and dataset folders whose record is gone, their data versions and direct
 * sources the record does not reference, and scratch folders; each only when no live process is writing it (its
 * WRITING_MARKER names a process that is gone, or it has none and is older than the grace). A referenced version
 * that still has a marker (the process died between the switch and the settle) only loses the marker.
 */
export async function sweepBlobs(db: Db, blobs: BlobStore, options: SweepOptions = {}): Promise<SweepResult> {
  const now = options.now ?? Date.now();
  const unmarkedGraceMs = options.unmarkedGraceMs ?? UNMARKED_GRACE_MS;
  const foreignGraceMs = options.foreignGraceMs ?? FOREIGN_GRACE_MS;
  const result: SweepResult = { removed: [], bytes: 0 };

  /** Whether an unreferenced folder may go now. */
  async function abandoned(parts: string[]): Promise<boolean> {
    const dir = blobs.pathOf(...parts);
    const text = await readFile(path.join(dir, WRITING_MARKER), "utf8").catch(() => undefined);
    if (text !== undefined) {
      try {
        return !writerAlive(JSON.parse(text) as WritingMarker, now, foreignGraceMs);
      } catch {
        // A marker cut short: its writer died while writing it.
        return true;
      }
    }
    const info = await stat(dir).catch(() => undefined);
    return info !== undefined && now - info.mtimeMs >= unmarkedGraceMs;
  }

  async function drop(parts: string[]): Promise<void> {
    result.bytes += await size(blobs.pathOf(...parts));
    await blobs.remove(parts);
    result.removed.push(parts.join("/"));
  }

  /** Each version folder under `parts` but `keep`: dropped when abandoned; `keep` loses a stale marker. */
  async function versions(parts: string[], keep: string | null | undefined): Promise<void> {
    for (const version of await entries(blobs.pathOf(...parts))) {
      if (version === keep) await blobs.settle([...parts, version]);
      else if (await abandoned([...parts, version])) await drop([...parts, version]);
    }
  }

  /** Each entry under `parts` not in `keep`, once past the grace (their writers do not mark them). */
  async function unreferenced(parts: string[], keep: Set<string>): Promise<void> {
    for (const name of await entries(blobs.pathOf(...parts))) {
      if (!keep.has(name) && (await abandoned([...parts, name]))) await drop([...parts, name]);
    }
  }

  async function removeIfEmpty(parts: string[]): Promise<void> {
    if ((await entries(blobs.pathOf(...parts))).length === 0) await blobs.remove(parts);
  }

  // The order matters: a folder's marker is read before its record, and a writer switches the record before it
  // removes the marker; so a folder seen unmarked here is referenced by the time its record is read.
  for (const id of await entries(blobs.pathOf("files"))) {
    const candidates = await entries(blobs.pathOf("files", id));
    const states = new Map<string, boolean>();
    for (const version of candidates) states.set(version, await abandoned(["files", id, version]));
    const file = await db.file.findUnique({ where: { id }, select: { dataVersion: true } });
    for (const version of candidates) {
      if (file && version === file.dataVersion) await blobs.settle(["files", id, version]);
      else if (states.get(version)) await drop(["files", id, version]);
    }
    await removeIfEmpty(["files", id]);
  }

  for (const id of await entries(blobs.pathOf("datasets"))) {
    const tables = ["datasets", id, "tables"];
    const sources = (axis: string) => ["datasets", id, "sources", axis];
    const axes = await entries(blobs.pathOf("datasets", id, "sources"));
    const seen = new Map<string, boolean>();
    for (const parts of [tables, ...axes.map(sources)])
      for (const version of await entries(blobs.pathOf(...parts)))
        seen.set([...parts, version].join("/"), await abandoned([...parts, version]));
    const dataset = await db.dataset.findUnique({ where: { id }, select: { dataVersion: true, directSources: true, defaultLayout: true } });
    if (!dataset) {
      // No record (deleted, or a build that never finished): the whole folder goes once nothing in it is being
      // written; a folder with no version yet only past the grace (a build may be about to mark its first).
      const idle = seen.size > 0 ? [...seen.values()].every(Boolean) : await abandoned(["datasets", id]);
      if (idle) await drop(["datasets", id]);
      continue;
    }
    const direct = JSON.parse(dataset.directSources) as Record<string, { version?: string } | undefined>;
    const referenced = new Set([
      ...(dataset.dataVersion ? [[...tables, dataset.dataVersion].join("/")] : []),
      ...axes.flatMap((axis) => (direct[axis]?.version ? [[...sources(axis), direct[axis]?.version].join("/")] : [])),
    ]);
    for (const [key, gone] of seen) {
      const parts = key.split("/");
      if (referenced.has(key)) await blobs.settle(parts);
      else if (gone) await drop(parts);
    }
    // Default layouts (viz-sessions.ts) are written whole, then referenced: others are leftovers (and temp files).
    await unreferenced(["datasets", id, "layouts"], new Set(dataset.defaultLayout ? [dataset.defaultLayout] : []));
  }

  // A session's layouts and its collections' matches, likewise; a session gone takes its folder.
  for (const id of await entries(blobs.pathOf("sessions"))) {
    const session = await db.vizSession.findUnique({ where: { id }, select: { layoutVersion: true } });
    if (!session) {
      if (await abandoned(["sessions", id])) await drop(["sessions", id]);
      continue;
    }
    await unreferenced(["sessions", id], new Set(["collections", ...(session.layoutVersion ? [session.layoutVersion] : [])]));
    const collections = await db.vizCollection.findMany({ where: { sessionId: id }, select: { matchBlob: true } });
    await unreferenced(["sessions", id, "collections"], new Set(collections.flatMap((c) => (c.matchBlob ? [c.matchBlob] : []))));
  }

  await versions(["tmp"], undefined);
  return result;
}
