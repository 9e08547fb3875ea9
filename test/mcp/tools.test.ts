// Every tool through the MCP SDK's own Client over real HTTP, as the owner and as a reader.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld } from "./setup.ts";

type Content = { type: string; text: string }[];

describe("the tool endpoint through the MCP SDK client", () => {
  let world: McpWorld;
  let closePage: () => Promise<void>;
  let owner: Client;
  let reader: Client;

  const connect = async (credential: string) => {
    const client = new Client({ name: "test-assistant", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(world.url), {
      requestInit: { headers: { authorization: `Bearer ${credential}` } },
    });
    await client.connect(transport);
    return client;
  };
  const call = async (client: Client, name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    const text = (result.content as Content)[0]?.text ?? "";
    return { result, text, json: () => JSON.parse(text) as Record<string, unknown> };
  };
  const gfql = (ops: unknown) => JSON.stringify(ops);

  beforeAll(async () => {
    world = await createMcpWorld();
    closePage = await world.openOwnerPage();
    owner = await connect(world.keys.alice);
    reader = await connect(world.tokens.bob);
  });
  afterAll(async () => {
    await owner?.close();
    await reader?.close();
    await closePage?.();
    await world?.close();
  });

  it("initializes with instructions and lists the nine tools with their schemas", async () => {
    expect(owner.getInstructions()).toMatch(/GFQL/);
    expect(owner.getServerCapabilities()?.tools).toBeDefined();
    const { tools } = await owner.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        "create_collection",
        "delete_collection",
        "get_session_info",
        "list_collections",
        "list_sessions",
        "query_graph",
        "reorder_collections",
        "reset_collections",
        "update_collection",
      ].sort(),
    );
    const query = tools.find((t) => t.name === "query_graph");
    expect(query?.inputSchema.required).toEqual(["session_id", "gfql_operations"]);
  });

  it("list_sessions shows only the caller's own sessions", async () => {
    const mine = (await call(owner, "list_sessions", {})).json();
    expect(mine.sessions).toContainEqual(expect.objectContaining({ session_id: world.sessionId, dataset_id: world.datasetId, open: true }));
    expect(mine.count).toBe(2);
    expect((await call(reader, "list_sessions", {})).json()).toEqual({ sessions: [], count: 0 });
  });

  it("get_session_info answers plain text with counts and columns", async () => {
    const { text, result } = await call(reader, "get_session_info", { session_id: world.sessionId });
    expect(result.isError).toBeFalsy();
    expect(text).toContain(`session_id: ${world.sessionId}`);
    expect(text).toMatch(/^nodes: 5$/m);
    expect(text).toMatch(/^edges: 6$/m);
    expect(text).toMatch(/^ {2}weight: float64$/m);
    expect(text).toMatch(/^ {2}rel: object$/m);
    expect(() => JSON.parse(text)).toThrow();
  });

  it("query_graph: shape by default, rows with true totals, Cypher too", async () => {
    const shape = (await call(reader, "query_graph", { session_id: world.sessionId, gfql_operations: gfql([{ type: "Node" }]) })).json();
    expect(shape).toEqual({ output_type: "shape", node_count: 5, edge_count: 0 });
    const hop = (
      await call(reader, "query_graph", {
        session_id: world.sessionId,
        gfql_operations: gfql([
          { type: "Node", filter_dict: { node: "b" } },
          { type: "Edge", direction: "forward", hops: 1 },
          { type: "Node" },
        ]),
        output_type: "all",
      })
    ).json();
    // b -> c and b -> e.
    expect(hop).toMatchObject({ node_count: 3, edge_count: 2, nodes_returned: 3, edges_returned: 2, truncated: false });
    expect((hop.nodes as { node: string }[]).map((n) => n.node).sort()).toEqual(["b", "c", "e"]);
    const cypher = (
      await call(reader, "query_graph", {
        session_id: world.sessionId,
        gfql_operations: "MATCH (a)-[r]->(b) WHERE r.rel = 'likes' RETURN b",
        output_type: "nodes",
      })
    ).json();
    expect(cypher.error).toBeUndefined();
  });

  it("query_graph returns at most 20 whole rows, or 50 projected ones, with the true totals", async () => {
    const closeLong = await world.openOwnerPage(world.longSessionId);
    try {
      const whole = (
        await call(reader, "query_graph", {
          session_id: world.longSessionId,
          gfql_operations: gfql([{ type: "Node" }]),
          output_type: "nodes",
        })
      ).json();
      expect(whole).toMatchObject({ node_count: 41, nodes_returned: 20, truncated: true });
      expect(Object.keys((whole.nodes as object[])[0] ?? {})).toContain("node");
      const edges = (
        await call(reader, "query_graph", {
          session_id: world.longSessionId,
          gfql_operations: gfql([{ type: "Node" }, { type: "Edge", direction: "forward" }, { type: "Node" }]),
          output_type: "all",
        })
      ).json();
      expect(edges).toMatchObject({ node_count: 41, edge_count: 40, nodes_returned: 20, edges_returned: 20 });
      const projected = (
        await call(reader, "query_graph", {
          session_id: world.longSessionId,
          gfql_operations: "MATCH (n) RETURN n.node",
          output_type: "nodes",
        })
      ).json();
      expect(projected.error).toBeUndefined();
      expect(projected).toMatchObject({ node_count: 41, nodes_returned: 41, truncated: false });
    } finally {
      await closeLong();
    }
  });

  it("query_graph reports a bad query as a tool-level error, not isError", async () => {
    const { result, json } = await call(reader, "query_graph", {
      session_id: world.sessionId,
      gfql_operations: gfql([{ type: "Edge", direction: "sideways" }]),
    });
    expect(result.isError).toBeFalsy();
    expect(String(json().error)).toMatch(/^\[[^\]]+\] /);
    const format = await call(reader, "query_graph", { session_id: world.sessionId, gfql_operations: "[]", format: "csv" });
    expect(String(format.json().error)).toMatch(/^\[unsupported-format\]/);
  });

  it("create_collection, list, update, reorder, delete and reset, as the owner", async () => {
    const made = (
      await call(owner, "create_collection", {
        session_id: world.sessionId,
        name: "knows",
        gfql_operations: gfql([{ type: "Node" }, { type: "Edge", edge_match: { rel: "knows" } }, { type: "Node" }]),
        node_color: "#00BFFF",
      })
    ).json();
    const knows = made.collection as Record<string, unknown>;
    // Undirected by default: edges a-b, b-c, b-e and their 4 endpoints.
    expect(knows).toMatchObject({ name: "knows", color: "#00BFFF", position: 0, nodeCount: 4, edgeCount: 3, matchCount: 7 });
    expect(knows).not.toHaveProperty("palette");
    const second = (
      await call(owner, "create_collection", {
        session_id: world.sessionId,
        name: "d",
        gfql_operations: gfql([{ type: "Node", filter_dict: { node: "d" } }]),
        palette: "viridis",
      })
    ).json();
    const d = second.collection as Record<string, unknown>;
    expect(d).toMatchObject({ position: 1, matchCount: 1 });

    const listed = (await call(reader, "list_collections", { session_id: world.sessionId })).json();
    expect((listed.collections as { name: string }[]).map((c) => c.name)).toEqual(["knows", "d"]);
    expect(listed.global_layer).toEqual({ id: "global", name: "Global background" });

    const updated = (await call(owner, "update_collection", { session_id: world.sessionId, collection_id: d.id, name: "just d" })).json();
    expect(updated.collection).toMatchObject({ id: d.id, name: "just d", matchCount: 1 });

    const reordered = (await call(owner, "reorder_collections", { session_id: world.sessionId, order: [d.id] })).json();
    expect((reordered.collections as { id: string }[]).map((c) => c.id)).toEqual([d.id, knows.id]);

    const global = (await call(owner, "delete_collection", { session_id: world.sessionId, collection_id: "global" })).json();
    expect(String(global.error)).toMatch(/^\[global-layer\]/);
    const deleted = (await call(owner, "delete_collection", { session_id: world.sessionId, collection_id: knows.id })).json();
    expect(deleted.deleted).toMatchObject({ id: knows.id });

    const reset = (await call(owner, "reset_collections", { session_id: world.sessionId })).json();
    expect(reset).toEqual({ removed: 1, collections: [] });
  });

  it("create_collection refuses Cypher and a bare operation as tool-level errors", async () => {
    const cypher = (
      await call(owner, "create_collection", { session_id: world.sessionId, name: "c", gfql_operations: "MATCH (n) RETURN n" })
    ).json();
    expect(String(cypher.error)).toMatch(/^\[cypher-not-accepted\]/);
    const bare = (
      await call(owner, "create_collection", { session_id: world.sessionId, name: "c", gfql_operations: gfql({ type: "Node" }) })
    ).json();
    expect(String(bare.error)).toMatch(/^\[wrap-in-array\]/);
  });

  it("a reader may not change collections: 403 with code -32002", async () => {
    await expect(
      reader.callTool({ name: "create_collection", arguments: { session_id: world.sessionId, name: "x", gfql_operations: "[]" } }),
    ).rejects.toThrow(/403|-32002|owner/);
  });
});
