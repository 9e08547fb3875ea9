// Makes a dataset from CSV edges (columns s, d, ...) through the real file and dataset routes.
import type { TestGateway } from "./gateway.ts";

export async function csvEdgeDataset(gw: TestGateway, token: string, csv: string): Promise<string> {
  const auth = { authorization: `Bearer ${token}` };
  const file = await gw.json<{ file_id: string }>("/api/v2/files/", { method: "POST", headers: auth, json: { file_type: "csv" } });
  await gw.request(`/api/v2/upload/files/${file.body.file_id}`, { method: "POST", headers: auth, body: csv });
  const created = await gw.json<{ data: { dataset_id: string } }>("/api/v2/upload/datasets/", {
    method: "POST",
    headers: auth,
    json: {
      name: "g",
      metadata: {},
      node_encodings: { bindings: {} },
      edge_encodings: { bindings: { source: "s", destination: "d" } },
      edge_files: [file.body.file_id],
    },
  });
  return created.body.data.dataset_id;
}
