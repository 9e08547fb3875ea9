// bench/compute: one measured row per (graph, algorithm case, backend), formatted into the table bench/compute.ts prints.

export type Measure =
  | { state: "ok"; ms: number; modularity?: number; communities?: number; beyond?: number; graph?: number; csrBytes?: number }
  | { state: "timeout"; capMs: number }
  | { state: "error"; message: string }
  | { state: "none"; why: string };

export type Column = "opencl" | "cpu" | "igraph" | "graphology";
export const COLUMNS: Column[] = ["opencl", "cpu", "igraph", "graphology"];

export type Row = {
  graph: string;
  title: string;
  key: string;
  measures: Partial<Record<Column, Measure>>;
  notes: string[];
  /** Spearman vs exact (sampled betweenness). */
  spearman?: number;
};

export const ms = (m: Measure | undefined): number | undefined => (m?.state === "ok" ? m.ms : undefined);

export function formatMs(value: number): string {
  if (value < 10) return `${value.toFixed(2)} ms`;
  if (value < 1000) return `${value.toFixed(0)} ms`;
  return `${(value / 1000).toFixed(2)} s`;
}

function cell(m: Measure | undefined): string {
  if (!m) return "";
  if (m.state === "ok") return formatMs(m.ms) + (m.modularity !== undefined ? ` (Q ${m.modularity.toFixed(3)})` : "");
  if (m.state === "timeout") return `> ${formatMs(m.capMs)}`;
  if (m.state === "error") return "error*";
  return "—";
}

const ratio = (a: number | undefined, b: number | undefined) =>
  a !== undefined && b !== undefined && b > 0 ? `${(a / b).toFixed(2)}x` : "";

/** A fixed-width table (columns padded to their widest cell). */
export function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < 2 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join("  ");
  return [line(header), widths.map((w) => "-".repeat(w)).join("  "), ...rows.map(line)].join("\n");
}

export function rowsTable(rows: Row[]): string {
  const header = ["graph", "algorithm", "opencl", "cpu", "igraph", "graphology", "cpu/ig", "ocl/ig", "mem/CSR", "alg/CSR"];
  const body = rows.map((r) => {
    const cpu = r.measures.cpu;
    const mem = cpu?.state === "ok" && cpu.beyond !== undefined && cpu.csrBytes ? `${(cpu.beyond / cpu.csrBytes).toFixed(2)}x` : "";
    const own =
      cpu?.state === "ok" && cpu.beyond !== undefined && cpu.graph !== undefined && cpu.csrBytes
        ? `${((cpu.beyond - cpu.graph) / cpu.csrBytes).toFixed(2)}x`
        : "";
    return [
      r.graph,
      r.title,
      cell(r.measures.opencl),
      cell(r.measures.cpu),
      cell(r.measures.igraph),
      cell(r.measures.graphology),
      ratio(ms(r.measures.cpu), ms(r.measures.igraph)),
      ratio(ms(r.measures.opencl), ms(r.measures.igraph)),
      mem,
      own,
    ];
  });
  return table(header, body);
}

/** The footnotes: errors and notes, one line each. */
export function footnotes(rows: Row[]): string[] {
  const out: string[] = [];
  for (const r of rows) {
    for (const [column, m] of Object.entries(r.measures)) {
      if (m?.state === "error") out.push(`${r.graph} ${r.title} ${column}: ${m.message}`);
    }
    for (const note of r.notes) out.push(`${r.graph} ${r.title}: ${note}`);
  }
  return out;
}
