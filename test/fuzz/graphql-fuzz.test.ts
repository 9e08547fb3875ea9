// Fuzzing /graphql (issue 18): every query and mutation field with variables of the right type and of any JSON,
// random and broken documents, and bodies of every shape. Property: never a 5xx, no stack trace or file path, an
// answer in time; healthy after.
import fc from "fast-check";
import {
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLOutputType,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
} from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { schema } from "../../schema/index.ts";
import { createFuzzWorld, expectHealthy, FUZZ_SEED, type FuzzWorld, probe, runs } from "./fuzz-world.ts";

let world: FuzzWorld;
beforeAll(async () => {
  world = await createFuzzWorld();
});
afterAll(async () => world?.close());

/** Left out: they end the fuzzing identities themselves (the property would hold, but nothing after would be signed in). */
const SPARED = new Set(["deleteUser", "logoutUser", "updateUser"]);

function ids(w: FuzzWorld) {
  return fc.constantFrom(w.fileId, w.datasetId, w.sessionId, "1", "2", "0", "-1", "", "x".repeat(200));
}

/** A value of `type`, most often of the right shape, sometimes any JSON at all. */
function inputValue(type: GraphQLInputType, w: FuzzWorld, depth = 0): fc.Arbitrary<unknown> {
  const anything = fc.jsonValue({ maxDepth: 3 });
  if (depth > 3) return anything;
  if (isNonNullType(type)) return inputValue(type.ofType, w, depth);
  const typed = (() => {
    if (isListType(type)) return fc.array(inputValue(type.ofType, w, depth + 1), { maxLength: 4 });
    if (isEnumType(type)) return fc.constantFrom(...type.getValues().map((v) => v.name));
    if (isInputObjectType(type)) {
      const fields = Object.values(type.getFields());
      return fc.record(Object.fromEntries(fields.map((f) => [f.name, inputValue(f.type, w, depth + 1)])), { requiredKeys: [] });
    }
    if (isScalarType(type)) {
      switch (type.name) {
        case "ID":
          return ids(w);
        case "Int":
          return fc.oneof(fc.integer({ min: -5, max: 100 }), fc.integer());
        case "Float":
          return fc.double({ noNaN: true });
        case "Boolean":
          return fc.boolean();
        case "DateTime":
          return fc.oneof(
            fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
            fc.string({ maxLength: 30 }),
          );
        case "JSON":
          return anything;
        default:
          return fc.string({ maxLength: 40 });
      }
    }
    return anything;
  })();
  return fc.oneof({ weight: 4, arbitrary: typed }, { weight: 1, arbitrary: anything }, { weight: 1, arbitrary: fc.constant(null) });
}

/** The leaf fields without arguments of the return type, so that resolvers below the root run too. */
function selectionOf(type: GraphQLOutputType): string {
  const named = getNamedType(type);
  if (isLeafType(named)) return "";
  if (!isObjectType(named)) return "{ __typename }";
  const leaves = Object.values(named.getFields())
    .filter((f) => f.args.length === 0 && isLeafType(getNamedType(f.type)))
    .map((f) => f.name);
  return `{ __typename ${leaves.join(" ")} }`;
}

type Operation = { document: string; variables: fc.Arbitrary<Record<string, unknown>> };

function operationOf(kind: "query" | "mutation", field: GraphQLField<unknown, unknown>, w: FuzzWorld): Operation | undefined {
  if (field.args.some((a) => getNamedType(a.type).name === "Upload")) return undefined;
  const definitions = field.args.map((a) => `$${a.name}: ${a.type.toString()}`).join(", ");
  const passed = field.args.map((a) => `${a.name}: $${a.name}`).join(", ");
  const document = `${kind} Fuzz${definitions ? `(${definitions})` : ""} { ${field.name}${passed ? `(${passed})` : ""} ${selectionOf(field.type)} }`;
  const variables = fc.record(Object.fromEntries(field.args.map((a) => [a.name, inputValue(a.type, w)])), { requiredKeys: [] });
  return { document, variables };
}

function operations(w: FuzzWorld): Operation[] {
  const all: Operation[] = [];
  for (const [kind, root] of [
    ["query", schema.getQueryType()],
    ["mutation", schema.getMutationType()],
  ] as const) {
    for (const field of Object.values(root?.getFields() ?? {})) {
      if (SPARED.has(field.name)) continue;
      const operation = operationOf(kind, field, w);
      if (operation) all.push(operation);
    }
  }
  return all;
}

const post = (body: BodyInit, token: string | undefined, type = "application/json") =>
  new Request("http://gateway.test/graphql", {
    method: "POST",
    headers: { "content-type": type, accept: "application/graphql-response+json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body,
  });

describe("GraphQL fuzzing", () => {
  it("every root field with fuzzed variables, as the user, the admin and nobody", async () => {
    const all = operations(world);
    expect(all.length).toBeGreaterThan(50);
    const case_ = fc
      .record({
        index: fc.nat({ max: all.length - 1 }),
        token: fc.constantFrom(world.user, world.user, world.admin, undefined, "abc.def.ghi", "eyJhbGciOiJub25lIn0.e30.", "a:b"),
      })
      .chain(({ index, token }) => {
        const op = all[index] as Operation;
        return op.variables.map((variables) => ({ document: op.document, variables, token }));
      });
    await fc.assert(
      fc.asyncProperty(case_, async ({ document, variables, token }) => {
        await probe(world, post(JSON.stringify({ query: document, variables }), token), document.slice(0, 80));
      }),
      { seed: FUZZ_SEED, numRuns: runs(400) },
    );
  });

  it("random, broken and oversized documents", async () => {
    const all = operations(world);
    const broken = fc
      .record({ index: fc.nat({ max: all.length - 1 }), at: fc.nat(), cut: fc.nat({ max: 6 }), insert: fc.string({ maxLength: 6 }) })
      .map(({ index, at, cut, insert }) => {
        const doc = (all[index] as Operation).document;
        const i = at % (doc.length + 1);
        return doc.slice(0, i) + insert + doc.slice(i + cut);
      });
    const document = fc.oneof(
      broken,
      fc.string({ maxLength: 200 }),
      fc.constantFrom(
        `{ ${"caller { ".repeat(2000)}id${" }".repeat(2000)} }`,
        `query { ${Array.from({ length: 60 }, (_, i) => `a${i}: caller { id }`).join(" ")} }`,
        `{ caller ${"@skip(if: false) ".repeat(80)}{ id } }`,
        'subscription { sessionChanged(sessionId: "x") { __typename } }',
        "{ __schema { types { name fields { name } } } }",
        "query A { caller { id } } query B { caller { id } }",
        "fragment F on Query { ...F } { ...F }",
      ),
    );
    const variables = fc.oneof(
      fc.constant(undefined),
      fc.jsonValue({ maxDepth: 3 }),
      fc.constant(JSON.parse(`${"[".repeat(200)}${"]".repeat(200)}`)),
    );
    await fc.assert(
      fc.asyncProperty(document, variables, fc.constantFrom(world.user, undefined), async (query, vars, token) => {
        await probe(world, post(JSON.stringify({ query, variables: vars, operationName: null }), token), query.slice(0, 80));
      }),
      { seed: FUZZ_SEED, numRuns: runs(300) },
    );
  });

  it("bodies, content types and GET query strings of every shape", async () => {
    const body = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      fc.string({ maxLength: 100 }),
      fc.constant(`{"query":"{ caller { id } }","variables":${"[".repeat(30_000)}${"]".repeat(30_000)}}`),
      fc.constant(`[${Array.from({ length: 50 }, () => '{"query":"{ caller { id } }"}').join(",")}]`),
      fc.constant('{"query":"{ caller { id } }","extensions":{"persistedQuery":{"version":1,"sha256Hash":"abc"}}}'),
    );
    const type = fc.constantFrom(
      "application/json",
      "application/graphql",
      "text/plain",
      "multipart/form-data; boundary=q",
      "application/x-www-form-urlencoded",
      "",
    );
    await fc.assert(
      fc.asyncProperty(body, type, fc.webQueryParameters(), fc.boolean(), async (payload, contentType, query, asGet) => {
        const request = asGet
          ? new Request(`http://gateway.test/graphql?${query}&query=${encodeURIComponent(payload)}`, {
              headers: { accept: "application/json" },
            })
          : post(payload, world.user, contentType);
        await probe(world, request, payload.slice(0, 80));
      }),
      { seed: FUZZ_SEED, numRuns: runs(200) },
    );
  });

  it("the service is healthy afterwards", async () => {
    await expectHealthy(world);
  });
});
