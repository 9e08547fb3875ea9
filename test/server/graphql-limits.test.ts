// GraphQL limits: wrong-typed variables, deep selections and variables, aliases, cost, directives, tokens, batching,
// body size and field suggestions each answer a 4xx naming the problem, never a 500 (issue 18).
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { parse } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { loadConfig } from "../../src/config/config.ts";
import { startNodeServer } from "../../src/server/node.ts";
import { createTestDatabase } from "../helpers/databases.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

let t: TestGateway;
let admin: string;

type Answer = {
  status: number;
  body: { data?: Record<string, unknown>; errors?: { message: string; extensions?: Record<string, unknown> }[] };
};

async function post(body: unknown, token: string | null = admin, init: { accept?: string; raw?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = {
    "content-type": "application/json",
    accept: init.accept ?? "application/graphql-response+json",
  };
  if (token) headers.authorization = `Bearer ${token}`;
  const response = await t.request("/graphql", { method: "POST", headers, body: init.raw ?? JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Answer["body"] };
}

const codes = (answer: Answer) => answer.body.errors?.map((e) => e.extensions?.code);

beforeAll(async () => {
  t = await createTestGateway("sqlite");
  admin = await t.login();
});
afterAll(async () => t?.close());

describe("variables", () => {
  it("a value of the wrong type is a 400 INVALID_INPUT naming the variable", async () => {
    for (const value of [{ a: 1 }, [1, 2], true, 1.5]) {
      const answer = await post({ query: "query($id: ID!) { file(id: $id) { id } }", variables: { id: value } });
      expect(answer.status).toBe(400);
      expect(codes(answer)).toEqual(["INVALID_INPUT"]);
      expect(answer.body.errors?.[0]?.message).toContain("$id");
    }
    const input = await post({
      query: "mutation($i: CreateUserInput!) { createUser(input: $i) { id } }",
      variables: { i: { username: 5, password: [1] } },
    });
    expect(input.status).toBe(400);
    expect(new Set(codes(input))).toEqual(new Set(["INVALID_INPUT"]));
  });

  it("values nested 20,000 deep are refused before coercion", async () => {
    const deep = `${"[".repeat(20_000)}1${"]".repeat(20_000)}`;
    const raw = `{"query":"query($x: JSON!) { gfql(datasetId: \\"x\\", query: $x) { __typename } }","variables":{"x":${deep}}}`;
    const answer = await post(undefined, admin, { raw });
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0]?.extensions).toMatchObject({ code: "INVALID_INPUT", details: { limit: "GRAPHQL_MAX_VARIABLE_DEPTH" } });
  });
});

describe("documents", () => {
  it("a 5,000-deep selection stops at the token limit, a 16-deep one at the depth limit", async () => {
    const deepest = await post({ query: `{ ${"caller { ".repeat(5000)}id${" }".repeat(5000)} }` });
    expect(deepest.status).toBe(400);
    expect(deepest.body.errors?.[0]?.message).toMatch(/Token limit/);
    const nested = 'organization(slug: "x") { members { user { organizations { organization { '.repeat(3);
    const deep = await post({ query: `{ ${nested}id${" } } } } }".repeat(3)} }` });
    expect(deep.status).toBe(400);
    expect(deep.body.errors?.map((e) => e.extensions?.details)).toContainEqual({ limit: "GRAPHQL_MAX_DEPTH" });
  });

  it("aliased mutations past the alias limit are refused and none of them runs", async () => {
    const keys = async () =>
      ((await post({ query: "{ myPersonalKeys { id } }" })).body.data?.myPersonalKeys as unknown[] | undefined)?.length;
    const before = await keys();
    expect(before).toBeTypeOf("number");
    const mutations = Array.from({ length: 40 }, (_, i) => `k${i}: createPersonalKey(name: "k${i}") { id }`).join(" ");
    const answer = await post({ query: `mutation { ${mutations} }` });
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.[0]?.extensions).toMatchObject({ code: "INVALID_INPUT", details: { limit: "GRAPHQL_MAX_ALIASES" } });
    expect(answer.body.data).toBeUndefined();
    expect(await keys()).toBe(before);
  });

  it("cost and directives have limits too", async () => {
    // The same fragment spread 500 times: few tokens, no aliases, a cost past 5,000.
    const costly = await post({ query: `{ files { ${"...F ".repeat(500)}} } fragment F on FilePage { items { id name createdAt } }` });
    expect(costly.status).toBe(400);
    const limits = costly.body.errors?.map((e) => (e.extensions?.details as { limit?: string } | undefined)?.limit);
    expect(limits).toContain("GRAPHQL_MAX_COST");
    const directives = await post({ query: `{ caller ${"@include(if: true) ".repeat(60)}{ id } }` });
    expect(directives.status).toBe(400);
    expect(directives.body.errors?.map((e) => e.extensions?.details)).toContainEqual({ limit: "GRAPHQL_MAX_DIRECTIVES" });
  });

  it("batched requests are refused", async () => {
    const answer = await post([{ query: "{ caller { id } }" }, { query: "{ caller { id } }" }]);
    expect(answer.status).toBe(400);
  });

  it("a body past MAX_JSON_BODY_BYTES is a 413 PAYLOAD_TOO_LARGE, declared or streamed", async () => {
    const big = JSON.stringify({ query: "{ caller { id } }", variables: { pad: "x".repeat(1_100_000) } });
    const declared = await post(undefined, admin, { raw: big });
    expect(declared.status).toBe(413);
    expect(declared.body.errors?.[0]?.extensions).toMatchObject({ code: "PAYLOAD_TOO_LARGE", details: { limit: 1_048_576 } });
    const bytes = new TextEncoder().encode(big);
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let at = 0; at < bytes.length; at += 65_536) controller.enqueue(bytes.slice(at, at + 65_536));
        controller.close();
      },
    });
    const response = await t.gateway.fetch(
      new Request("http://gateway.test/graphql", {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${admin}` },
        body: stream,
        duplex: "half",
      } as RequestInit),
      { clientAddress: "127.0.0.1" },
    );
    expect(response.status).toBe(413);
  });
});

describe("uploads through /graphql (multipart)", () => {
  it("still stream past the JSON limit", async () => {
    const file = await t.json<{ file_id: string }>("/api/v2/files/", {
      method: "POST",
      headers: { authorization: `Bearer ${admin}` },
      json: { file_type: "csv" },
    });
    const form = new FormData();
    const query = "mutation($f: Upload!, $id: ID!) { uploadFileData(data: $f, id: $id) { id isValid } }";
    form.set("operations", JSON.stringify({ query, variables: { f: null, id: file.body.file_id } }));
    form.set("map", JSON.stringify({ 0: ["variables.f"] }));
    const csv = `s,d\n${"a,b\n".repeat(300_000)}`; // 1.2 MB: past MAX_JSON_BODY_BYTES, within MAX_UPLOAD_BYTES
    form.set("0", new Blob([csv]), "edges.csv");
    const response = await t.request("/graphql", { method: "POST", headers: { authorization: `Bearer ${admin}` }, body: form });
    const body = (await response.json()) as Answer["body"];
    expect(body.errors).toBeUndefined();
    expect(body.data?.uploadFileData).toMatchObject({ id: file.body.file_id, isValid: true });
  });
});

describe("field suggestions", () => {
  it("are given to signed-in callers only", async () => {
    const query = "{ fles { id } }";
    const signedIn = await post({ query });
    expect(signedIn.body.errors?.[0]?.message).toMatch(/Did you mean/);
    for (const token of [null, "not-a-token"]) {
      const stranger = await post({ query }, token);
      expect(stranger.status).toBe(400);
      expect(stranger.body.errors?.[0]?.message).toMatch(/Cannot query field "fles"/);
      expect(stranger.body.errors?.[0]?.message).not.toMatch(/Did you mean|files/);
    }
  });
});

/** Every GraphQL document written as a template literal in the service, its facades and the page. */
function serviceDocuments(): { file: string; document: string }[] {
  const found: { file: string; document: string }[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const full = path.join(dir, name);
      if (statSync(full).isDirectory()) walk(full);
      else if (name.endsWith(".ts")) {
        for (const match of readFileSync(full, "utf8").matchAll(/`((?:query|mutation|subscription)\b[^`]*)`/g)) {
          const document = match[1] ?? "";
          if (!document.includes("${")) found.push({ file: full, document });
        }
      }
    }
  };
  for (const dir of ["facades", "web/src", "src"]) walk(path.resolve(import.meta.dirname, "../..", dir));
  return found;
}

describe("the service's own documents", () => {
  it("all stay within the limits", () => {
    const documents = serviceDocuments();
    expect(documents.length).toBeGreaterThan(40);
    const enveloped = t.gateway.yoga.getEnveloped({ request: new Request("http://gateway.test/graphql", { method: "POST" }) });
    const over: string[] = [];
    for (const { file, document } of documents) {
      try {
        parse(document);
      } catch {
        continue; // not GraphQL (GFQL's own query strings)
      }
      let errors: readonly { message: string; extensions?: Record<string, unknown> }[];
      try {
        errors = enveloped.validate(enveloped.schema, enveloped.parse(document));
      } catch (error) {
        errors = [{ message: (error as Error).message }];
      }
      for (const error of errors) {
        if (error.extensions?.details || /limit/i.test(error.message)) over.push(`${path.basename(file)}: ${error.message}`);
      }
    }
    expect(over).toEqual([]);
  });
});

describe("graphql-ws messages", () => {
  it("past MAX_JSON_BODY_BYTES close the socket (1009), and the server goes on", async () => {
    const database = await createTestDatabase("sqlite");
    const running = await startNodeServer(
      loadConfig({ ...database.env, LOG_LEVEL: "silent", PORT: "0", HOST: "127.0.0.1", SHUTDOWN_GRACE_MS: "200" }),
    );
    try {
      const socket = new WebSocket(`ws://127.0.0.1:${running.port}/graphql`, "graphql-transport-ws");
      await new Promise((resolve, reject) => {
        socket.once("open", resolve);
        socket.once("error", reject);
      });
      const closed = new Promise<number>((resolve) => socket.once("close", (code) => resolve(code)));
      socket.send(JSON.stringify({ type: "connection_init", payload: { pad: "x".repeat(1_100_000) } }));
      expect(await closed).toBe(1009);
      const health = await fetch(`http://127.0.0.1:${running.port}/healthz`);
      expect(health.status).toBe(200);
    } finally {
      await running.stop("test");
      await database.drop();
    }
  });
});
