// The startup sweep: versions and folders no record references go when their writer is gone; referenced ones and
// those a live process still writes stay.
import { spawnSync } from "node:child_process";
import { mkdir, readdir, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sweepBlobs } from "../../src/store/blob-sweep.ts";
import { PROCESS_RUN, WRITING_MARKER } from "../../src/store/blobs.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

describe("the blob sweep", () => {
  let gw: TestGateway;

  beforeAll(async () => {
    gw = await createTestGateway("sqlite");
  });
  afterAll(() => gw?.close());

  it("removes what dead writers and deleted records left, and keeps referenced and live folders", async () => {
    const { db, blobs, files } = gw.gateway.services;
    const viewer = await gw.gateway.services.authenticator.authenticate(`Bearer ${await gw.login()}`);
    if (!viewer) throw new Error("no viewer");
    const file = await files.create(viewer, { fileType: "csv", name: "e.csv" });
    const uploaded = await files.upload(viewer, file.id, new Blob(["a,b\n1,2\n"]), true);
    const current = uploaded.dataVersion as string;

    // A pid that is surely gone: a process that has exited.
    const deadPid = spawnSync(process.execPath, ["-e", "0"]).pid as number;
    const marker = (pid: number, run: string, host = os.hostname(), startedAt = Date.now()) =>
      JSON.stringify({ host, pid, run, startedAt });
    const folder = async (parts: string[], markerText?: string, ageMs = 0) => {
      const dir = blobs.pathOf(...parts);
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, "raw"), "x".repeat(1000));
      if (markerText !== undefined) await writeFile(path.join(dir, WRITING_MARKER), markerText);
      if (ageMs > 0) {
        const then = new Date(Date.now() - ageMs);
        await utimes(dir, then, then);
      }
    };
    await folder(["files", file.id, "killed"], marker(deadPid, "old-run"));
    await folder(["files", file.id, "torn"], '{"host":');
    await folder(["files", file.id, "writing"], marker(process.pid, PROCESS_RUN));
    // our pid, an earlier run (a restarted server that got the same pid)
    await folder(["files", file.id, "earlier-run"], marker(process.pid, "earlier"));
    await folder(["files", file.id, "other-host"], marker(1, "r", "some-other-host"));
    await folder(["files", file.id, "other-host-stale"], marker(1, "r", "some-other-host", Date.now() - 48 * 3_600_000));
    await folder(["files", file.id, "old-orphan"], undefined, 10 * 60_000);
    await folder(["files", file.id, "fresh-unmarked"]);
    // the current version, marked by a writer that died after switching the record
    await writeFile(blobs.pathOf("files", file.id, current, WRITING_MARKER), marker(deadPid, "old-run"));
    await folder(["files", "no-such-file", "v1"], marker(deadPid, "old-run"));
    await folder(["datasets", "never-created", "tables", "v1"], marker(deadPid, "old-run"));
    await folder(["datasets", "being-created", "tables", "v1"], marker(process.pid, PROCESS_RUN));
    await folder(["tmp", "scratch-dead"], marker(deadPid, "old-run"));
    // unmarked writes (layouts, collection matches): by age alone
    await folder(["sessions", "gone-session"], undefined, 10 * 60_000);
    await folder(["sessions", "new-session"]);
    const dataset = await gw.gateway.services.datasets.create(viewer, {
      name: "d",
      metadata: {},
      nodeEncodings: { bindings: {} },
      edgeEncodings: { bindings: { source: "a", destination: "b" } },
      edgeFiles: [file.id],
    });
    const layouts = blobs.pathOf("datasets", dataset.id, "layouts");
    await mkdir(layouts, { recursive: true });
    await writeFile(path.join(layouts, "old.f32.part-0123"), "x".repeat(1000));
    await utimes(path.join(layouts, "old.f32.part-0123"), new Date(Date.now() - 600_000), new Date(Date.now() - 600_000));
    await writeFile(path.join(layouts, "new.f32"), "x");

    const result = await sweepBlobs(db, blobs);

    expect((await readdir(blobs.pathOf("files", file.id))).sort()).toEqual([current, "fresh-unmarked", "other-host", "writing"].sort());
    expect(await readdir(blobs.pathOf("files", file.id, current))).not.toContain(WRITING_MARKER);
    expect(await readdir(blobs.pathOf("files"))).not.toContain("no-such-file");
    expect((await readdir(blobs.pathOf("datasets"))).sort()).toEqual(["being-created", dataset.id].sort());
    expect(await readdir(layouts)).toEqual(["new.f32"]);
    expect(await readdir(blobs.pathOf("sessions"))).toEqual(["new-session"]);
    expect(await readdir(blobs.pathOf("tmp"))).not.toContain("scratch-dead");
    expect(result.removed.length).toBe(10);
    expect(result.bytes).toBeGreaterThanOrEqual(10 * 1000);
    // the file still reads
    expect((await files.get(viewer, file.id)).isValid).toBe(true);
  });
});
