// The blob store: files under DATA_DIR/blobs, written atomically (temp file, then rename).
import { randomBytes } from "node:crypto";
import { mkdir, open, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { AppError } from "../errors/app-error.ts";

export type BlobStore = ReturnType<typeof createBlobStore>;

const WRITE_BATCH = 4 << 20;

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
    await mkdir(path.dirname(target), { recursive: true });
    const temp = tempNameFor(target);
    try {
      await writeFile(temp, data);
      await rename(temp, target);
    } catch (error) {
      await rm(temp, { force: true });
      throw error;
    }
    return target;
  }

  /**
   * Streams a body to `parts` without holding it in memory, atomically, stopping with
   * PAYLOAD_TOO_LARGE past `maxBytes`. Returns the byte count.
   */
  async function writeStream(
    parts: string[],
    body: ReadableStream<Uint8Array> | Readable,
    maxBytes: number,
  ): Promise<{ path: string; bytes: number }> {
    const target = pathOf(...parts);
    await mkdir(path.dirname(target), { recursive: true });
    const temp = tempNameFor(target);
    const handle = await open(temp, "w");
    let bytes = 0;
    // Chunks are gathered into writes of about 4 MiB: far fewer system calls than one per network chunk.
    const pending: Uint8Array[] = [];
    let pendingBytes = 0;
    const flush = async () => {
      if (pendingBytes === 0) return;
      await handle.writev(pending.splice(0));
      pendingBytes = 0;
    };
    try {
      const source = body instanceof ReadableStream ? Readable.fromWeb(body as WebReadableStream<Uint8Array>) : body;
      for await (const chunk of source as AsyncIterable<Uint8Array>) {
        bytes += chunk.byteLength;
        if (bytes > maxBytes)
          throw new AppError("PAYLOAD_TOO_LARGE", `upload exceeds the limit of ${maxBytes} bytes`, { details: { limit: maxBytes } });
        pending.push(chunk);
        pendingBytes += chunk.byteLength;
        if (pendingBytes >= WRITE_BATCH) await flush();
      }
      await flush();
      await handle.close();
      await rename(temp, target);
    } catch (error) {
      await handle.close().catch(() => {});
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

  async function remove(parts: string[]): Promise<void> {
    await rm(pathOf(...parts), { recursive: true, force: true });
  }

  /** A fresh, empty scratch folder for one job; the caller removes it. */
  async function scratch(): Promise<string> {
    const dir = pathOf("tmp", `${Date.now()}-${randomBytes(6).toString("hex")}`);
    await mkdir(dir, { recursive: true });
    return dir;
  }

  return { root: base, pathOf, writeAtomic, writeStream, exists, remove, scratch };
}
