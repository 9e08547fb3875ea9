// A session's shared filters and encodings: stored by any viewer, published as FILTERS / ENCODINGS, refused when
// malformed, too large or out of reach, and reported by the tool endpoint's get_session_info.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createClient } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMcpWorld, type McpWorld } from "../mcp/setup.ts";

const SET_FILTERS = `mutation($s: ID!, $f: JSON!) { setSessionFilters(sessionId: $s, filters: $f) { id filters revision { number } } }`;
const SET_ENCODINGS = `mutation($s: ID!, $e: JSON!) { setSessionEncodings(sessionId: $s, encodings: $e) { id encodings } }`;
const READ = `query($id: ID!) { vizSession(id: $id) { filters encodings } }`;

type Err = { message: string; extensions?: { code?: string } }[];

describe("shared filters and encodings of a session", () => {
  let world: McpWorld;
  let closePage: () => Promise<void>;

  beforeAll(async () => {
    world = await createMcpWorld();
    closePage = await world.openOwnerPage();
  });
  afterAll(async () => {
    await closePage?.();
    await world?.close();
  });

  it("starts unset", async () => {
    const read = await world.gql<{ vizSession: { filters: unknown; encodings: unknown } }>(READ, { id: world.sessionId }, world.tokens.bob);
    expect(read.data?.vizSession).toEqual({ filters: null, encodings: null });
  });

  it("stores a viewer's filters and encodings and publishes FILTERS and ENCODINGS to the others", async () => {
    const port = new URL(world.base).port;
    const client = createClient({
      url: `ws://127.0.0.1:${port}/graphql`,
      connectionParams: { authorization: `Bearer ${world.tokens.alice}` },
    });
    const kinds: string[] = [];
    const stop = client.subscribe(
      { query: `subscription($id: ID!) { vizSessionChanged(id: $id) { kind } }`, variables: { id: world.sessionId } },
      {
        next: (m) => kinds.push(String((m.data as { vizSessionChanged: { kind: string } }).vizSessionChanged.kind)),
        error: () => {},
        complete: () => {},
      },
    );
    try {
      const filters = [{ axis: "edges", column: "rel", op: "in", values: ["knows"] }];
      const encodings = { node: { color: { column: "kind" } } };
      // Publish until alice's subscription is live (it starts asynchronously), then both kinds arrive.
      for (let i = 0; i < 100 && !kinds.includes("FILTERS"); i++) {
        const set = await world.gql<{ setSessionFilters: { filters: unknown } }>(
          SET_FILTERS,
          { s: world.sessionId, f: filters },
          world.tokens.bob,
        );
        expect(set.errors).toBeUndefined();
        expect(set.data?.setSessionFilters.filters).toEqual(filters);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(kinds).toContain("FILTERS");
      const enc = await world.gql<{ setSessionEncodings: { encodings: unknown } }>(
        SET_ENCODINGS,
        { s: world.sessionId, e: encodings },
        world.tokens.bob,
      );
      expect(enc.data?.setSessionEncodings.encodings).toEqual(encodings);
      for (let i = 0; i < 100 && !kinds.includes("ENCODINGS"); i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(kinds).toContain("ENCODINGS");
      const read = await world.gql<{ vizSession: { filters: unknown; encodings: unknown } }>(
        READ,
        { id: world.sessionId },
        world.tokens.alice,
      );
      expect(read.data?.vizSession).toEqual({ filters, encodings });
    } finally {
      stop();
      await client.dispose();
    }
  });

  it("refuses the wrong shape, too much JSON, and sessions out of reach", async () => {
    const codeOf = (r: { errors?: Err }) => [r.errors?.[0]?.extensions?.code, r.errors?.[0]?.message ?? ""] as const;
    const notList = await world.gql(SET_FILTERS, { s: world.sessionId, f: { column: "rel" } }, world.tokens.bob);
    expect(codeOf(notList as { errors?: Err })).toEqual(["INVALID_INPUT", "filters must be a list of filter objects"]);
    const notObject = await world.gql(SET_ENCODINGS, { s: world.sessionId, e: ["x"] }, world.tokens.bob);
    expect(codeOf(notObject as { errors?: Err })).toEqual(["INVALID_INPUT", "encodings must be an object of encoding choices"]);
    const huge = await world.gql(SET_FILTERS, { s: world.sessionId, f: [{ values: ["x".repeat(70_000)] }] }, world.tokens.bob);
    expect(codeOf(huge as { errors?: Err })[1]).toMatch(/filters must be at most 65536 characters/);
    const stranger = await world.gql(SET_FILTERS, { s: world.sessionId, f: [] }, world.tokens.carol);
    expect(codeOf(stranger as { errors?: Err })[0]).toBe("NOT_FOUND");
    // Nothing refused was stored.
    const read = await world.gql<{ vizSession: { filters: unknown[] } }>(READ, { id: world.sessionId }, world.tokens.alice);
    expect(read.data?.vizSession.filters).toHaveLength(1);
  });

  it("get_session_info reports the filters and encodings", async () => {
    const client = new Client({ name: "test-assistant", version: "1.0.0" });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(world.url), { requestInit: { headers: { authorization: `Bearer ${world.tokens.bob}` } } }),
    );
    try {
      const result = await client.callTool({ name: "get_session_info", arguments: { session_id: world.sessionId } });
      const text = (result.content as { text: string }[])[0]?.text ?? "";
      expect(text).toContain('filters: [{"axis":"edges","column":"rel","op":"in","values":["knows"]}]');
      expect(text).toContain('encodings: {"node":{"color":{"column":"kind"}}}');
    } finally {
      await client.close();
    }
  });
});
