// The Filters panel in Chromium (harness): it lists the node and edge columns the field filters let the inspector
// show, each histogram's counts equal counts worked out here from the fixture's rows, and a range (typed or brushed)
// or ticked values hide exactly the non-matching nodes and their links, on the canvas and in the page's state; the
// labels of hidden nodes go with them.
import { mkdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, chromiumAvailable, launchChromium } from "./harness/browser.ts";
import { smallGraphFixture, withLayout } from "./harness/graph-fixture.ts";
import { buildPage, REPO_ROOT } from "./harness/page-build.ts";
import { type PageServer, startPageServer } from "./harness/page-server.ts";
import { countDrawnPixels } from "./harness/pixels.ts";

const available = chromiumAvailable();
const ARTIFACTS = join(REPO_ROOT, "test/web/artifacts");
const title = available ? "filters panel in Chromium" : `filters panel in Chromium (skipped: no Chromium at ${CHROMIUM})`;

/** A ring of positions, so the page draws at once from the stored layout. */
describe.skipIf(!available)(title, () => {
  let dist = "";
  let server: PageServer;
  let browser: Browser;
  let page: Page;
  const fixture = withLayout(smallGraphFixture());
  const scores = [...(fixture.nodes.getChild("score")?.toArray() ?? [])] as number[];
  const groups = [...(fixture.nodes.getChild("group")?.toArray() ?? [])] as string[];
  const names = [...(fixture.nodes.getChild("name")?.toArray() ?? [])] as string[];
  const ids = [...(fixture.nodes.getChild("id")?.toArray() ?? [])] as number[];
  const sources = [...(fixture.edges.getChild("src")?.toArray() ?? [])] as number[];
  const destinations = [...(fixture.edges.getChild("dst")?.toArray() ?? [])] as number[];

  /** Links with a hidden end, worked out from the edge rows. */
  const hiddenLinks = (hidden: (row: number) => boolean) =>
    sources.filter((source, k) => hidden(ids.indexOf(source)) || hidden(ids.indexOf(destinations[k] ?? -1))).length;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    dist = await buildPage();
    server = await startPageServer(dist, fixture);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on("pageerror", (error) => console.error("page error:", error.message));
    await page.goto(server.pageUrl);
    await page
      .waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 180_000 })
      .catch(async (error) => {
        console.error(
          "state",
          await page.evaluate(() => JSON.stringify(document.documentElement.dataset)),
          await page.locator("#status").textContent(),
        );
        throw error;
      });
  }, 400_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dist) await rm(dist, { recursive: true, force: true });
  });

  const soon = { timeout: 30_000, interval: 200 };
  const state = (name: string) => page.evaluate((key) => document.documentElement.dataset[key], name);

  /** Canvas pixels that differ from its background, with every overlay (labels, panels, top bar) hidden. */
  const drawnPixels = async () => {
    await page.evaluate(() => {
      for (const element of document.querySelectorAll<HTMLElement>("body > :not(#graph)")) element.style.visibility = "hidden";
    });
    await page.waitForTimeout(400);
    const png = await page.screenshot();
    await page.evaluate(() => {
      for (const element of document.querySelectorAll<HTMLElement>("body > :not(#graph)")) element.style.visibility = "";
    });
    const image = PNG.sync.read(png);
    const background: [number, number, number] = [image.data[0] ?? 0, image.data[1] ?? 0, image.data[2] ?? 0];
    return { count: countDrawnPixels(png, background), png };
  };

  it("lists the columns the field filters show, with histograms counted from the data", async () => {
    const requestsBefore = server.requests.length;
    await page.locator("#filters-toggle").click();
    await expect.poll(() => page.locator("#filter-panel .filter-column").count(), soon).toBeGreaterThan(0);
    const listed = await page
      .locator("#filter-panel .filter-column")
      .evaluateAll((blocks) => blocks.map((block) => `${(block as HTMLElement).dataset.axis}/${(block as HTMLElement).dataset.column}`));
    // secret is hidden for every type, internal_id excluded for edges; ip shows for servers; ids and endpoints are not filters.
    expect(listed).toEqual(["nodes/name", "nodes/type", "nodes/group", "nodes/score", "nodes/ip", "nodes/note", "edges/weight"]);
    // One request per table, for exactly the listed columns.
    const arrow = server.requests.slice(requestsBefore).filter((path) => path.includes(".arrow"));
    expect(arrow).toHaveLength(2);
    expect(decodeURIComponent(arrow.find((path) => path.includes("nodes.arrow")) ?? "")).toContain("columns=name,type,group,score,ip,note");

    // Numbers: 20 bins over [min, max], the last including max.
    const min = Math.min(...scores);
    const max = Math.max(...scores);
    const width = (max - min) / 20;
    const expected = new Array<number>(20).fill(0);
    for (const score of scores) {
      const bin = Math.min(19, Math.floor((score - min) / width));
      expected[bin] = (expected[bin] ?? 0) + 1;
    }
    const bars = await page
      .locator('#filter-panel .filter-column[data-column="score"] .bar')
      .evaluateAll((items) => items.map((item) => Number((item as HTMLElement).dataset.count)));
    expect(bars).toEqual(expected);
    expect(bars.reduce((a, b) => a + b, 0)).toBe(scores.length);

    // Text: the top values with their counts.
    const values = await page
      .locator('#filter-panel .filter-column[data-column="group"] li label')
      .evaluateAll((items) =>
        items.map((item) => `${item.querySelector(".value")?.textContent}=${item.querySelector(".count")?.textContent}`),
      );
    const counts = new Map<string, number>();
    for (const group of groups) counts.set(group, (counts.get(group) ?? 0) + 1);
    expect(values.sort()).toEqual([...counts].map(([value, count]) => `${value}=${count}`).sort());
    await page.screenshot({ path: join(ARTIFACTS, "filter-panel.png") });
  });

  it("a typed range hides the nodes outside it and their links, on the canvas too", async () => {
    // The graph as drawn before filtering (polled: opening the panel can leave a redraw pending on a busy machine's
    // software WebGL, and CI once read a blank canvas here).
    let before = { count: 0 };
    await expect
      .poll(async () => {
        before = await drawnPixels();
        return before.count;
      }, soon)
      .toBeGreaterThan(500);
    const block = page.locator('#filter-panel .filter-column[data-column="score"]');
    await block.locator(".filter-min").fill("5");
    await block.locator(".filter-min").press("Enter");
    await block.locator(".filter-min").blur();
    const outside = (row: number) => !((scores[row] ?? Number.NaN) >= 5);
    const hiddenNodes = scores.filter((_score, row) => outside(row)).length;
    expect(hiddenNodes).toBeGreaterThan(5);
    await expect.poll(() => state("filterHiddenNodes"), soon).toBe(String(hiddenNodes));
    expect(await state("filterHiddenEdges")).toBe(String(hiddenLinks(outside)));
    expect(await page.locator("#filter-summary").textContent()).toBe(`${scores.length - hiddenNodes} of ${scores.length} nodes shown`);
    // Fewer nodes and links drawn: the hidden ones left the canvas (once it is redrawn: a busy machine's software
    // WebGL can take longer than the screenshot's wait).
    await expect.poll(async () => (await drawnPixels()).count, soon).toBeLessThan(before.count * 0.8);
    await page.screenshot({ path: join(ARTIFACTS, "filter-range.png") });
    await page.locator("#filter-clear").click();
    await expect.poll(() => state("filterHiddenNodes"), soon).toBe("0");
    await expect.poll(async () => Math.abs((await drawnPixels()).count - before.count), soon).toBeLessThan(before.count * 0.05);
  });

  it("the labels of hidden nodes go with them", async () => {
    const briefly = { timeout: 8_000, interval: 200 };
    const shownLabels = () =>
      page
        .locator("#labels .label")
        .evaluateAll((items) =>
          items.filter((item) => (item as HTMLElement).style.display !== "none").map((item) => item.textContent ?? ""),
        );
    // Labels go to the largest nodes first (sized by score): a maximum of 5 hides the labelled ones.
    const outside = (row: number) => !((scores[row] ?? Number.NaN) <= 5);
    const hiddenNames = new Set(names.filter((_name, row) => outside(row)));
    await expect.poll(async () => (await shownLabels()).filter((label) => hiddenNames.has(label)).length, soon).toBeGreaterThan(3);
    // The panel open (this test also runs alone).
    if (await page.locator("#filter-panel").isHidden()) await page.locator("#filters-toggle").click();
    const block = page.locator('#filter-panel .filter-column[data-column="score"]');
    await block.waitFor(soon);
    await block.locator(".filter-max").fill("5");
    await block.locator(".filter-max").press("Enter");
    await block.locator(".filter-max").blur();
    await expect.poll(() => state("filterHiddenNodes"), soon).toBe(String(scores.filter((_score, row) => outside(row)).length));
    await expect.poll(async () => (await shownLabels()).filter((label) => hiddenNames.has(label)), briefly).toEqual([]);
    // The shown nodes are labelled instead.
    expect((await shownLabels()).length).toBeGreaterThan(3);
    await page.locator("#filter-clear").click();
    await expect.poll(() => state("filterHiddenNodes"), soon).toBe("0");
    await expect.poll(async () => (await shownLabels()).filter((label) => hiddenNames.has(label)).length, soon).toBeGreaterThan(3);
  });

  it("brushing bars keeps their range, and ticked values keep those values", async () => {
    const bars = page.locator('#filter-panel .filter-column[data-column="score"] .histogram');
    const box = await bars.boundingBox();
    if (!box) throw new Error("no histogram");
    // From the first bar to the middle of the tenth: bins 0..9, i.e. [min, min + 10 * width).
    await page.mouse.move(box.x + 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width * 0.3, box.y + box.height / 2, { steps: 4 });
    await page.mouse.move(box.x + (box.width * 9.5) / 20, box.y + box.height / 2, { steps: 4 });
    await page.mouse.up();
    const min = Math.min(...scores);
    const width = (Math.max(...scores) - min) / 20;
    const outside = (row: number) => Math.floor(((scores[row] ?? 0) - min) / width) > 9;
    const hidden = scores.filter((_score, row) => outside(row)).length;
    await expect.poll(() => state("filterHiddenNodes"), soon).toBe(String(hidden));
    expect(await state("filterHiddenEdges")).toBe(String(hiddenLinks(outside)));
    expect(await page.locator('#filter-panel .filter-column[data-column="score"] .bar.is-kept').count()).toBe(10);
    await page.locator('#filter-panel .filter-column[data-column="score"] .filter-reset').click();
    await expect.poll(() => state("filterHiddenNodes"), soon).toBe("0");

    // Ticking two groups keeps their nodes; the edges filter by weight hides links on their own.
    const group = page.locator('#filter-panel .filter-column[data-column="group"]');
    await group.locator('input[value="red team"]').check();
    await group.locator('input[value="blue team"]').check();
    const notKept = (row: number) => !["red team", "blue team"].includes(groups[row] ?? "");
    await expect.poll(() => state("filterHiddenNodes"), soon).toBe(String(groups.filter((_g, row) => notKept(row)).length));
    expect(await state("filterHiddenEdges")).toBe(String(hiddenLinks(notKept)));
    expect(await state("filters")).toBe("1");
    await page.screenshot({ path: join(ARTIFACTS, "filter-values.png") });
    await page.locator("#filter-clear").click();
    await expect.poll(() => state("filterHiddenNodes"), soon).toBe("0");
  });
});
