// The blob store's small operations: atomic writes (into a folder made when missing), writes under new names (in
// pieces, small and large), removals of a file, a folder with what it holds, or nothing; the pooled random names; and
// claims, whose folders appear already marked.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type BlobStore, createBlobStore, WRITING_MARKER } from "../../src/store/blobs.ts";
import { randomHex } from "../../src/store/random-hex.ts";

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

  it("writes under a new name in pieces, small (at once) or large, refuses a name already there, and removes such a file", async () => {
    const small = await blobs.writeNew(["sessions", "s3", "collections", "n.u32"], [new Uint8Array([1, 2]), new Uint8Array([3])]);
    expect(Array.from(readFileSync(small))).toEqual([1, 2, 3]);
    const big = new Uint8Array(1 << 20).map((_, i) => i % 251);
    const large = await blobs.writeNew(["sessions", "s3", "collections", "big.u32"], [big.subarray(0, 100), big.subarray(100)]);
    expect(readFileSync(large).equals(Buffer.from(big))).toBe(true);
    // A name already there is an error, and the file there stays as it was.
    await expect(blobs.writeNew(["sessions", "s3", "collections", "n.u32"], new Uint8Array([9]))).rejects.toMatchObject({ code: "EEXIST" });
    expect(Array.from(readFileSync(small))).toEqual([1, 2, 3]);
    expect(readdirSync(path.dirname(small)).sort()).toEqual(["big.u32", "n.u32"]);
    blobs.removeFile(["sessions", "s3", "collections", "n.u32"]);
    blobs.removeFile(["sessions", "s3", "collections", "n.u32"]);
    expect(readdirSync(path.dirname(small))).toEqual(["big.u32"]);
  });

  it("draws random names from a pool: the asked length, hex, never the same twice", () => {
    const names = Array.from({ length: 2000 }, (_, i) => randomHex(1 + (i % 16)));
    for (const [i, name] of names.entries()) expect(name).toMatch(new RegExp(`^[0-9a-f]{${2 * (1 + (i % 16))}}$`));
    const long = names.filter((n) => n.length >= 16);
    expect(new Set(long).size).toBe(long.length);
    expect(() => randomHex(0)).toThrow(RangeError);
    expect(() => randomHex(4097)).toThrow(RangeError);
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

  it("claims a folder that appears with its marker (never unmarked for the sweep to wait on), leaving no staging folder", async () => {
    let unmarkedSeen = 0;
    for (let i = 0; i < 40; i++) {
      const parts = ["files", "f1", `v${i}`];
      const dir = blobs.pathOf(...parts);
      let watching = true;
      // Looks at the folder between every step of the claim (the same event loop), until the claim is done.
      const watch = (async () => {
        while (watching) {
          if (existsSync(dir) && !existsSync(path.join(dir, WRITING_MARKER))) unmarkedSeen++;
          await new Promise((resolve) => setImmediate(resolve));
        }
      })();
      await blobs.claim(parts);
      watching = false;
      await watch;
      expect(existsSync(path.join(dir, WRITING_MARKER))).toBe(true);
    }
    expect(unmarkedSeen).toBe(0);
    expect(readdirSync(blobs.pathOf("tmp")).filter((name) => name.startsWith("claim-"))).toEqual([]);
    // A folder already there (and not empty) is marked in place.
    await blobs.writeAtomic(["files", "f2", "v1", "raw"], "bytes");
    await blobs.claim(["files", "f2", "v1"]);
    expect(readdirSync(blobs.pathOf("files", "f2", "v1")).sort()).toEqual(["raw", WRITING_MARKER].sort());
  });
});
