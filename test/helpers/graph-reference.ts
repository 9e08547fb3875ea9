// The reference libraries themselves (python-igraph, networkx) run on the same graphs as the compute suites, in one
// python process per batch (graph_reference.py says what a call may be and how answers come back).
import { spawn, spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export type ReferenceGraph = {
  n: number;
  edges: ReadonlyArray<readonly [number, number]>;
  directed?: boolean;
  /** Edge attributes by name, one value per edge (e.g. weight). */
  edgeAttrs?: Record<string, ReadonlyArray<number | string | null>>;
  /** Python expressions over g (igraph.Graph), G (networkx), ig, nx. */
  calls: string[];
};

export type ReferenceAnswer = { ok: true; value: unknown } | { ok: false; error: string };

const SCRIPT = path.join(path.dirname(fileURLToPath(import.meta.url)), "graph_reference.py");

function hasReferences(python: string): boolean {
  return spawnSync(python, ["-c", "import igraph, networkx"], { stdio: "ignore", timeout: 60_000 }).status === 0;
}

/** A python with python-igraph and networkx: GRAPH_PYTHON, python3 on the PATH, then Debian's /usr/bin/python3. */
export const GRAPH_PYTHON: string | undefined = [process.env.GRAPH_PYTHON, "python3", "/usr/bin/python3"].find(
  (p): p is string => Boolean(p) && hasReferences(p as string),
);

/** Runs every graph's calls; one list of answers per graph, in order. */
export async function runReference(graphs: ReferenceGraph[]): Promise<ReferenceAnswer[][]> {
  if (!GRAPH_PYTHON) throw new Error("no python3 with python-igraph and networkx: install Debian's python3-igraph python3-networkx");
  const input = JSON.stringify({
    graphs: graphs.map((g) => ({ n: g.n, edges: g.edges, directed: g.directed ?? true, edge_attrs: g.edgeAttrs ?? {}, calls: g.calls })),
  });
  const python = GRAPH_PYTHON;
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(python, [SCRIPT], { stdio: ["pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on("data", (c: Buffer) => out.push(c));
    child.stderr.on("data", (c: Buffer) => err.push(c));
    child.on("error", reject);
    child.on("close", (code) =>
      code === 0 ? resolve(Buffer.concat(out).toString("utf8")) : reject(new Error(`graph_reference.py: ${Buffer.concat(err)}`)),
    );
    child.stdin.end(input);
  });
  return JSON.parse(output) as ReferenceAnswer[][];
}

/** The value of an answer, failing the test with the reference's error when it refused. */
export function answerValue<T = unknown>(answer: ReferenceAnswer | undefined): T {
  if (!answer) throw new Error("no reference answer");
  if (!answer.ok) throw new Error(`the reference refused: ${answer.error}`);
  return answer.value as T;
}
