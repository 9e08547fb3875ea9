// query_graph answers: integers beyond 2^53 written with all their digits, and warnings for filters on absent columns.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld } from "./setup.ts";

type Content = { type: string; text: string }[];
const BIG = "9007199254740993";

describe("query_graph answers", () => {
  let world: McpWorld;
  let owner: Client;
  let sessionId: string;

  const call = async (args: Record<string, unknown>) => {
    const result = await owner.callTool({ name: "query_graph", arguments: { session_id: sessionId, ...args } });
    return (result.content as Content)[0]?.text ?? "";
  };

  beforeAll(async () => {
    world = await createMcpWorld();
    const auth = { authorization: `Bearer ${world.tokens.alice}` };
    const post = (path: string, init: RequestInit) => fetch(`${world.base}${path}`, { method: "POST", ...init });
    const file = (await (
      await post("/api/v2/files/", { headers: { ...auth, "content-type": "application/json" }, body: JSON.stringify({ file_type: "csv" }) })
    ).json()) as { file_id: string };
    await post(`/api/v2/upload/files/${file.file_id}`, { headers: auth, body: `s,d,big\na,b,${BIG}\nb,c,1\n` });
    const created = (await (
      await post("/api/v2/upload/datasets/", {
        headers: { ...auth, "content-type": "application/json" },
        body: JSON.stringify({
          name: "big",
          metadata: {},
          node_encodings: { bindings: {} },
          edge_encodings: { bindings: { source: "s", destination: "d" } },
          edge_files: [file.file_id],
        }),
      })
    ).json()) as { data: { dataset_id: string } };
    const opened = await world.gql<{ openVizSession: { id: string } }>(
      `mutation($d: ID!) { openVizSession(datasetId: $d) { id } }`,
      { d: created.data.dataset_id },
      world.tokens.alice,
    );
    sessionId = opened.data?.openVizSession.id ?? "";
    owner = new Client({ name: "test-assistant", version: "1.0.0" });
    await owner.connect(
      new StreamableHTTPClientTransport(new URL(world.url), { requestInit: { headers: { authorization: `Bearer ${world.keys.alice}` } } }),
    );
  });
  afterAll(async () => {
    await owner?.close();
    await world?.close();
  });

  it("writes 64-bit integers with all their digits", async () => {
    const text = await call({ gfql_operations: JSON.stringify([{ type: "Edge", direction: "forward" }]), output_type: "edges" });
    expect(text).toContain(`"big":${BIG}`);
    expect(text).toContain(`"big":1}`);
  });

  it("says why an absent column matched nothing", async () => {
    const text = await call({ gfql_operations: JSON.stringify([{ type: "Node", filter_dict: { color: "red" } }]) });
    const json = JSON.parse(text) as Record<string, unknown>;
    expect(json).toMatchObject({ node_count: 0, edge_count: 0 });
    expect(json.warnings).toEqual([expect.stringMatching(/^GFQL: column "color" is absent in node dataframe/)]);
    // strictness strict makes it the error
    const strict = await call({ gfql_operations: JSON.stringify([{ type: "Node", filter_dict: { color: "red" } }]), strictness: "strict" });
    expect(String((JSON.parse(strict) as { error: string }).error)).toMatch(/^\[E301\] column 'color' not found/);
  });
});
