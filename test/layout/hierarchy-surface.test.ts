// The hierarchical layouts through dataset creation as pygraphistry callers send them: a Sugiyama drawing of a DAG
// (edges pointing down, layers from a node column by name), a tree from a root named by id, bipartite rows from the
// node table's default `type` column; and the 400s naming layout.params.<field> for bad roots, layers and types.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readTable } from "../../src/ingest/table-files.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

type Json = Record<string, unknown>;

// A DAG on a..h (every edge from an earlier letter to a later one).
const DAG = "s,d\na,b\na,c\nb,d\nc,d\nd,e\nb,f\nf,g\ne,h\ng,h\na,h\n";

describe("hierarchical layouts on dataset creation", () => {
  let gw: TestGateway;
  let auth: Record<string, string>;

  async function file(text: string): Promise<string> {
    const created = await gw.json<{ file_id: string }>("/api/v2/files/", { method: "POST", headers: auth, json: { file_type: "csv" } });
    await gw.request(`/api/v2/upload/files/${created.body.file_id}`, { method: "POST", headers: auth, body: text });
    return created.body.file_id;
  }

  const create = async (layout: unknown, nodeCsv?: string) =>
    gw.json<Json & { data: { dataset_id: string } }>("/api/v2/upload/datasets/", {
      method: "POST",
      headers: auth,
      json: {
        name: "hierarchy",
        metadata: {},
        node_encodings: { bindings: nodeCsv ? { node: "id" } : {} },
        edge_encodings: { bindings: { source: "s", destination: "d" } },
        edge_files: [await file(DAG)],
        ...(nodeCsv ? { node_files: [await file(nodeCsv)] } : {}),
        layout,
      },
    });

  /** Stored positions by node id. */
  async function positions(id: string, key: string): Promise<Map<string, [number, number]>> {
    const { datasets } = gw.gateway.services;
    const { nodes } = datasets.tablePaths(await datasets.getForSession(id));
    const table = readTable(nodes as string);
    const ids = table.getColumn(key).toArray() as string[];
    const xs = table.getColumn("x").toArray() as number[];
    const ys = table.getColumn("y").toArray() as number[];
    return new Map(ids.map((v, i) => [v, [xs[i] as number, ys[i] as number]]));
  }

  const edges = DAG.trim()
    .split("\n")
    .slice(1)
    .map((line) => line.split(",") as [string, string]);

  beforeAll(async () => {
    gw = await createTestGateway("sqlite");
    auth = { authorization: `Bearer ${await gw.login()}` };
  });
  afterAll(() => gw?.close());

  it("sugiyama: every edge of the DAG points down; layers by column name put each node on its layer's row", async () => {
    const auto = await create({ libraries: ["igraph"], alg: "sugiyama" });
    expect(auto.status).toBe(200);
    const at = await positions(auto.body.data.dataset_id, "node");
    for (const [s, d] of edges) expect((at.get(d) as [number, number])[1]).toBeGreaterThan((at.get(s) as [number, number])[1]);
    const nodeCsv = "id,rank\nh,6\ng,4\nf,2\ne,4\nd,2\nc,1\nb,1\na,0\n";
    const ranked = await create({ libraries: ["igraph"], alg: "sugiyama", params: { layers: "rank", vgap: 2 } }, nodeCsv);
    expect(ranked.status).toBe(200);
    const byRank = await positions(ranked.body.data.dataset_id, "id");
    for (const line of nodeCsv.trim().split("\n").slice(1)) {
      const [id, rank] = line.split(",");
      expect(byRank.get(id as string)?.[1]).toBe(Number(rank) * 2);
    }
  });

  it("rt from a root named by id: y is the BFS depth; bipartite rows from the default type column", async () => {
    const tree = await create({ libraries: ["igraph"], alg: "tree", params: { root: ["a"], mode: "all" } });
    expect(tree.status).toBe(200);
    const at = await positions(tree.body.data.dataset_id, "node");
    const depth: Record<string, number> = { a: 0, b: 1, c: 1, h: 1, d: 2, f: 2, e: 2, g: 2 };
    for (const [id, d] of Object.entries(depth)) expect(at.get(id)?.[1]).toBe(d);
    const types = { a: true, b: false, c: false, d: true, e: false, f: true, g: false, h: true };
    const nodeCsv = `id,type\n${Object.entries(types)
      .map(([id, t]) => `${id},${t}`)
      .join("\n")}\n`;
    const two = await create({ libraries: ["igraph"], alg: "bipartite", params: { vgap: 3 }, directed: false }, nodeCsv);
    expect(two.status).toBe(200);
    const rows = await positions(two.body.data.dataset_id, "id");
    for (const [id, t] of Object.entries(types)) expect(rows.get(id)?.[1]).toBe(t ? 0 : 3);
  });

  it.each([
    ["a root that is not a node", { libraries: ["igraph"], alg: "rt", params: { root: ["zz"] } }, undefined, "layout.params.root"],
    [
      "layers of the wrong length",
      { libraries: ["igraph"], alg: "sugiyama", params: { layers: [0, 1] } },
      undefined,
      "layout.params.layers",
    ],
    ["a missing types column", { libraries: ["igraph"], alg: "bipartite" }, undefined, "layout.params.types"],
    [
      "a types column that is not boolean",
      { libraries: ["igraph"], alg: "bipartite", params: { types: "rank" } },
      "id,rank\na,0\nb,3\n",
      "layout.params.types",
    ],
  ])("answers 400 naming the field for %s", async (_what, layout, nodeCsv, field) => {
    const { status, body } = await create(layout, nodeCsv);
    expect(status).toBe(400);
    expect(body).toMatchObject({ success: false, error: { code: "INVALID_INPUT", details: { field } } });
  });
});
