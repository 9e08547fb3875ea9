// Filters and encodings shared through the live session, against the real gateway: two browsers on one session; one
// colors nodes by a column and filters by a value, the other sees both (and a fresh visit opens with them).
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, chromiumAvailable } from "./harness/browser.ts";
import { ADMIN, shareWith, signIn } from "./harness/gateway-session.ts";
import { type PageGateway, startPageGateway } from "./harness/page-gateway.ts";

const available = chromiumAvailable();
const title = available ? "shared filters and encodings" : `shared filters and encodings (skipped: no Chromium at ${CHROMIUM})`;

describe.skipIf(!available)(title, () => {
  let world: PageGateway | undefined;

  beforeAll(async () => {
    world = await startPageGateway("shared-state-gateway");
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  const firstFrame = (page: Page) =>
    page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 60_000 });
  const attr = (page: Page, name: string) => page.evaluate((key) => document.documentElement.getAttribute(key), name);

  it("one viewer colors by a column and filters; the other sees both", async () => {
    if (!world) throw new Error("no gateway");
    const { server, browser, datasetId } = world;
    await shareWith(server.url, datasetId, "bob", "bob-password");
    const owner = await signIn(browser, server.url, ADMIN.username, ADMIN.password);
    await owner.page.goto(`${server.url}/graph/graph.html?dataset=${datasetId}`);
    await firstFrame(owner.page);
    const sessionUrl = owner.page.url();
    const viewer = await signIn(browser, server.url, "bob", "bob-password");
    await viewer.page.goto(sessionUrl);
    await firstFrame(viewer.page);
    expect(await viewer.page.locator("#encoding-nodeColor").inputValue()).toBe("kind");

    // Color: the owner colors nodes by "label"; the viewer's panel (and drawing) follows.
    await owner.page.locator("#encodings-toggle").click();
    await owner.page.selectOption("#encoding-nodeColor", "label");
    await expect.poll(() => viewer.page.locator("#encoding-nodeColor").inputValue(), { timeout: 30_000, interval: 100 }).toBe("label");

    // Filter: the owner keeps kind "a" only; the viewer hides the same nodes.
    await owner.page.locator("#filters-toggle").click();
    const tick = owner.page.locator('.filter-column[data-column="kind"] input[type=checkbox][value="a"]');
    await tick.waitFor({ timeout: 30_000 });
    await tick.check();
    await expect.poll(() => attr(owner.page, "data-filters"), { timeout: 30_000, interval: 100 }).toBe("1");
    const hidden = await attr(owner.page, "data-filter-hidden-nodes");
    expect(Number(hidden)).toBeGreaterThan(0);
    await expect.poll(() => attr(viewer.page, "data-filters"), { timeout: 30_000, interval: 100 }).toBe("1");
    await expect.poll(() => attr(viewer.page, "data-filter-hidden-nodes"), { timeout: 30_000, interval: 100 }).toBe(hidden);

    // A fresh visit to the session opens with both.
    const again = await signIn(browser, server.url, "bob", "bob-password");
    await again.page.goto(sessionUrl);
    await firstFrame(again.page);
    await expect.poll(() => attr(again.page, "data-filter-hidden-nodes"), { timeout: 30_000, interval: 100 }).toBe(hidden);
    expect(await again.page.locator("#encoding-nodeColor").inputValue()).toBe("label");
    for (const each of [owner, viewer, again]) await each.context.close();
  }, 240_000);
});
