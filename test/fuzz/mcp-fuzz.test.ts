// Fuzzing the /mcp tool endpoint (issue 18): JSON-RPC messages with fuzzed methods, ids and params, every tool with
// fuzzed arguments, and fuzzed headers (session id, credential, accept, content type) and raw bodies. Property:
// never a 5xx, no stack trace or file path, an answer in time; healthy after.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createFuzzWorld, expectHealthy, FUZZ_SEED, type FuzzWorld, openOwnerPage, probe, runs } from "./fuzz-world.ts";

let world: FuzzWorld;
let closePage: () => Promise<void>;
let session: string;

const ACCEPT = "application/json, text/event-stream";

function mcp(body: BodyInit, headers: Record<string, string>): Request {
  return new Request("http://gateway.test/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: ACCEPT, ...headers },
    body,
  });
}

beforeAll(async () => {
  world = await createFuzzWorld();
  closePage = await openOwnerPage(world);
  const init = await world.t.gateway.fetch(
    mcp(
      JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: { protocolVersion: "2024-11-05", capabilities: {}, clientInfo: { name: "fuzz", version: "1" } },
      }),
      { authorization: `Bearer ${world.user}` },
    ),
    { clientAddress: "127.0.0.1" },
  );
  expect(init.status).toBe(200);
  session = init.headers.get("mcp-session-id") ?? "";
  await init.text();
});
afterAll(async () => {
  await closePage?.();
  await world?.close();
});

/** The tools and their argument names, from their JSON Schemas. */
const TOOLS = readdirSync(path.resolve(import.meta.dirname, "../../schema/json/mcp"))
  .filter((f) => f.endsWith(".json"))
  .map((f) => {
    const schema = JSON.parse(readFileSync(path.resolve(import.meta.dirname, "../../schema/json/mcp", f), "utf8")) as {
      properties?: Record<string, unknown>;
    };
    return { name: f.replace(/\.json$/, ""), args: Object.keys(schema.properties ?? {}) };
  });

const GFQL = [
  [{ type: "Node", filter_dict: { s: "a" } }, { type: "Edge", direction: "forward", hops: 2 }, { type: "Node" }],
  [{ type: "Edge", edge_match: { kind: "x" } }],
  "MATCH (a)-[e]->(b) RETURN a, b LIMIT 3",
  [{ type: "Node", filter_dict: { w: { type: "GT", val: 1 } } }],
];

describe("tool endpoint fuzzing", () => {
  it("every tool with fuzzed arguments", async () => {
    const value = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }),
      fc.constantFrom(world.sessionId, "nodes", "edges", "all", "shape", "strict", "json", "#ff0000", ...GFQL),
      fc.string({ maxLength: 30 }),
    );
    const call = fc.record({
      tool: fc.oneof(
        { weight: 9, arbitrary: fc.constantFrom(...TOOLS) },
        { weight: 1, arbitrary: fc.string({ maxLength: 10 }).map((name) => ({ name, args: [] as string[] })) },
      ),
      values: fc.array(value, { minLength: 6, maxLength: 6 }),
      keep: fc.array(fc.boolean(), { minLength: 6, maxLength: 6 }),
      extra: fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 2 }),
      withSession: fc.boolean(),
    });
    let ran = 0;
    await fc.assert(
      fc.asyncProperty(call, async ({ tool, values, keep, extra, withSession }) => {
        const args: Record<string, unknown> = { ...extra };
        tool.args.forEach((name, i) => {
          if (keep[i] || name === "session_id") args[name] = name === "session_id" && withSession ? world.sessionId : values[i];
        });
        const body = JSON.stringify({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: tool.name, arguments: args } });
        const answer = await probe(
          world,
          mcp(body, { "mcp-session-id": session, authorization: `Bearer ${world.user}` }),
          `${tool.name} ${body.slice(0, 120)}`,
        );
        if (answer.status === 200 && answer.text.includes('"result"')) ran += 1;
      }),
      { seed: FUZZ_SEED, numRuns: runs(250) },
    );
    // The owner is present and the calls reach the tools (not only the argument checks).
    expect(ran).toBeGreaterThan(20);
  });

  it("JSON-RPC envelopes, ids, methods and params of every shape", async () => {
    const message = fc.oneof(
      fc.record(
        {
          jsonrpc: fc.constantFrom("2.0", "1.0", 2, null),
          id: fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.constant(null), fc.jsonValue({ maxDepth: 1 })),
          method: fc.oneof(
            fc.constantFrom("tools/call", "tools/list", "initialize", "ping", "notifications/initialized", "resources/list", "prompts/get"),
            fc.string({ maxLength: 15 }),
          ),
          params: fc.jsonValue({ maxDepth: 3 }),
        },
        { requiredKeys: ["method"] },
      ),
      fc.jsonValue({ maxDepth: 3 }),
      fc.array(fc.record({ jsonrpc: fc.constant("2.0"), id: fc.nat(), method: fc.constant("tools/list") }), { maxLength: 3 }),
    );
    const body = fc.oneof(
      { weight: 6, arbitrary: message.map((m) => JSON.stringify(m)) },
      { weight: 1, arbitrary: fc.string({ maxLength: 60 }) },
      {
        weight: 1,
        arbitrary: fc.constant(`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":${"[".repeat(20_000)}${"]".repeat(20_000)}}`),
      },
    );
    const headers = fc.record(
      {
        "mcp-session-id": fc.oneof(fc.constant(session), fc.uuid(), fc.stringMatching(/^[ -~]{0,40}$/)),
        authorization: fc.constantFrom(`Bearer ${world.user}`, `Bearer ${world.admin}`, "Bearer x", "Bearer a:b", "PersonalKey a:b", ""),
        accept: fc.constantFrom(ACCEPT, "application/json", "text/event-stream", "*/*", ""),
        "content-type": fc.constantFrom("application/json", "text/plain", "application/json; charset=utf-16", ""),
        "mcp-protocol-version": fc.constantFrom("2024-11-05", "2025-03-26", "1999-01-01", "x"),
      },
      { requiredKeys: [] },
    );
    const method = fc.constantFrom("POST", "POST", "POST", "GET", "DELETE", "PUT");
    await fc.assert(
      fc.asyncProperty(body, headers, method, async (payload, fields, verb) => {
        const init: RequestInit = { method: verb, headers: fields, ...(verb === "GET" ? {} : { body: payload }) };
        await probe(world, new Request("http://gateway.test/mcp", init), `${verb} ${payload.slice(0, 100)}`);
      }),
      { seed: FUZZ_SEED, numRuns: runs(250) },
    );
  });

  it("the service is healthy afterwards", async () => {
    await expectHealthy(world);
  });
});
