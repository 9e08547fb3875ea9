// Collections in graph.html against the real gateway: the owner creates one over GraphQL and a second viewer's
// panel lists it within a second, paints its matches in its color, and restores the colors when it is hidden.
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../helpers/server-process.ts";
import { CHROMIUM, chromiumAvailable } from "./harness/browser.ts";
import { ADMIN, bearer, graphql, shareWith, signIn } from "./harness/gateway-session.ts";
import { ARTIFACTS, type PageGateway, startPageGateway } from "./harness/page-gateway.ts";
import { differingPixels, pixelsNear } from "./harness/pixels.ts";

const available = chromiumAvailable();
const title = available ? "collections in graph.html" : `collections in graph.html (skipped: no Chromium at ${CHROMIUM})`;
const CREATE = `mutation($i: CreateCollectionInput!) { createCollection(input: $i) { id name color matchCount nodeCount edgeCount } }`;

if (!available) console.warn(`${title}: these browser tests are skipped`);

const MAGENTA: [number, number, number] = [255, 0, 255];

/** A ring, as the owner's stored layout: no layout runs any more, so the picture holds still between screenshots. */
function ringLayout(count: number): Uint8Array<ArrayBuffer> {
  const positions = new Float32Array(count * 2);
  for (let i = 0; i < count; i++) {
    positions[i * 2] = 2048 + 300 * Math.cos((i / count) * Math.PI * 2);
    positions[i * 2 + 1] = 2048 + 300 * Math.sin((i / count) * Math.PI * 2);
  }
  return new Uint8Array(positions.buffer);
}

describe.skipIf(!available)(title, () => {
  let world: PageGateway | undefined;
  let server: ServerProcess;
  let browser: Browser;
  let datasetId = "";

  beforeAll(async () => {
    world = await startPageGateway("collections-panel", "llvmpipe");
    ({ server, browser, datasetId } = world);
    await shareWith(server.url, datasetId, "bob", "bob-password");
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  const firstFrame = (page: Page) =>
    page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 60_000 });
  // The panel's own swatch is magenta too: leave it out of the picture.
  const shot = (page: Page, name: string) =>
    page.screenshot({ path: join(ARTIFACTS, `${name}.png`), timeout: 60_000, style: "#collections { visibility: hidden; }" });
  const painted = (page: Page) => page.evaluate(() => document.documentElement.dataset.collectionsPainted ?? "");

  it("a collection created by the owner shows in a second viewer's panel within a second, painted, and hides again", async () => {
    const owner = await signIn(browser, server.url, ADMIN.username, ADMIN.password);
    await owner.page.goto(`${server.url}/graph/graph.html?dataset=${datasetId}`);
    await firstFrame(owner.page);
    const sessionUrl = owner.page.url();
    const sessionId = new URL(sessionUrl).searchParams.get("session") ?? "";
    expect(sessionId).toMatch(/\w+/);
    // The first view's server layout runs to its end first (it would store its own positions over the ring).
    await expect
      .poll(() => owner.page.evaluate(() => document.documentElement.dataset.layoutState), { timeout: 60_000, interval: 200 })
      .toBe("done");
    // The owner stores a layout; both pages then draw it as it is, without laying out.
    const auth = await bearer(server.url);
    const stored = await fetch(`${server.url}/graph/data/${sessionId}/layout`, {
      method: "PUT",
      headers: { ...auth, "content-type": "application/octet-stream" },
      body: ringLayout(30),
    });
    expect(stored.status).toBe(204);
    await owner.page.reload();
    await firstFrame(owner.page);
    const viewer = await signIn(browser, server.url, "bob", "bob-password");
    viewer.page.on("pageerror", (error) => console.error("viewer page error:", error.message));
    await viewer.page.goto(sessionUrl);
    await firstFrame(viewer.page);
    for (const page of [owner.page, viewer.page]) expect(await page.evaluate(() => document.documentElement.dataset.layout)).toBe("saved");
    // No collections yet: no panel, nothing magenta.
    expect(await viewer.page.locator("#collections").isHidden()).toBe(true);
    await viewer.page.waitForTimeout(1_000);
    const beforePng = await shot(viewer.page, "collections-before");
    expect(pixelsNear(beforePng, MAGENTA)).toBeLessThan(20);

    // When the row first shows in the panel (the frame after it entered the page), by the page's clock, which is
    // this machine's as is this test's.
    await viewer.page.evaluate(() => {
      new MutationObserver((records, observer) => {
        if (!records.some((r) => [...r.addedNodes].some((n) => n instanceof HTMLElement && n.matches("li[data-collection-id]")))) return;
        observer.disconnect();
        requestAnimationFrame(() => {
          document.documentElement.dataset.collectionRowAt = String(Date.now());
        });
      }).observe(document.body, { childList: true, subtree: true });
    });
    // The owner, through the GraphQL endpoint: kind "a" nodes, the edges out of them and the nodes they reach.
    const query = [{ type: "Node", filter_dict: { kind: "a" } }, { type: "Edge", direction: "forward" }, { type: "Node" }];
    const created = await graphql<{ createCollection: { id: string; matchCount: number | null } }>(server.url, auth, CREATE, {
      i: { sessionId, name: "Kind a and after", query, nodeColor: "#ff00ff", description: "kind a and their successors" },
    });
    const answeredEpoch = Date.now();
    const answeredAt = performance.now();
    expect(created.errors).toBeUndefined();
    const collection = created.data?.createCollection;
    expect(collection).toMatchObject({ color: "#ff00ff", nodeCount: 20, edgeCount: 10, matchCount: 30 });
    const row = viewer.page.locator(`#collections li[data-collection-id="${collection?.id}"]`);
    // Polled with a deadline; the page's own clock says when the row was drawn (polling adds its own delay).
    await row.waitFor({ state: "visible", timeout: 2_000 });
    const polled = performance.now() - answeredAt;
    const rowAt = await viewer.page.waitForFunction(() => document.documentElement.dataset.collectionRowAt, null, { timeout: 2_000 });
    const elapsed = Number(await rowAt.jsonValue()) - answeredEpoch;
    console.info(
      `collection in the second viewer's panel ${elapsed} ms after the mutation answered (the page's clock); ` +
        `seen by polling after ${polled.toFixed(0)} ms`,
    );
    expect(elapsed).toBeLessThan(1_000);
    expect(polled).toBeLessThan(1_000);
    expect(await row.locator(".collection-name").textContent()).toBe("Kind a and after");
    expect(await row.locator(".collection-count").textContent()).toBe("30");
    expect(await row.locator("input[type=checkbox]").isChecked()).toBe(true);
    // The owner's page lists it too.
    await owner.page.locator(`#collections li[data-collection-id="${collection?.id}"]`).waitFor({ state: "visible", timeout: 5_000 });

    // Its 20 nodes and 10 edges turn magenta.
    await expect.poll(() => painted(viewer.page), { timeout: 10_000, interval: 100 }).toBe(collection?.id);
    await viewer.page.waitForTimeout(500);
    const shownPng = await shot(viewer.page, "collections-second-viewer");
    const shown = pixelsNear(shownPng, MAGENTA);
    console.info(`magenta pixels: ${shown} painted; ${differingPixels(beforePng, shownPng)} pixels changed`);
    expect(shown).toBeGreaterThan(300);
    await viewer.page.screenshot({ path: join(ARTIFACTS, "collections-panel.png"), timeout: 60_000 });

    // Hidden here (only here): the picture is the one from before.
    await row.locator("input[type=checkbox]").uncheck();
    await expect.poll(() => painted(viewer.page), { timeout: 10_000, interval: 100 }).toBe("");
    await viewer.page.waitForTimeout(500);
    const hiddenPng = await shot(viewer.page, "collections-hidden");
    expect(pixelsNear(hiddenPng, MAGENTA)).toBeLessThan(20);
    const changed = differingPixels(beforePng, hiddenPng);
    console.info(`after hiding: ${changed} pixels differ from before`);
    expect(changed).toBeLessThan(50);
    expect(await painted(owner.page)).toBe(collection?.id);
    await owner.context.close();
    await viewer.context.close();
  }, 240_000);
});
