// The page's search against the real gateway: text columns fetched once through the Arrow route, the field filter's
// hidden column neither fetched nor searched, the total number of matches and where a match was found.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, chromiumAvailable } from "./harness/browser.ts";
import { ADMIN } from "./harness/gateway-session.ts";
import { type PageGateway, startPageGateway } from "./harness/page-gateway.ts";

const available = chromiumAvailable();
const title = available ? "search served by the gateway" : `search served by the gateway (skipped: no Chromium at ${CHROMIUM})`;

describe.skipIf(!available)(title, () => {
  let world: PageGateway | undefined;

  beforeAll(async () => {
    world = await startPageGateway("search-gateway");
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  const count = (page: Page) => page.locator("#search-results .search-count").textContent({ timeout: 5_000 });
  const soon = { timeout: 20_000, interval: 200 };

  it("searches ids, labels and the shown text columns, never the hidden one", async () => {
    if (!world) throw new Error("no gateway");
    const page = await world.browser.newPage({ viewport: { width: 1280, height: 800 } });
    const asked: string[] = [];
    page.on("request", (request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith("nodes.arrow")) asked.push(url.searchParams.get("columns") ?? "");
    });
    await page.goto(`${world.server.url}/graph/graph.html?dataset=${world.datasetId}`);
    await page.fill("#username", ADMIN.username);
    await page.fill("#password", ADMIN.password);
    await page.click("button[type=submit]");
    await page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 60_000 });

    // Ids node-0..node-29 (labels the same in capitals): node-1 and node-10..node-19.
    await page.locator("#search").fill("node-1");
    await expect.poll(() => count(page), soon).toBe("11 matches · 1–8");
    await expect.poll(() => page.locator("#search-results [role=option]").first().textContent(), soon).toBe("NODE-1");
    // Every third node is of kind "b"; the match says where it was found.
    await page.locator("#search").fill("b");
    await expect.poll(() => count(page), soon).toBe("10 matches · 1–8");
    expect(await page.locator("#search-results [role=option]").first().textContent()).toBe("NODE-1kind: b");
    await page.locator("#search-results .search-next").click();
    await expect.poll(() => count(page), soon).toBe("10 matches · 9–10");
    // The column the node filter leaves out is not even fetched.
    await page.locator("#search").fill("not listed");
    await expect.poll(() => count(page), soon).toBe("No matching node");
    expect(asked).toEqual(["n,kind,score,label", "kind"]);
    await page.close();
  }, 180_000);
});
