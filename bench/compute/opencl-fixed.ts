// bench/compute: the OpenCL runtime's own resident memory, a fixed cost per process whatever the graph (PoCL here:
// its compiler building the programs, its threads): the resident growth from running a few kernels' algorithms on a
// 4-node graph. Prints one JSON line {ok, bytes} (or {ok: false, error}).
// Run by bench/compute.ts as: node bench/compute/opencl-fixed.ts
import { readFileSync } from "node:fs";
import { computeGraph } from "../../kernels/cpu/csr.ts";
import { createComputeContext } from "../../src/compute/backend.ts";
import { findAlgorithm } from "../../src/compute/registry.ts";

const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync("/proc/self/status", "utf8"))?.[1] ?? 0) * 1024;

try {
  const graph = computeGraph(4, [
    [0, 1],
    [1, 2],
    [2, 3],
  ]);
  const before = rss();
  const runs: [string, Record<string, unknown>][] = [
    ["bfs", { start: 0 }],
    ["pagerank", {}],
    ["jaccard", {}],
    ["core_number", {}],
  ];
  for (const [name, given] of runs) {
    const entry = findAlgorithm("cugraph", name);
    if (!entry) throw new Error(`cugraph/${name} is not registered`);
    const params: Record<string, unknown> = {};
    for (const [key, spec] of Object.entries(entry.params)) if (spec.default !== undefined) params[key] = spec.default;
    entry.run(
      { ...graph, directed: name !== "jaccard" && name !== "core_number" },
      { ...params, ...given },
      createComputeContext({ backend: "opencl" }),
      name,
    );
  }
  process.stdout.write(`${JSON.stringify({ ok: true, bytes: rss() - before })}\n`);
} catch (error) {
  process.stdout.write(`${JSON.stringify({ ok: false, error: error instanceof Error ? error.message : String(error) })}\n`);
}
process.exit(0);
