// Standing labels in Chromium: more appear as the view zooms in, none overlapping (the label layer's boxes, read from
// the page), chosen by priority among the nodes in view.
import { rm } from "node:fs/promises";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, chromiumAvailable, launchChromium } from "./harness/browser.ts";
import { randomGraphFixture } from "./harness/graph-fixture.ts";
import { buildPage } from "./harness/page-build.ts";
import { type PageServer, startPageServer } from "./harness/page-server.ts";

const available = chromiumAvailable();
const title = available ? "labels as the view zooms, in Chromium" : `labels (skipped: no Chromium at ${CHROMIUM})`;

type Box = { text: string; left: number; top: number; right: number; bottom: number };

describe.skipIf(!available)(title, () => {
  let dist = "";
  let server: PageServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    dist = await buildPage();
    // 2,000 nodes with a stored layout (20 clusters): far more than fit as labels at the whole-graph view.
    server = await startPageServer(dist, randomGraphFixture(4_000, true));
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on("pageerror", (error) => console.error("page error:", error.message));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dist) await rm(dist, { recursive: true, force: true });
  });

  const soon = { timeout: 30_000, interval: 250 };

  /** The boxes of the labels shown now. */
  const boxes = (): Promise<Box[]> =>
    page.evaluate(() =>
      [...document.querySelectorAll<HTMLElement>(".label")]
        .filter((label) => label.style.display !== "none" && label.offsetParent !== null)
        .map((label) => {
          const r = label.getBoundingClientRect();
          return { text: label.textContent ?? "", left: r.left, top: r.top, right: r.right, bottom: r.bottom };
        }),
    );

  const overlapping = (shown: Box[]) => {
    const pairs: string[] = [];
    for (let i = 0; i < shown.length; i++)
      for (let j = i + 1; j < shown.length; j++) {
        const a = shown[i] as Box;
        const b = shown[j] as Box;
        if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) pairs.push(`${a.text}/${b.text}`);
      }
    return pairs;
  };

  /** The labels once they have stopped changing (two reads a second apart agree). */
  const settled = async (): Promise<Box[]> => {
    let last = "";
    let shown: Box[] = [];
    await expect
      .poll(
        async () => {
          shown = await boxes();
          const key = JSON.stringify(shown);
          const same = key === last;
          last = key;
          return same;
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe(true);
    return shown;
  };

  it("shows more labels as the view zooms in, none overlapping another", async () => {
    await page.goto(server.pageUrl);
    await page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 60_000 });
    await expect.poll(() => page.locator(".label").count(), soon).toBeGreaterThan(0);
    const overview = await settled();
    expect(overview.length).toBeGreaterThan(0);
    expect(overview.length).toBeLessThanOrEqual(16);
    expect(overlapping(overview)).toEqual([]);

    // Zoom in on one cluster (the layout puts cluster 0 right of the middle).
    const canvas = await page.locator("canvas").first().boundingBox();
    if (!canvas) throw new Error("no canvas");
    const at = { x: canvas.x + canvas.width * 0.5 + canvas.height * 0.3, y: canvas.y + canvas.height / 2 };
    await page.mouse.move(at.x, at.y);
    for (let k = 0; k < 6; k++) {
      await page.mouse.wheel(0, -300);
      await page.waitForTimeout(200);
    }
    // Away from the nodes, so no hovered label joins in.
    await page.mouse.move(5, 5);
    const zoomed = await settled();
    expect(Number(await page.locator(".labels").getAttribute("data-label-budget"))).toBeGreaterThan(16);
    expect(zoomed.length).toBeGreaterThan(overview.length);
    expect(overlapping(zoomed)).toEqual([]);
    // Other nodes than at the whole-graph view: the ones in view now.
    expect(zoomed.some((box) => !overview.some((other) => other.text === box.text))).toBe(true);
  }, 180_000);

  it("the labels control shows another text column's values, or no labels at all", async () => {
    const texts = async () => (await boxes()).map((box) => box.text);
    // The bound label here is the id column: numbers.
    expect((await texts()).every((text) => /^\d+$/.test(text))).toBe(true);
    const choices = await page.locator("#label-column option").allTextContents();
    expect(choices).toEqual(["Labels: id", "Labels: community", "Labels: off"]);
    await page.selectOption("#label-column", { label: "Labels: community" });
    await expect.poll(async () => (await texts()).length > 0 && (await texts()).every((text) => /^c\d+$/.test(text)), soon).toBe(true);
    expect(overlapping(await settled())).toEqual([]);
    await page.selectOption("#label-column", { label: "Labels: off" });
    await expect.poll(() => page.locator(".labels").isVisible(), soon).toBe(false);
    await expect.poll(async () => (await boxes()).length, soon).toBe(0);
    await page.selectOption("#label-column", { label: "Labels: id" });
    await expect.poll(async () => (await texts()).length > 0 && (await texts()).every((text) => /^\d+$/.test(text)), soon).toBe(true);
  }, 120_000);
});
