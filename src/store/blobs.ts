// The blob store: files under DATA_DIR/blobs, written atomically (temp file, then rename).
import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { ReadableStream as WebReadableStream } from "node:stream/web";
import { AppError } from "../errors/app-error.ts";

export type BlobStore = ReturnType<typeof createBlobStore>;

const WRITE_BUFFER = 8 << 20;

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
    body: ReadableStream<Uint8Array> | AsyncIterable<Uint8Array>,
    maxBytes: number,
  ): Promise<{ path: string; bytes: number }> {
    const target = pathOf(...parts);
    await mkdir(path.dirname(target), { recursive: true });
    const temp = tempNameFor(target);
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
      if (bytes > maxBytes)
        source.destroy(
          new AppError("PAYLOAD_TOO_LARGE", `upload exceeds the limit of ${maxBytes} bytes`, { details: { limit: maxBytes } }),
        );
    });
    try {
      // Large write buffers let the socket keep receiving while the disk writes: the two overlap.
      await pipeline(source, createWriteStream(temp, { highWaterMark: WRITE_BUFFER }));
      await rename(temp, target);
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
