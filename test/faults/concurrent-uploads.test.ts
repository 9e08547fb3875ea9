// Uploads racing on one file or dataset: each answers, the last to finish is the data, and no other version stays on disk.
import { readdir } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDERS } from "../helpers/databases.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

type FileBody = { file_id: string; is_valid: boolean; tables_schemas: { num_rows: number }[] };

describe.each(PROVIDERS)("concurrent uploads to one file on %s", (provider) => {
  let gw: TestGateway;
  let headers: Record<string, string>;

  beforeAll(async () => {
    gw = await createTestGateway(provider);
    headers = { authorization: `Bearer ${await gw.login()}` };
  });
  afterAll(() => gw?.close());

  it("ten racers leave one version, the one the record holds", async () => {
    const { body: file } = await gw.json<FileBody>("/api/v2/files/", { method: "POST", headers, json: { file_type: "csv" } });
    // Racer i sends i + 1 rows, so the stored table says which one won.
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        gw.json<FileBody>(`/api/v2/upload/files/${file.file_id}`, {
          method: "POST",
          headers,
          body: `a,b\n${Array.from({ length: i + 1 }, (_, r) => `${r},${i}`).join("\n")}\n`,
        }),
      ),
    );
    for (const answer of answers) expect({ status: answer.status, valid: answer.body.is_valid }).toEqual({ status: 200, valid: true });

    const { blobs, db } = gw.gateway.services;
    const row = await db.file.findUniqueOrThrow({ where: { id: file.file_id } });
    expect(await readdir(blobs.pathOf("files", file.file_id))).toEqual([row.dataVersion]);
    const { body: stored } = await gw.json<FileBody>(`/api/v2/files/${file.file_id}`, { headers });
    expect(stored.is_valid).toBe(true);
    expect(answers.map((a) => a.body.tables_schemas[0]?.num_rows)).toContain(stored.tables_schemas[0]?.num_rows);
  });

  it("direct uploads racing on one dataset all land, with one table version and one source per axis left", async () => {
    type Created = { data: { dataset_id: string } };
    const { body } = await gw.json<Created>("/api/v2/upload/datasets/", {
      method: "POST",
      headers,
      json: {
        name: "racing",
        metadata: {},
        node_encodings: { bindings: { node: "n" } },
        edge_encodings: { bindings: { source: "s", destination: "d" } },
      },
    });
    const id = body.data.dataset_id;
    const post = (axis: string, csv: string) =>
      gw.json(`/api/v2/upload/datasets/${id}/${axis}/csv`, { method: "POST", headers, body: csv });
    const answers = await Promise.all([
      post("edges", "s,d\n1,2\n2,3\n"),
      post("edges", "s,d\n1,2\n2,3\n3,4\n"),
      post("nodes", "n,label\n1,a\n2,b\n3,c\n4,d\n5,e\n"),
      post("edges", "s,d\n1,2\n"),
    ]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200]);

    const { blobs, db } = gw.gateway.services;
    const row = await db.dataset.findUniqueOrThrow({ where: { id } });
    const sources = JSON.parse(row.directSources) as Record<string, { version: string }>;
    expect(Object.keys(sources).sort()).toEqual(["edges", "nodes"]);
    expect(row.nodeCount).toBe(5);
    expect([1, 2, 3]).toContain(row.edgeCount);
    expect(await readdir(blobs.pathOf("datasets", id, "tables"))).toEqual([row.dataVersion]);
    expect(await readdir(blobs.pathOf("datasets", id, "sources", "edges"))).toEqual([sources.edges?.version]);
    expect(await readdir(blobs.pathOf("datasets", id, "sources", "nodes"))).toEqual([sources.nodes?.version]);
  });
});
