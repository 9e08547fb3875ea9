// GFQL steps give polars no deprecated call: polars prints its deprecation warnings straight to stderr, where they
// fill a server's log (CI's log showed them from fa2_layout's singleton placement). The steps run in a process of
// their own, whose stderr is read.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const script = fileURLToPath(new URL("./fixtures/polars-warnings.ts", import.meta.url));

describe("polars warnings", () => {
  it("fa2_layout with singleton nodes runs without a polars deprecation warning", () => {
    const run = spawnSync(process.execPath, [script], { encoding: "utf8", timeout: 60_000 });
    expect(run.status, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout.trim().split("\n").at(-1) ?? "{}")).toMatchObject({ rows: 7 });
    expect(run.stderr).not.toMatch(/Deprecation/);
  });
});
