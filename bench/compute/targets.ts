// bench/compute: issue 14's performance targets read off the measured rows, each with pass/fail and by how much.
import { formatMs, type Measure, type Row } from "./results.ts";

type Ms = (m: Measure | undefined) => number | undefined;

/** Our faster backend on a row, with its name. */
function ours(row: Row, ms: Ms): { ms: number; backend: string } | undefined {
  const cpu = ms(row.measures.cpu);
  const cl = ms(row.measures.opencl);
  if (cl !== undefined && (cpu === undefined || cl < cpu)) return { ms: cl, backend: "opencl" };
  return cpu !== undefined ? { ms: cpu, backend: "cpu" } : undefined;
}

const verdict = (pass: boolean) => (pass ? "PASS" : "FAIL");

/**
 * `openclFixed`: the OpenCL runtime's own resident bytes (a fixed cost per process, measured apart): the OpenCL
 * runs are also counted less it, as a note beside the verdict (which counts them whole).
 */
export function targets(rows: Row[], largest: string, ms: Ms, memoryGraphs: string[], openclFixed?: number): string {
  const lines: string[] = [];
  const against = (title: string, factor: string, limit: number, graphs: (g: string) => boolean, keys: string[]) => {
    for (const row of rows.filter((r) => keys.includes(r.title) && graphs(r.graph))) {
      const us = ours(row, ms);
      const ig = ms(row.measures.igraph);
      if (!us || ig === undefined) {
        lines.push(
          `  ${title} ${row.graph} ${row.title}: not measured (ours ${us ? "ran" : "did not finish"}, igraph ${ig !== undefined ? "ran" : "did not finish"})`,
        );
        continue;
      }
      const r = us.ms / ig;
      lines.push(
        `  ${verdict(r <= limit)} ${title} ${row.graph} ${row.title}: ${formatMs(us.ms)} (${us.backend}) vs igraph ${formatMs(ig)} = ${r.toFixed(2)}x (target <= ${factor})`,
      );
    }
  };
  const big = (g: string) => g !== "small" && g !== "medium";
  against("PageRank", "0.5x", 0.5, (g) => g === largest, ["igraph/pagerank", "cugraph/pagerank"]);
  against("components", "1x", 1, big, [
    "cugraph/connected_components",
    "cugraph/weakly_connected_components",
    "cugraph/strongly_connected_components",
    "igraph/clusters",
  ]);
  against("core numbers", "1x", 1, big, ["cugraph/core_number"]);
  against("BFS/SSSP", "1x", 1, big, ["cugraph/bfs", "cugraph/sssp"]);
  against("Louvain", "1x", 1, big, ["cugraph/louvain", "igraph/community_multilevel"]);
  for (const row of rows.filter((r) => ["cugraph/louvain", "igraph/community_multilevel"].includes(r.title) && big(r.graph))) {
    const us = row.measures.cpu?.state === "ok" ? row.measures.cpu : row.measures.opencl;
    const ig = row.measures.igraph;
    if (us?.state === "ok" && ig?.state === "ok" && us.modularity !== undefined && ig.modularity !== undefined) {
      const gap = ig.modularity - us.modularity;
      lines.push(
        `  ${verdict(gap <= 0.01)} Louvain modularity ${row.graph} ${row.title}: ${us.modularity.toFixed(4)} vs igraph ${ig.modularity.toFixed(4)} (target: at most 0.01 below)`,
      );
    }
  }
  against("exact betweenness", "1x", 1, (g) => g === "medium", ["igraph/betweenness", "cugraph/betweenness_centrality"]);
  for (const row of rows.filter((r) => r.title === "cugraph/betweenness_centrality k")) {
    const exact = rows.find((r) => r.graph === row.graph && r.title === "cugraph/betweenness_centrality");
    const sampled = ms(row.measures.cpu);
    const whole = exact ? ms(exact.measures.cpu) : undefined;
    if (sampled === undefined || whole === undefined) {
      lines.push(`  sampled betweenness ${row.graph}: not measured`);
      continue;
    }
    const r = sampled / whole;
    lines.push(
      `  ${verdict(r <= 0.1)} sampled betweenness ${row.graph} (cpu): ${formatMs(sampled)} vs exact ${formatMs(whole)} = ${r.toFixed(3)}x (target <= 0.1x)`,
    );
    if (row.spearman !== undefined)
      lines.push(
        `  ${verdict(row.spearman >= 0.9)} sampled betweenness ${row.graph}: Spearman vs exact ${row.spearman.toFixed(3)} (target >= 0.9)`,
      );
  }
  const memory = rows
    .filter((r) => memoryGraphs.includes(r.graph))
    .flatMap((r) =>
      (["cpu", "opencl"] as const).flatMap((b) => {
        const m = r.measures[b];
        return m?.state === "ok" && m.beyond !== undefined && m.csrBytes ? [{ row: r, backend: b, x: m.beyond / m.csrBytes }] : [];
      }),
    );
  const over = memory.filter((m) => m.x > 2);
  lines.push(
    `  ${verdict(over.length === 0)} memory: ${memory.length - over.length} of ${memory.length} runs at most 2x the CSR's bytes beyond the tables`,
  );
  for (const m of over) lines.push(`       over: ${m.row.graph} ${m.row.title} (${m.backend}) ${m.x.toFixed(2)}x`);
  const cl = memory.filter((m) => m.backend === "opencl");
  if (openclFixed !== undefined && cl.length) {
    const less = cl.map((m) => {
      const measure = m.row.measures.opencl;
      const beyond = measure?.state === "ok" ? (measure.beyond ?? 0) : 0;
      const csr = measure?.state === "ok" ? (measure.csrBytes ?? 1) : 1;
      return { ...m, x: (beyond - openclFixed) / csr };
    });
    const still = less.filter((m) => m.x > 2);
    lines.push(
      `  note: less the OpenCL runtime's own ${(openclFixed / 2 ** 20).toFixed(0)} MiB (a fixed cost per process), ${cl.length - still.length} of ${cl.length} OpenCL runs are at most 2x`,
    );
    for (const m of still) lines.push(`       over: ${m.row.graph} ${m.row.title} (opencl, less the runtime) ${m.x.toFixed(2)}x`);
  }
  return lines.join("\n");
}
