// The committed SDL is the contract: it must match the code and what live introspection serves.
import { readFileSync } from "node:fs";
import { buildClientSchema, getIntrospectionQuery, lexicographicSortSchema, printSchema } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { printSchemaSdl, SDL_PATH } from "../../schema/sdl.ts";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";

describe("schema/schema.graphql", () => {
  let gw: TestGateway;
  beforeAll(async () => {
    gw = await createTestGateway("sqlite");
  });
  afterAll(() => gw?.close());

  it("matches the schema the code builds (run `npm run generate` after changing types)", () => {
    expect(readFileSync(SDL_PATH, "utf8")).toBe(printSchemaSdl());
  });

  it("matches live introspection on /graphql", async () => {
    const { body } = await gw.graphql(getIntrospectionQuery());
    expect(body.errors).toBeUndefined();
    const live = printSchema(lexicographicSortSchema(buildClientSchema(body.data as never)));
    expect(`${live}\n`).toBe(readFileSync(SDL_PATH, "utf8"));
  });

  it("serves GraphiQL to browsers", async () => {
    const response = await gw.request("/graphql", { headers: { accept: "text/html" } });
    expect(response.status).toBe(200);
    expect(await response.text()).toContain("graphiql");
  });

  it("answers invalid documents with a validation code", async () => {
    const { body } = await gw.graphql("{ nosuchfield }");
    expect(body.errors?.[0]?.extensions?.code).toBe("GRAPHQL_VALIDATION_FAILED");
  });
});
