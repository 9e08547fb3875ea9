// Spec 2.3: dataset listings always show metadata.agent and metadata.apiversion, sent or not.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PROVIDERS } from "../helpers/databases.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

type Json = Record<string, unknown>;

describe.each(PROVIDERS)("dataset metadata in listings on %s", (provider) => {
  let gw: TestGateway;
  let alice: Record<string, string>;

  beforeAll(async () => {
    gw = await createTestGateway(provider);
    const tokens = await gw.users("alice");
    alice = { authorization: `Bearer ${tokens.alice}` };
  });
  afterAll(() => gw?.close());

  async function create(extra: Json): Promise<string> {
    const { status, body } = await gw.json<{ data: { dataset_id: string } }>("/api/v2/upload/datasets/", {
      method: "POST",
      headers: alice,
      json: { name: "m", node_encodings: { bindings: {} }, edge_encodings: { bindings: {} }, ...extra },
    });
    expect(status).toBe(200);
    return body.data.dataset_id;
  }

  async function listedMetadata(id: string): Promise<Json | undefined> {
    const { body } = await gw.json<{ results: Json[] }>("/api/v2/datasets/?limit=1000", { headers: alice });
    return body.results.find((d) => d.dataset_id === id)?.metadata as Json | undefined;
  }

  it("fills agent (empty) and apiversion ('3', what both clients send) when the client sent an empty metadata", async () => {
    const id = await create({ metadata: {} });
    expect(await listedMetadata(id)).toEqual({ agent: "", apiversion: "3" });
    // pygraphistry's from_dataset_id reads the same metadata.
    const { body } = await gw.json<{ data: Json }>(`/api/v2/upload/datasets/${id}`, { headers: alice });
    expect(body.data.metadata).toEqual({ agent: "", apiversion: "3" });
  });

  it("takes the agent from the body's agent_name when metadata has none", async () => {
    const id = await create({ metadata: { usertag: "t" }, agent_name: "curl-script" });
    expect(await listedMetadata(id)).toEqual({ agent: "curl-script", apiversion: "3", usertag: "t" });
  });

  it("keeps what pygraphistry and the JS client send, as sent", async () => {
    const py = await create({ metadata: { usertag: "abc", agent: "pygraphistry", apiversion: "3", agentversion: "0.35" } });
    expect(await listedMetadata(py)).toEqual({ usertag: "abc", agent: "pygraphistry", apiversion: "3", agentversion: "0.35" });
    const js = await create({ metadata: { agent: "@graphistry/js-upload-api", agentversion: "4.0", apiversion: 3 } });
    expect(await listedMetadata(js)).toEqual({ agent: "@graphistry/js-upload-api", agentversion: "4.0", apiversion: 3 });
  });

  it("shows the same metadata through GraphQL", async () => {
    const id = await create({ metadata: {} });
    const token = alice.authorization?.slice("Bearer ".length);
    const { body } = await gw.graphql<{ dataset: { metadata: Json } }>("query($id: ID!) { dataset(id: $id) { metadata } }", { id }, token);
    expect(body.data?.dataset.metadata).toEqual({ agent: "", apiversion: "3" });
  });
});
