// graph.html through a Redis outage: the owner's page stays connected while the gateway's Redis is killed; changes
// made meanwhile (a collection, shared filters) reach no page until Redis is back, then the server's RESYNC makes the
// page read them.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRedis, type TestRedis } from "../helpers/redis-server.ts";
import { CHROMIUM, chromiumAvailable } from "./harness/browser.ts";
import { ADMIN, bearer, graphql, signIn } from "./harness/gateway-session.ts";
import { type PageGateway, startPageGateway } from "./harness/page-gateway.ts";

const available = chromiumAvailable();
const title = available ? "graph.html through a Redis outage" : `graph.html through a Redis outage (skipped: no Chromium at ${CHROMIUM})`;

describe.skipIf(!available)(title, () => {
  let redis: TestRedis | undefined;
  let world: PageGateway | undefined;

  beforeAll(async () => {
    redis = await startTestRedis();
    world = await startPageGateway("redis-outage-page", undefined, { REDIS_URL: redis.url });
  }, 120_000);
  afterAll(async () => {
    await world?.close();
    await redis?.kill();
  });

  const attr = (page: Page, name: string) => page.evaluate((key) => document.documentElement.getAttribute(key), name);

  it("reads the changes made while Redis was away once it is back", async () => {
    if (!world || !redis) throw new Error("no gateway");
    const { server, browser, datasetId } = world;
    const owner = await signIn(browser, server.url, ADMIN.username, ADMIN.password);
    await owner.page.goto(`${server.url}/graph/graph.html?dataset=${datasetId}`);
    await owner.page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 60_000 });
    const sessionId = new URL(owner.page.url()).searchParams.get("session") ?? "";
    expect(sessionId).not.toBe("");

    await redis.kill();
    const auth = await bearer(server.url);
    const created = await graphql<{ createCollection: { id: string } }>(
      server.url,
      auth,
      `mutation($s: ID!) { createCollection(input: { sessionId: $s, name: "while away", query: "[{\\"type\\":\\"Node\\"}]" }) { id } }`,
      { s: sessionId },
    );
    const collectionId = created.data?.createCollection.id ?? "";
    expect(collectionId).not.toBe("");
    const filters = [{ axis: "nodes", column: "kind", kind: "values", values: ["a"] }];
    const shared = await graphql(
      server.url,
      auth,
      "mutation($s: ID!, $f: JSON!) { setSessionFilters(sessionId: $s, filters: $f) { id } }",
      {
        s: sessionId,
        f: filters,
      },
    );
    expect(shared.errors).toBeUndefined();
    // Published into a dead Redis: the page has heard of neither.
    const row = owner.page.locator(`#collections li[data-collection-id="${collectionId}"]`);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(await row.count()).toBe(0);
    expect(await attr(owner.page, "data-filters")).not.toBe("1");

    await redis.start();
    await row.waitFor({ state: "attached", timeout: 30_000 });
    await expect.poll(() => attr(owner.page, "data-filters"), { timeout: 30_000, interval: 100 }).toBe("1");
    await owner.context.close();
  }, 180_000);
});
