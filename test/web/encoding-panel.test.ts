// The Encodings panel in Chromium: color nodes by another column (drawn colors and legend change), size nodes by a
// column, edge width, edge arrows, the choice kept over a reload, Reset back to the dataset's bindings.
import { mkdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, chromiumAvailable, launchChromium } from "./harness/browser.ts";
import { smallGraphFixture } from "./harness/graph-fixture.ts";
import { buildPage, REPO_ROOT } from "./harness/page-build.ts";
import { type PageServer, startPageServer } from "./harness/page-server.ts";
import { countDrawnPixels, differingPixels } from "./harness/pixels.ts";

const available = chromiumAvailable();
const ARTIFACTS = join(REPO_ROOT, "test/web/artifacts");
const title = available ? "graph.html encodings in Chromium" : `graph.html encodings in Chromium (skipped: no Chromium at ${CHROMIUM})`;

/** The middle of the window: clear of the top bar, the legend, the panel and the inspector. */
const MIDDLE = { x: 300, y: 120, width: 620, height: 560 };

/** Pixels of the middle of the window within `tolerance` of a color. */
function nearInMiddle(png: Buffer, hex: string, tolerance = 30): number {
  const image = PNG.sync.read(png);
  const color = [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16));
  let count = 0;
  for (let y = MIDDLE.y; y < MIDDLE.y + MIDDLE.height; y++) {
    for (let x = MIDDLE.x; x < MIDDLE.x + MIDDLE.width; x++) {
      const at = (y * image.width + x) * 4;
      if ([0, 1, 2].every((c) => Math.abs((image.data[at + c] ?? 0) - (color[c] ?? 0)) <= tolerance)) count++;
    }
  }
  return count;
}

function middleOf(png: Buffer): Buffer {
  const image = PNG.sync.read(png);
  const out = new PNG({ width: MIDDLE.width, height: MIDDLE.height });
  PNG.bitblt(image, out, MIDDLE.x, MIDDLE.y, MIDDLE.width, MIDDLE.height, 0, 0);
  return PNG.sync.write(out);
}

describe.skipIf(!available)(title, () => {
  let dist = "";
  let server: PageServer;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    dist = await buildPage();
    server = await startPageServer(dist, smallGraphFixture());
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on("pageerror", (error) => console.error("page error:", error.message));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dist) await rm(dist, { recursive: true, force: true });
  });

  const text = (selector: string) => page.locator(selector).first().textContent({ timeout: 5_000 });
  const soon = { timeout: 30_000, interval: 200 };
  const ready = () => expect.poll(() => page.locator("html").getAttribute("data-graph-state"), { timeout: 60_000 }).toBe("ready");
  const shot = async (name: string) => {
    // The governor draws for a while after a change; let the picture settle before looking.
    await page.waitForTimeout(1_200);
    return page.screenshot({ path: join(ARTIFACTS, `encoding-${name}.png`), timeout: 60_000 });
  };
  const drawn = async (png: Buffer) => {
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    const [r, g, b] = (background.match(/\d+/g) ?? []).map(Number);
    return countDrawnPixels(png, [r ?? 0, g ?? 0, b ?? 0], MIDDLE);
  };
  const choose = (key: string, column: string) => page.locator(`#encoding-${key}`).selectOption(column);

  it("colors nodes by another column: the drawn colors and the legend follow", async () => {
    await page.goto(server.pageUrl);
    await ready();
    await expect.poll(() => text("#legend"), soon).toContain("Node color · group");
    await page.locator("#encodings-toggle").click();
    expect(await page.locator("#encodings-panel").isVisible()).toBe(true);
    // The dataset's bindings are what the panel shows first.
    expect(await page.locator("#encoding-nodeColor").inputValue()).toBe("group");
    expect(await page.locator("#encoding-nodeSize").inputValue()).toBe("score");
    // Only numeric columns size nodes.
    const sizeOptions = await page.locator("#encoding-nodeSize option").allTextContents();
    expect(sizeOptions).toContain("score");
    expect(sizeOptions).not.toContain("name");
    const byGroup = await shot("by-group");
    // The second category's color (orange) is drawn.
    const orangeBefore = nearInMiddle(byGroup, "#f28e2b");
    expect(orangeBefore).toBeGreaterThan(50);

    await choose("nodeColor", "score");
    await expect.poll(() => text("#legend"), soon).toContain("Node color · score");
    expect(await page.locator("#legend .gradient").count()).toBeGreaterThan(0);
    const byScore = await shot("by-score");
    expect(nearInMiddle(byScore, "#f28e2b")).toBeLessThan(orangeBefore / 10);
    // The ramp's greens are drawn now, and were not before.
    expect(nearInMiddle(byGroup, "#35b779")).toBeLessThan(20);
    expect(nearInMiddle(byScore, "#35b779")).toBeGreaterThan(100);
  }, 180_000);

  it("sizes nodes by a numeric column or not at all", async () => {
    const bySize = await drawn(await shot("size-score"));
    await choose("nodeSize", "");
    const plain = await drawn(await shot("size-none"));
    // With no size column every node has the default size, smaller than most score-sized nodes.
    expect(plain).toBeLessThan(bySize * 0.85);
    await choose("nodeSize", "score");
    expect(await drawn(await shot("size-score-again"))).toBeGreaterThan(plain * 1.1);
  }, 180_000);

  it("widens edges by a weight column and draws arrows when asked", async () => {
    const thin = await shot("edges-thin");
    await choose("edgeWidth", "weight");
    const wide = await shot("edges-wide");
    expect(await drawn(wide)).toBeGreaterThan((await drawn(thin)) * 1.05);
    await page.locator("#encoding-arrows").check();
    const arrows = await shot("arrows");
    expect(differingPixels(middleOf(wide), middleOf(arrows))).toBeGreaterThan(100);
  }, 180_000);

  it("keeps the choices over a reload, and Reset returns to the dataset's bindings", async () => {
    await page.reload();
    await ready();
    await expect.poll(() => text("#legend"), soon).toContain("Node color · score");
    await page.locator("#encodings-toggle").click();
    expect(await page.locator("#encoding-nodeColor").inputValue()).toBe("score");
    expect(await page.locator("#encoding-edgeWidth").inputValue()).toBe("weight");
    expect(await page.locator("#encoding-arrows").isChecked()).toBe(true);
    await page.locator("#encodings-reset").click();
    await expect.poll(() => text("#legend"), soon).toContain("Node color · group");
    expect(await page.locator("#encoding-nodeColor").inputValue()).toBe("group");
    expect(await page.locator("#encoding-edgeWidth").inputValue()).toBe("");
    expect(await page.locator("#encoding-arrows").isChecked()).toBe(false);
    expect(nearInMiddle(await shot("reset"), "#f28e2b")).toBeGreaterThan(50);
  }, 180_000);
});
