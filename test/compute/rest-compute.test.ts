// Compute surfaces over REST and GraphQL: the spec 2.9 schema route, dataset creation with compute (files and direct
// uploads), every 400, results checked against python-igraph on the same graph.
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadAlgorithms, registerAlgorithms } from "../../src/compute/algorithm-lookup.ts";
import { ALGORITHMS, computeSchema } from "../../src/compute/registry.ts";
import { layoutSchema } from "../../src/layout/registry.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { answerValue as answerOf, runReference } from "../helpers/graph-reference.ts";
import { seeded } from "../helpers/seeded.ts";
import { entries } from "./service-entries.fixture.ts";

process.env.COMPUTE_EXTRA_ALGORITHMS = fileURLToPath(new URL("./service-entries.fixture.ts", import.meta.url));
registerAlgorithms(entries);
await loadAlgorithms();

type Json = Record<string, unknown>;

/** Spec 2.9's compute names: a registered name must be one of these. */
const SPEC_COMPUTE = {
  cugraph:
    "betweenness_centrality katz_centrality ecg leiden louvain spectralBalancedCutClustering spectralModularityMaximizationClustering connected_components strongly_connected_components weakly_connected_components core_number hits pagerank bfs bfs_edges sssp shortest_path shortest_path_length batched_ego_graphs edge_betweenness_centrality jaccard jaccard_w overlap overlap_coefficient overlap_w sorensen sorensen_coefficient sorensen_w ego_graph k_core minimum_spanning_tree".split(
      " ",
    ),
  igraph:
    "authority_score betweenness bibcoupling harmonic_centrality closeness clusters cocitation community_edge_betweenness community_fastgreedy community_infomap community_label_propagation community_leading_eigenvector community_leiden community_multilevel community_spinglass community_walktrap constraint gomory_hu_tree hub_score eccentricity eigenvector_centrality k_core pagerank spanning_tree".split(
      " ",
    ),
};

/** A seeded graph: n nodes named n0.., m edges (a few self-loops and repeats), integer weights (some negative when asked). */
function graph(seed: number, n: number, m: number, negative = false) {
  const rand = seeded(seed).next;
  const edges: [number, number, number][] = [];
  for (let e = 0; e < m; e++) {
    const s = Math.floor(rand() * n);
    const d = Math.floor(rand() * n);
    edges.push([s, d, Math.floor(rand() * 9) + (negative && e === 3 ? -20 : 1)]);
  }
  const csv = ["s,d,w", ...edges.map(([s, d, w]) => `n${s},n${d},${w}`)];
  return { edges, csv: `${csv.join("\n")}\n`, n };
}

describe("compute over REST and GraphQL", () => {
  let gw: TestGateway;
  let auth: Record<string, string>;
  let token: string;

  async function file(text: string): Promise<string> {
    const created = await gw.json<{ file_id: string }>("/api/v2/files/", { method: "POST", headers: auth, json: { file_type: "csv" } });
    await gw.request(`/api/v2/upload/files/${created.body.file_id}`, { method: "POST", headers: auth, body: text });
    return created.body.file_id;
  }

  const body = (edgeFile: string, compute: unknown, nodeFile?: string): Json => ({
    name: "computed",
    metadata: {},
    node_encodings: { bindings: nodeFile ? { node: "id" } : {} },
    edge_encodings: { bindings: { source: "s", destination: "d", edge_weight: "w" } },
    edge_files: [edgeFile],
    ...(nodeFile ? { node_files: [nodeFile] } : {}),
    compute,
  });

  const create = (json: Json, path = "/api/v1/datasets/") =>
    gw.json<Json & { data: { dataset_id: string } }>(path, { method: "POST", headers: auth, json });

  async function rows(id: string, axis: "nodes" | "edges"): Promise<Json[]> {
    const answer = await gw.json<Json[]>(`/api/v2/etl/datasets/${id}/gfql/${axis}`, {
      method: "POST",
      headers: auth,
      json: { gfql_operations: [], format: "json" },
    });
    expect(answer.status).toBe(200);
    return answer.body;
  }

  const count = async () => (await gw.json<{ count: number }>("/api/v2/datasets/", { headers: auth })).body.count;

  beforeAll(async () => {
    gw = await createTestGateway("sqlite");
    token = await gw.login();
    auth = { authorization: `Bearer ${token}` };
  });
  afterAll(() => gw?.close());

  it("answers spec 2.9's schema on api/v1/datasets/ and web/api/v1/datasets/, name by name from the registry", async () => {
    for (const path of ["/api/v1/datasets/", "/web/api/v1/datasets/"]) {
      const { status, body: schema } = await gw.json<Json>(path, { headers: auth });
      expect(status).toBe(200);
      expect(schema).toEqual({
        compute: computeSchema(),
        layout: layoutSchema(),
        types: { CuGraphKind: ["Graph", "MultiGraph", "BiPartiteGraph"] },
      });
      const compute = schema.compute as { cugraph: string[]; igraph: string[] };
      for (const lib of ["cugraph", "igraph"] as const) for (const name of compute[lib]) expect(SPEC_COMPUTE[lib]).toContain(name);
      // fixture algorithms run but are not part of the schema
      expect(compute.igraph).not.toContain("test_strength");
    }
    const gql = await gw.graphql<{ computeSchema: Json; computeAlgorithms: { library: string; name: string }[] }>(
      "{ computeSchema { compute { cugraph igraph } layout { cugraph igraph } types { CuGraphKind } } computeAlgorithms { library name output backends } }",
    );
    expect(gql.body.data?.computeSchema.compute).toEqual(computeSchema());
    expect(gql.body.data?.computeAlgorithms.map((a) => `${a.library}/${a.name}`)).toEqual(ALGORITHMS.map((a) => `${a.library}/${a.name}`));
  });

  it("creates a dataset with computed node columns that match python-igraph", async () => {
    const g = graph(7, 40, 120);
    const { status, body: created } = await create(
      body(await file(g.csv), {
        strength: { libraries: ["igraph"], alg: "test_strength", params: { weights: "w" }, directed: false },
        out_strength: { libraries: ["igraph"], alg: "test_strength", params: { loops: false } },
        dist: { libraries: ["cugraph"], alg: "test_bfs", params: { start: "n0" } },
      }),
    );
    expect(status).toBe(200);
    expect(created).toMatchObject({ success: true, data: { dataset_id: expect.any(String) } });
    expect(created.message).toMatch(
      /Computed strength \(igraph test_strength\), out_strength \(igraph test_strength\), dist \(cugraph test_bfs\)\./,
    );
    const nodes = await rows(created.data.dataset_id, "nodes");
    const rowOf = new Map(nodes.map((r, i) => [r.node as string, i]));
    const edges = g.edges.map(([s, d]) => [rowOf.get(`n${s}`) as number, rowOf.get(`n${d}`) as number] as const);
    const weights = g.edges.map(([, , w]) => w);
    const [undirected, directed] = await runReference([
      { n: nodes.length, edges, directed: false, edgeAttrs: { weight: weights }, calls: ["g.strength(weights='weight')"] },
      { n: nodes.length, edges, calls: ["g.strength(mode='out', loops=False)", `g.distances(source=${rowOf.get("n0")})[0]`] },
    ]);
    expect(nodes.map((r) => r.strength)).toEqual(answerOf(undirected?.[0]));
    expect(nodes.map((r) => r.out_strength)).toEqual(answerOf(directed?.[0]));
    const distances = answerOf<(number | string | null)[]>(directed?.[1]).map((d) =>
      typeof d === "number" && Number.isFinite(d) ? d : null,
    );
    expect(nodes.map((r) => r.dist)).toEqual(distances);
    // each reached node's predecessor is one hop nearer, over an edge
    const edgeSet = new Set(edges.map(([s, d]) => `${s}>${d}`));
    for (const [i, r] of nodes.entries()) {
      if (r.dist === null || r.dist === 0) expect(r.predecessor).toBeNull();
      else {
        const p = rowOf.get(r.predecessor as string) as number;
        expect(nodes[p]?.dist).toBe((r.dist as number) - 1);
        expect(edgeSet.has(`${p}>${i}`)).toBe(true);
      }
    }
  });

  it("applies edge columns and graph answers on api/v2/upload/datasets/ too", async () => {
    const g = graph(11, 30, 45);
    const edgeFile = await file(g.csv);
    const weighed = await create(
      body(edgeFile, { w_out: { libraries: ["cugraph"], alg: "test_weight_check" } }),
      "/api/v2/upload/datasets/",
    );
    expect(weighed.status).toBe(200);
    const edges = await rows(weighed.body.data.dataset_id, "edges");
    expect(edges.map((e) => e.w_out)).toEqual(g.edges.map(([, , w]) => w));

    const core = await create(
      body(edgeFile, { core: { libraries: ["igraph"], alg: "test_min_degree", params: { k: 4 }, directed: false } }),
    );
    expect(core.status).toBe(200);
    const full = await create(body(edgeFile, {}));
    const allNodes = await rows(full.body.data.dataset_id, "nodes");
    const rowOf = new Map(allNodes.map((r, i) => [r.node as string, i]));
    const pairs = g.edges.map(([s, d]) => [rowOf.get(`n${s}`) as number, rowOf.get(`n${d}`) as number] as const);
    const [ref] = await runReference([
      {
        n: allNodes.length,
        edges: pairs,
        directed: false,
        calls: ["g.induced_subgraph([v.index for v in g.vs if v.degree() >= 4])"],
      },
    ]);
    const sub = answerOf<{ n: number; edges: [number, number][] }>(ref?.[0]);
    const kept = await rows(core.body.data.dataset_id, "nodes");
    const keptEdges = await rows(core.body.data.dataset_id, "edges");
    expect(kept.length).toBe(sub.n);
    expect(keptEdges.length).toBe(sub.edges.length);
    const dataset = await gw.json<{ data: Json }>(`/api/v2/upload/datasets/${core.body.data.dataset_id}`, { headers: auth });
    expect(dataset.body.data).toMatchObject({ node_count: sub.n, edge_count: sub.edges.length });

    const reversed = await create(body(edgeFile, { rev: { libraries: ["igraph"], alg: "test_reverse" } }));
    const flipped = await rows(reversed.body.data.dataset_id, "edges");
    expect(flipped).toEqual(g.edges.map(([s, d], i) => ({ s: `n${d}`, d: `n${s}`, old_row: i })));
  });

  it("runs the compute of a dataset made for direct uploads once its tables are uploaded", async () => {
    const created = await create({
      name: "direct",
      metadata: {},
      node_encodings: { bindings: {} },
      edge_encodings: { bindings: { source: "s", destination: "d" } },
      compute: { deg: { libraries: ["igraph"], alg: "test_strength", directed: false } },
    });
    expect(created.status).toBe(200);
    const id = created.body.data.dataset_id;
    const upload = await gw.json<Json>(`/api/v2/upload/datasets/${id}/edges/csv`, {
      method: "POST",
      headers: auth,
      body: "s,d\na,b\nb,c\na,c\nc,d\n",
    });
    expect(upload.status).toBe(200);
    const nodes = await rows(id, "nodes");
    expect(nodes).toEqual([
      { node: "a", deg: 2 },
      { node: "b", deg: 2 },
      { node: "c", deg: 3 },
      { node: "d", deg: 1 },
    ]);
  });

  it("runs registered algorithms (pagerank, components, multilevel, k_core) as python-igraph does", async () => {
    const g = graph(23, 60, 150);
    const compute = {
      pr: { libraries: ["igraph"], alg: "pagerank", params: { damping: 0.85, weights: "w" } },
      comp: { libraries: ["igraph"], alg: "clusters", params: { mode: "weak" } },
      louv: { libraries: ["igraph"], alg: "community_multilevel", directed: false },
    };
    const created = await create(body(await file(g.csv), compute));
    expect(created.status).toBe(200);
    const nodes = await rows(created.body.data.dataset_id, "nodes");
    const rowOf = new Map(nodes.map((r, i) => [r.node as string, i]));
    const edges = g.edges.map(([s, d]) => [rowOf.get(`n${s}`) as number, rowOf.get(`n${d}`) as number] as const);
    const weights = g.edges.map(([, , w]) => w);
    const membership = (column: string) => nodes.map((r) => r[column] as number);
    const [directed, undirected] = await runReference([
      {
        n: nodes.length,
        edges,
        edgeAttrs: { weight: weights },
        calls: ["g.pagerank(damping=0.85, weights='weight')", "g.connected_components(mode='weak').membership"],
      },
      {
        n: nodes.length,
        edges,
        directed: false,
        calls: ["g.community_multilevel().modularity", `g.modularity(${JSON.stringify(membership("louv"))})`],
      },
    ]);
    const expected = answerOf<number[]>(directed?.[0]);
    for (const [i, r] of nodes.entries())
      expect(Math.abs((r.pr as number) - (expected[i] as number))).toBeLessThanOrEqual(1e-6 * (expected[i] as number));
    // the same partition: equal labels exactly where igraph's are equal
    const ours = membership("comp");
    const theirs = answerOf<number[]>(directed?.[1]);
    const pairs = new Set(ours.map((c, i) => `${c}:${theirs[i]}`));
    expect(pairs.size).toBe(new Set(ours).size);
    expect(pairs.size).toBe(new Set(theirs).size);
    expect(answerOf<number>(undirected?.[1])).toBeGreaterThanOrEqual(answerOf<number>(undirected?.[0]) - 0.01);
  });

  it("takes integer node ids from a nodes file: cuGraph bfs and sssp from a node id, distances as igraph's", async () => {
    const g = graph(31, 25, 60);
    const edgeCsv = `s,d,w\n${g.edges.map(([s, d, w]) => `${s},${d},${w}`).join("\n")}\n`;
    const nodeCsv = `id,kind\n${Array.from({ length: g.n }, (_, i) => `${i},k${i % 3}`).join("\n")}\n`;
    const created = await create(
      body(
        await file(edgeCsv),
        {
          hops: { libraries: ["cugraph"], alg: "bfs", params: { start: 0 } },
          dist: { libraries: ["cugraph"], alg: "sssp", params: { source: "0" } },
        },
        await file(nodeCsv),
      ),
    );
    expect(created.status).toBe(200);
    const nodes = await rows(created.body.data.dataset_id, "nodes");
    expect(nodes.map((r) => r.id)).toEqual(Array.from({ length: g.n }, (_, i) => i));
    const [ref] = await runReference([
      {
        n: g.n,
        edges: g.edges.map(([s, d]) => [s, d] as const),
        edgeAttrs: { weight: g.edges.map(([, , w]) => w) },
        calls: ["g.distances(source=0)[0]", "g.distances(source=0, weights='weight')[0]"],
      },
    ]);
    const finite = (values: unknown[]) => values.map((d) => (typeof d === "number" && Number.isFinite(d) ? d : null));
    expect(nodes.map((r) => r.hops)).toEqual(finite(answerOf<unknown[]>(ref?.[0])));
    expect(nodes.map((r) => r.dist)).toEqual(finite(answerOf<unknown[]>(ref?.[1])));
  });

  it("answers the k-core graph as igraph's k_core does", async () => {
    const g = graph(29, 40, 110);
    const edgeFile = await file(g.csv);
    const created = await create(body(edgeFile, { core: { libraries: ["igraph"], alg: "k_core", params: { k: 4 }, directed: false } }));
    expect(created.status).toBe(200);
    const full = await rows((await create(body(edgeFile, {}))).body.data.dataset_id, "nodes");
    const rowOf = new Map(full.map((r, i) => [r.node as string, i]));
    const edges = g.edges.map(([s, d]) => [rowOf.get(`n${s}`) as number, rowOf.get(`n${d}`) as number] as const);
    const [ref] = await runReference([{ n: full.length, edges, directed: false, calls: ["g.k_core(4)"] }]);
    const core = answerOf<{ n: number; edges: unknown[] }>(ref?.[0]);
    expect((await rows(created.body.data.dataset_id, "nodes")).length).toBe(core.n);
    expect((await rows(created.body.data.dataset_id, "edges")).length).toBe(core.edges.length);
  });

  const refusals: [string, unknown, string, string?][] = [
    ["not an object", [1], "compute"],
    ["an unknown library", { x: { libraries: ["networkx"], alg: "test_strength" } }, "compute.x.libraries"],
    ["no library list", { x: { alg: "test_strength" } }, "compute.x.libraries"],
    ["an unknown algorithm", { x: { libraries: ["igraph"], alg: "no_such_alg" } }, "compute.x.alg"],
    ["an algorithm of the other library", { x: { libraries: ["cugraph"], alg: "test_strength" } }, "compute.x.alg"],
    ["an unknown entry field", { x: { libraries: ["igraph"], alg: "test_strength", weights: "w" } }, "compute.x.weights"],
    ["an unknown parameter", { x: { libraries: ["igraph"], alg: "test_strength", params: { damping: 0.8 } } }, "compute.x.params.damping"],
    ["a wrong type", { x: { libraries: ["igraph"], alg: "test_strength", params: { loops: "yes" } } }, "compute.x.params.loops"],
    ["a value out of range", { x: { libraries: ["igraph"], alg: "test_strength", params: { scale: 0 } } }, "compute.x.params.scale"],
    [
      "a non-integer",
      { x: { libraries: ["cugraph"], alg: "test_bfs", params: { start: "n0", depth_limit: 1.5 } } },
      "compute.x.params.depth_limit",
    ],
    ["a missing required parameter", { x: { libraries: ["cugraph"], alg: "test_bfs" } }, "compute.x.params.start"],
    ["a directed graph for an undirected-only algorithm", { x: { libraries: ["igraph"], alg: "test_min_degree" } }, "compute.x.directed"],
    ["a non-boolean directed", { x: { libraries: ["igraph"], alg: "test_strength", directed: "no" } }, "compute.x.directed"],
    ["an unknown node id", { x: { libraries: ["cugraph"], alg: "test_bfs", params: { start: "zz" } } }, "compute.x.params.start", "tables"],
    [
      "a missing column",
      { x: { libraries: ["igraph"], alg: "test_strength", params: { weights: "nope" } } },
      "compute.x.params.weights",
      "tables",
    ],
    [
      "a text column",
      { x: { libraries: ["igraph"], alg: "test_strength", params: { weights: "label" } } },
      "compute.x.params.weights",
      "tables",
    ],
    [
      "a column with nulls",
      { x: { libraries: ["igraph"], alg: "test_strength", params: { weights: "gap" } } },
      "compute.x.params.weights",
      "tables",
    ],
    [
      "a graph the algorithm refuses (negative weight)",
      { x: { libraries: ["cugraph"], alg: "test_weight_check" } },
      "compute.x.params.weight",
      "tables",
    ],
    ["an output replacing the node ids", { node: { libraries: ["igraph"], alg: "test_strength" } }, "compute.node", "tables"],
  ];

  it.each(refusals)("answers 400 naming the field for %s, and makes no dataset", async (_what, compute, field) => {
    const edgeFile = await file("s,d,w,label,gap\na,b,1,x,1\nb,c,-2,y,\nc,a,3,z,2\n");
    const before = await count();
    const { status, body: answer } = await create(body(edgeFile, compute));
    expect(status).toBe(400);
    expect(answer).toMatchObject({ success: false, error: { code: "INVALID_INPUT", details: { field } } });
    expect(await count()).toBe(before);
  });

  it("refuses compute in the GraphQL createDataset mutation the same way, and runs it there too", async () => {
    const edgeFile = await file("s,d\na,b\nb,c\n");
    const mutation = "mutation($i: CreateDatasetInput!) { createDataset(input: $i) { id nodeCount compute } }";
    const input = (compute: unknown) => ({
      name: "gql",
      metadata: {},
      nodeEncodings: { bindings: {} },
      edgeEncodings: { bindings: { source: "s", destination: "d" } },
      edgeFiles: [edgeFile],
      compute,
    });
    const bad = await gw.graphql(
      mutation,
      { i: input({ x: { libraries: ["igraph"], alg: "test_strength", params: { scale: -1 } } }) },
      token,
    );
    expect(bad.body.errors?.[0]?.extensions).toMatchObject({ code: "INVALID_INPUT", details: { field: "compute.x.params.scale" } });
    const good = await gw.graphql<{ createDataset: { id: string } }>(
      mutation,
      { i: input({ x: { libraries: ["igraph"], alg: "test_strength", params: { scale: 2 }, directed: false } }) },
      token,
    );
    expect(good.body.errors).toBeUndefined();
    expect((await rows(good.body.data?.createDataset.id as string, "nodes")).map((r) => r.x)).toEqual([2, 4, 2]);
  });
});
