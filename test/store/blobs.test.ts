// The blob store's small operations: atomic writes (into a folder made when missing) and removals of a file, a folder
// with what it holds, or nothing.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BlobStore, createBlobStore } from "../../src/store/blobs.ts";

describe("blob store", () => {
  let root = "";
  let blobs: BlobStore;
  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), "blobs-"));
    blobs = createBlobStore(root);
  });
  afterAll(async () => {
    await rm(root, { recursive: true, force: true });
  });

  it("writes atomically, making the folder when it is missing, and leaves no temporary file", async () => {
    const first = await blobs.writeAtomic(["sessions", "s1", "collections", "a.u32"], new Uint8Array([1, 2, 3]));
    expect(Array.from(readFileSync(first))).toEqual([1, 2, 3]);
    // The folder exists now: the next write goes straight in, and a rewrite replaces the bytes whole.
    await blobs.writeAtomic(["sessions", "s1", "collections", "a.u32"], "later");
    expect(readFileSync(first, "utf8")).toBe("later");
    expect(readdirSync(path.dirname(first))).toEqual(["a.u32"]);
  });

  it("removes a file, a folder with what it holds, and nothing without complaint", async () => {
    await blobs.writeAtomic(["sessions", "s2", "collections", "b.u32"], "x");
    await blobs.writeAtomic(["sessions", "s2", "layout.f32"], "y");
    await blobs.remove(["sessions", "s2", "layout.f32"]);
    expect(existsSync(blobs.pathOf("sessions", "s2", "layout.f32"))).toBe(false);
    expect(existsSync(blobs.pathOf("sessions", "s2", "collections", "b.u32"))).toBe(true);
    await blobs.remove(["sessions", "s2"]);
    expect(existsSync(blobs.pathOf("sessions", "s2"))).toBe(false);
    await blobs.remove(["sessions", "s2"]);
    await blobs.remove(["sessions", "never", "there.u32"]);
  });
});
