// Fuzzing the REST facade (issue 18): every route with fuzzed path parameters, methods, query strings, headers,
// content types and bodies. Property: never a 5xx, no stack trace or file path, an answer in time; healthy after.
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REST_ROUTES } from "../../facades/rest/routes/index.ts";
import { createFuzzWorld, expectHealthy, FUZZ_SEED, type FuzzWorld, probe, runs } from "./fuzz-world.ts";

let world: FuzzWorld;
beforeAll(async () => {
  world = await createFuzzWorld();
});
afterAll(async () => world?.close());

const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;
const FIELDS = [
  "file_type",
  "name",
  "description",
  "metadata",
  "node_encodings",
  "edge_encodings",
  "node_files",
  "edge_files",
  "gfql_query",
  "gfql_operations",
  "format",
  "engine",
  "strictness",
  "username",
  "password",
  "token",
  "org_name",
  "file_compression",
  "parser_options",
  "erase",
  "dataset_id",
  "mode",
  "bindings",
  "hypergraph",
  "complex",
];

/** Text that stays clear of the leak patterns by construction (no "/work", ".ts:1" or "at x (" by chance). */
const text = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.constantFrom("", "..", "%ff%fe", "null", "-1", "1e999", "ü", "\u0000", "a".repeat(300)),
);
const json = fc.jsonValue({ maxDepth: 4 });
const body = fc.oneof(
  json.map((v) => JSON.stringify(v)),
  fc.dictionary(fc.constantFrom(...FIELDS), json, { maxKeys: 6 }).map((v) => JSON.stringify(v)),
  text,
  fc.uint8Array({ maxLength: 200 }),
  fc.constant(`${"[".repeat(3000)}${"]".repeat(3000)}`),
);
const contentType = fc.constantFrom(
  "application/json",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "multipart/form-data; boundary=zz",
  "text/plain",
  "",
  "application/octet-stream",
  "application/json; charset=latin1",
  "application/merge-patch+json",
  "x/\u00e9;;=",
);
const credential = (w: FuzzWorld) =>
  fc.constantFrom(
    undefined,
    `Bearer ${w.user}`,
    `Bearer ${w.admin}`,
    "Bearer abc.def.ghi",
    "PersonalKey x:y",
    "Basic Zm9vOmJhcg==",
    "Bearer ",
    "junk",
  );

function fill(path: string, values: string[]): string {
  let i = 0;
  return path.replace(/:([a-zA-Z]+)(\{[^}]*\})?/g, () => values[i++ % values.length] ?? "x");
}

describe("REST fuzzing", () => {
  it("routes x methods x path parameters x queries x headers x bodies", async () => {
    const params = fc.oneof(
      fc.constantFrom(world.fileId, world.datasetId, world.sessionId, "nodes", "edges", "csv", "json", "parquet", "arrow"),
      text.map((s) => encodeURIComponent(s)),
    );
    const request = fc.record({
      route: fc.constantFrom(...REST_ROUTES),
      method: fc.option(fc.constantFrom(...METHODS), { nil: undefined }),
      params: fc.array(params, { minLength: 3, maxLength: 3 }),
      query: fc.dictionary(fc.oneof(fc.constantFrom("limit", "offset", "erase", "org_name", "format", "page", "page_size"), text), text, {
        maxKeys: 4,
      }),
      type: contentType,
      body,
      credential: credential(world),
      headers: fc.dictionary(fc.stringMatching(/^x-[a-z0-9-]{1,12}$/), fc.stringMatching(/^[ -~]{0,40}$/), { maxKeys: 3 }),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const method = r.method ?? r.route.methods[0] ?? "GET";
        const url = new URL(`http://gateway.test${fill(r.route.path, r.params)}`);
        for (const [k, v] of Object.entries(r.query)) url.searchParams.append(k, v);
        const headers = new Headers(r.headers);
        if (r.type) headers.set("content-type", r.type);
        if (r.credential) headers.set("authorization", r.credential);
        const withBody = method !== "GET" && method !== "HEAD";
        await probe(world, new Request(url, { method, headers, ...(withBody ? { body: r.body as BodyInit } : {}) }), r.route.path);
      }),
      { seed: FUZZ_SEED, numRuns: runs(300) },
    );
  });

  it("arbitrary paths and headers on any route", async () => {
    const request = fc.record({
      path: fc.oneof(
        fc.webPath(),
        text.map((s) => `/${encodeURIComponent(s)}`),
        fc.constantFrom("/graph/%ff%fe", "/%c0%ae%c0%ae/", "/graph/../../etc/passwd", "/api/v2/files/%00"),
      ),
      query: fc.oneof(fc.webQueryParameters(), fc.constant("%zz=%ff&&=&a[]=1")),
      method: fc.constantFrom(...METHODS),
      cookie: fc.oneof(fc.constant(undefined), fc.stringMatching(/^[ -~]{0,80}$/), fc.constant("session=abc; session=def")),
      credential: credential(world),
    });
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const headers = new Headers();
        if (r.cookie !== undefined) headers.set("cookie", r.cookie);
        if (r.credential) headers.set("authorization", r.credential);
        await probe(world, new Request(`http://gateway.test${r.path}?${r.query}`, { method: r.method, headers }), r.path);
      }),
      { seed: FUZZ_SEED, numRuns: runs(200) },
    );
  });

  it("the service is healthy afterwards", async () => {
    await expectHealthy(world);
    expect(true).toBe(true);
  });
});
