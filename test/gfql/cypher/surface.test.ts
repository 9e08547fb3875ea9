// The GFQL surface (runQuery) takes Cypher text; per-path rows come back as the `nodes` row table, no edges.

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import pl from "nodejs-polars";
import { afterAll, describe, expect, it } from "vitest";
import { runQuery } from "../../../src/gfql/surface/run-query.ts";
import { sampleGraph } from "../helpers.ts";

const dir = mkdtempSync(join(tmpdir(), "cypher-surface-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function job(query: string, output: "shape" | "nodes" | "all" = "nodes") {
  const g = sampleGraph();
  const nodesPath = join(dir, "nodes.arrow");
  const edgesPath = join(dir, "edges.arrow");
  g.nodes.writeIPC(nodesPath);
  g.edges.withColumns(pl.col("rel").str.toUpperCase().alias("type")).writeIPC(edgesPath);
  return runQuery({ nodesPath, edgesPath, nodeId: "id", source: "s", destination: "d", query, output, limit: 3 });
}

describe("runQuery with Cypher text", () => {
  it("per-path rows: nodeCount is the true row count, rows limited, no edges", () => {
    const answer = job("MATCH (a)-[r]->(b) RETURN a.id AS a, b.id AS b, r.w AS w ORDER BY w DESC");
    expect(answer.nodeCount).toBe(5);
    expect(answer.edgeCount).toBe(0);
    expect(answer.nodes).toEqual([
      { a: "e", b: "a", w: 5 },
      { a: "a", b: "c", w: 4 },
      { a: "c", b: "d", w: 3 },
    ]);
    expect(answer.edges).toBeUndefined();
  });

  it("OPTIONAL MATCH with collect: lists and nulls survive as JSON values", () => {
    const answer = job("MATCH (n:person) OPTIONAL MATCH (n)-[:X]->(m) RETURN n.id AS n, collect(m.id) AS xs ORDER BY n", "all");
    expect(answer.nodeCount).toBe(4);
    expect(answer.nodes).toEqual([
      { n: "a", xs: ["b"] },
      { n: "b", xs: [] },
      { n: "d", xs: [] },
    ]);
    expect(answer.edges).toEqual([]);
  });
});
