// The blob store: files under DATA_DIR/blobs, written atomically (temp file, then rename).
import { randomBytes } from "node:crypto";
import { closeSync, createWriteStream, openSync, unlinkSync, type WriteStream, writevSync } from "node:fs";
import { copyFile, link, mkdir, open, rename, rm, stat, unlink, writeFile } from "node:fs/promises";
import { IncomingMessage } from "node:http";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { AppError } from "../errors/app-error.ts";

export type BlobStore = ReturnType<typeof createBlobStore>;

/**
 * The file an unfinished folder (a data version being written, a scratch folder) holds: who writes it. The startup
 * sweep (blob-sweep.ts) removes a folder no record references only when its writer is gone.
 */
export const WRITING_MARKER = ".writing";

/** Who writes an unfinished folder: host and process, and this process's run (a restarted server may reuse a pid). */
export type WritingMarker = { host: string; pid: number; run: string; startedAt: number };

/** This process's run, told apart from an earlier process with the same pid. */
export const PROCESS_RUN = randomBytes(8).toString("hex");

const WRITE_BUFFER = 8 << 20;

/**
 * Up to this size writeNew writes synchronously: open, one writev and close put a small file into the page cache in
 * about 30 µs (10 KB), where the promise API's open, write and close cost the event loop about 70 µs and the process
 * about 175 µs in all (this machine). Collections' matched rows are mostly this small.
 */
const SYNC_WRITE_BYTES = 256 << 10;

/** Frees a chunk's memory now (ArrayBuffer.prototype.transfer detaches it): only a buffer the chunk alone views, whole. */
function release(chunk: unknown): void {
  if (!(chunk instanceof Uint8Array)) return;
  const { buffer } = chunk;
  if (buffer instanceof ArrayBuffer && !buffer.detached && chunk.byteOffset === 0 && chunk.byteLength === buffer.byteLength) {
    buffer.transfer(0);
  }
}

/**
 * A file stream that frees each chunk's memory as soon as the chunk is on disk. Node's HTTP parser
 * copies request body bytes into a new buffer per socket read, and V8 frees those only when it
 * collects garbage, which their memory alone makes it do: 100 MiB of upload set off several full
 * collections of the server's heap (over 100 ms of CPU, on two cores, while the upload arrives).
 * Only for request bodies, whose chunks nothing else holds.
 */
function releasingWriteStream(file: string, highWaterMark: number): WriteStream {
  const out = createWriteStream(file, { highWaterMark });
  const write = out._write;
  const writev = out._writev;
  out._write = function (chunk, encoding, callback) {
    write.call(this, chunk, encoding, (error) => {
      if (!error) release(chunk);
      callback(error);
    });
  };
  if (writev) {
    out._writev = function (chunks, callback) {
      writev.call(this, chunks, (error) => {
        if (!error) for (const { chunk } of chunks) release(chunk);
        callback(error);
      });
    };
  }
  return out;
}

export function createBlobStore(root: string) {
  const base = path.resolve(root);

  /** An absolute path under the store; refuses anything that would escape it. */
  function pathOf(...parts: string[]): string {
    const full = path.resolve(base, ...parts);
    if (!full.startsWith(base + path.sep)) throw new Error(`blob path escapes the store: ${parts.join("/")}`);
    return full;
  }

  function tempNameFor(target: string): string {
    return `${target}.part-${randomBytes(6).toString("hex")}`;
  }

  /** Writes bytes to `parts`, atomically: readers see the old file or the new one, never half of one. */
  async function writeAtomic(parts: string[], data: Uint8Array | string): Promise<string> {
    const target = pathOf(...parts);
    const temp = tempNameFor(target);
    try {
      // The folder usually exists (a session's collections, a dataset's layouts): it is made only when missing.
      await writeFile(temp, data).catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
        await mkdir(path.dirname(target), { recursive: true });
        await writeFile(temp, data);
      });
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return target;
  }

  /**
   * Writes bytes (one buffer, or several written one after another: no joined copy) under a name never used before
   * (a random one the caller made, which no reader can know until the caller stores it, after the whole file is
   * written): written in place, with no temporary file and rename. A file already there under that name is an error
   * (EEXIST) and stays as it was; a failed write leaves nothing.
   */
  async function writeNew(parts: string[], data: Uint8Array | Uint8Array[]): Promise<string> {
    const target = pathOf(...parts);
    const chunks = Array.isArray(data) ? data : [data];
    const total = chunks.reduce((sum, c) => sum + c.byteLength, 0);
    const whole = (written: number) => {
      if (written !== total) throw new Error(`short write to ${target}: ${written} of ${total} bytes`);
    };
    const write = async () => {
      if (total <= SYNC_WRITE_BYTES) {
        const fd = openSync(target, "wx");
        try {
          whole(writevSync(fd, chunks));
        } finally {
          closeSync(fd);
        }
        return;
      }
      const handle = await open(target, "wx");
      try {
        whole((await handle.writev(chunks)).bytesWritten);
      } finally {
        await handle.close();
      }
    };
    try {
      await write().catch(async (error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
        await mkdir(path.dirname(target), { recursive: true });
        await write();
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") await rm(target, { force: true });
      throw error;
    }
    return target;
  }

  /**
   * Streams a body to `parts` without holding it in memory, atomically, stopping with
   * PAYLOAD_TOO_LARGE past `maxBytes`. Returns the byte count.
   */
  /**
   * Streams a body to a file, written under a temporary name and renamed when whole. `inPlace`: written at its own
   * name from the start, for a file in a folder claimed for it (claim), which readers ignore until it is settled, and
   * that a parser may read while it grows (growing-file.ts). `onBytes`: told the bytes received so far, as they come.
   */
  async function writeStream(
    parts: string[],
    body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
    maxBytes: number,
    options: { inPlace?: boolean; onBytes?: (bytes: number) => void } = {},
  ): Promise<{ path: string; bytes: number }> {
    const target = pathOf(...parts);
    await mkdir(path.dirname(target), { recursive: true });
    const temp = options.inPlace ? target : tempNameFor(target);
    let bytes = 0;
    const source =
      body instanceof Readable
        ? body
        : body instanceof ReadableStream
          ? Readable.fromWeb(body as WebReadableStream<Uint8Array>)
          : Readable.from(body);
    // Counted as it flows (no extra stream stage): past the limit the source is destroyed with the error.
    source.on("data", (chunk: Uint8Array) => {
      bytes += chunk.byteLength;
      options.onBytes?.(bytes);
      if (bytes > maxBytes)
        source.destroy(
          new AppError("PAYLOAD_TOO_LARGE", `upload exceeds the limit of ${maxBytes} bytes`, { details: { limit: maxBytes } }),
        );
    });
    try {
      // Large write buffers let the socket keep receiving while the disk writes: the two overlap.
      const sink =
        body instanceof IncomingMessage
          ? releasingWriteStream(temp, WRITE_BUFFER)
          : createWriteStream(temp, { highWaterMark: WRITE_BUFFER });
      await pipeline(source, sink);
      if (temp !== target) await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return { path: target, bytes };
  }

  async function exists(parts: string[]): Promise<boolean> {
    try {
      await stat(pathOf(...parts));
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Removes one file writeNew wrote, in one synchronous unlink (about 10 µs here, against about 50 µs of the event
   * loop's for the promise API's); nothing there is fine.
   */
  function removeFile(parts: string[]): void {
    try {
      unlinkSync(pathOf(...parts));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }

  /** Removes a file or a folder with all it holds; nothing there is fine. */
  async function remove(parts: string[]): Promise<void> {
    const target = pathOf(...parts);
    // Most removals are one file: unlink it (rm's recursive walk stats it first, and costs several calls).
    try {
      await unlink(target);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ENOENT") return;
      // a folder (EISDIR on Linux, EPERM elsewhere): removed whole below
    }
    await rm(target, { recursive: true, force: true });
  }

  /**
   * Creates the folder `parts` marked as being written by this process (see WRITING_MARKER); `settle` ends that. The
   * folder appears with its marker: it is made and marked under tmp/, then renamed into place, so a process killed in
   * between leaves nothing unmarked among the versions (an unmarked folder waits out the sweep's grace, in case
   * another instance is about to mark it). A folder already there is marked in place.
   */
  async function claim(parts: string[]): Promise<string> {
    const dir = pathOf(...parts);
    const marker: WritingMarker = { host: os.hostname(), pid: process.pid, run: PROCESS_RUN, startedAt: Date.now() };
    const staging = pathOf("tmp", `claim-${Date.now()}-${randomBytes(6).toString("hex")}`);
    try {
      await mkdir(staging, { recursive: true });
      await writeFile(path.join(staging, WRITING_MARKER), JSON.stringify(marker));
      await mkdir(path.dirname(dir), { recursive: true });
      await rename(staging, dir);
      return dir;
    } catch {
      await rm(staging, { recursive: true, force: true });
    }
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, WRITING_MARKER), JSON.stringify(marker));
    return dir;
  }

  /** The folder is finished (its record references it): its marker goes. */
  async function settle(parts: string[]): Promise<void> {
    await rm(path.join(pathOf(...parts), WRITING_MARKER), { force: true });
  }

  /** Makes `to` the same bytes as `from`: a hard link (no copy) where the file system allows, else a copy. */
  async function share(from: string[], to: string[]): Promise<void> {
    const target = pathOf(...to);
    await mkdir(path.dirname(target), { recursive: true });
    await link(pathOf(...from), target).catch(() => copyFile(pathOf(...from), target));
  }

  /** A fresh, empty scratch folder for one job (marked as being written); the caller removes it. */
  async function scratch(): Promise<string> {
    return claim(["tmp", `${Date.now()}-${randomBytes(6).toString("hex")}`]);
  }

  return { root: base, pathOf, writeAtomic, writeNew, removeFile, writeStream, exists, remove, scratch, claim, settle, share };
}
