// A checked tools/call is answered by the facade itself (facades/mcp/app.ts), not through the SDK's transport: the
// answer must read as the SDK's JSON mode writes it, each call must get its own answer even when two share an id,
// and what the SDK would refuse (an unsupported protocol version, an id that is not an integer) still goes to it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld } from "./setup.ts";

type Answer = { status: number; headers: Headers; body: Record<string, unknown> };

describe("tools/call answered by the facade", () => {
  let world: McpWorld;
  let closePage: () => Promise<void>;
  let session = "";

  const send = async (body: unknown, headers: Record<string, string> = {}): Promise<Answer> => {
    const response = await fetch(world.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, headers: response.headers, body: text ? JSON.parse(text) : {} };
  };
  /** A query_graph call; a header given as null is left out. */
  const call = (id: unknown, args: Record<string, unknown>, headers: Record<string, string | null> = {}) => {
    const all = {
      "mcp-session-id": session,
      authorization: `Bearer ${world.keys.alice}`,
      "mcp-protocol-version": "2025-06-18",
      ...headers,
    };
    const sent = Object.fromEntries(Object.entries(all).filter((entry): entry is [string, string] => entry[1] !== null));
    return send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "query_graph", arguments: args } }, sent);
  };
  const hop = (kind: string) =>
    JSON.stringify([{ type: "Node", filter_dict: { node: kind } }, { type: "Edge", direction: "forward" }, { type: "Node" }]);

  beforeAll(async () => {
    world = await createMcpWorld();
    closePage = await world.openOwnerPage();
    const init = await send({
      jsonrpc: "2.0",
      id: 0,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } },
    });
    session = init.headers.get("mcp-session-id") ?? "";
    expect(session).not.toBe("");
  });
  afterAll(async () => {
    await closePage?.();
    await world?.close();
  });

  it("answers with the JSON-RPC result, content type and session header of the SDK's JSON mode", async () => {
    const answer = await call("q-1", { session_id: world.sessionId, gfql_operations: hop("a") });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toBe("application/json");
    expect(answer.headers.get("mcp-session-id")).toBe(session);
    expect(answer.body).toEqual({
      jsonrpc: "2.0",
      id: "q-1",
      result: { content: [{ type: "text", text: JSON.stringify({ output_type: "shape", node_count: 2, edge_count: 1 }) }] },
    });
    // without the protocol version header (the version negotiated at initialize applies), an integer id
    const plain = await call(3, { session_id: world.sessionId, gfql_operations: hop("b") }, { "mcp-protocol-version": null });
    expect(plain.status).toBe(200);
    expect((plain.body as { id: unknown }).id).toBe(3);
  });

  it("gives each of several calls sharing an id its own answer", async () => {
    const kinds = ["a", "b", "c", "d", "e"];
    const answers = await Promise.all(kinds.map((kind) => call(7, { session_id: world.sessionId, gfql_operations: hop(kind) })));
    const counts = answers.map((a) => {
      const { result } = a.body as { result: { content: { text: string }[] } };
      return (JSON.parse(result.content[0]?.text ?? "{}") as { edge_count: number }).edge_count;
    });
    // out-degrees in the world's graph: a 1, b 2, c 1, d 1 (its self-loop), e 1
    expect(counts).toEqual([1, 2, 1, 1, 1]);
  });

  it("leaves to the SDK what it refuses: an unsupported protocol version, an id that is not an integer", async () => {
    const version = await call(8, { session_id: world.sessionId, gfql_operations: hop("a") }, { "mcp-protocol-version": "1999-01-01" });
    expect(version.status).toBe(400);
    expect((version.body as { error?: { code: number; message: string } }).error).toMatchObject({ code: -32000 });
    expect(JSON.stringify(version.body)).toContain("Unsupported protocol version");
    const fractional = await call(1.5, { session_id: world.sessionId, gfql_operations: hop("a") });
    expect(fractional.status).toBe(400);
    expect((fractional.body as { result?: unknown }).result).toBeUndefined();
  });
});
