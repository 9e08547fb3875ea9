// The timebar in Chromium (harness): shown for a graph with datetime columns, its histogram counted from the data,
// brushing a time window hides exactly the nodes outside it (and their links) through the shared filter state (sent to
// the session like any filter), the step and play buttons slide the window, an edge column filters edges, and at
// phone width it is a drawer that fits the window.
import { mkdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { Table, TimestampMillisecond, vectorFromArray } from "apache-arrow";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, chromiumAvailable, launchChromium } from "./harness/browser.ts";
import { type GraphFixture, smallGraphFixture, withLayout } from "./harness/graph-fixture.ts";
import { buildPage, REPO_ROOT } from "./harness/page-build.ts";
import { type PageServer, startPageServer } from "./harness/page-server.ts";

const available = chromiumAvailable();
const ARTIFACTS = join(REPO_ROOT, "test/web/artifacts");
const title = available ? "the timebar in Chromium" : `the timebar in Chromium (skipped: no Chromium at ${CHROMIUM})`;
const BINS = 60;
const DAY = 86_400_000;
const START = Date.UTC(2024, 0, 1, 8, 0, 0);

/** The small graph with a node time `seen` (one row without) and an edge time `at`, both listed by the field filters. */
function timeFixture(): GraphFixture {
  const base = withLayout(smallGraphFixture());
  const seen = Array.from({ length: base.nodes.numRows }, (_v, i) => (i === 4 ? null : new Date(START + ((i * 7919) % 97) * DAY * 0.37)));
  const at = Array.from({ length: base.edges.numRows }, (_v, k) => new Date(START + ((k * 104_729) % 89) * DAY * 0.41 + 1234));
  const column = (table: Table, name: string) => table.getChild(name) as NonNullable<ReturnType<Table["getChild"]>>;
  const nodes = new Table({
    ...Object.fromEntries(base.nodes.schema.fields.map((field) => [field.name, column(base.nodes, field.name)])),
    seen: vectorFromArray(seen, new TimestampMillisecond()),
  });
  const edges = new Table({
    ...Object.fromEntries(base.edges.schema.fields.map((field) => [field.name, column(base.edges, field.name)])),
    at: vectorFromArray(at, new TimestampMillisecond()),
  });
  const [nodeFilter, edgeFilter] = base.fieldFilters;
  if (!nodeFilter || !edgeFilter) throw new Error("the fixture has two field filters");
  return { ...base, nodes, edges, fieldFilters: [{ ...nodeFilter, global: { ...nodeFilter.global, seen: true } }, edgeFilter] };
}

describe.skipIf(!available)(title, () => {
  let dist = "";
  let server: PageServer;
  let browser: Browser;
  let page: Page;
  const fixture = timeFixture();
  const numbers = (table: Table, name: string) =>
    Array.from({ length: table.numRows }, (_v, i) => {
      const value: unknown = table.getChild(name)?.get(i);
      return value === null || value === undefined ? Number.NaN : Number(value);
    });
  const seen = numbers(fixture.nodes, "seen");
  const at = numbers(fixture.edges, "at");
  const ids = numbers(fixture.nodes, "id");
  const sources = numbers(fixture.edges, "src");
  const destinations = numbers(fixture.edges, "dst");
  /** Per edge row: whether an end is hidden. */
  const endHidden = (hidden: (row: number) => boolean) =>
    sources.map((source, k) => hidden(ids.indexOf(source)) || hidden(ids.indexOf(destinations[k] ?? -1)));
  const sent: unknown[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    dist = await buildPage();
    server = await startPageServer(dist, fixture);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on("pageerror", (error) => console.error("page error:", error.message));
    page.on("request", (request) => {
      const body = request.postData();
      if (request.url().endsWith("/graphql") && body?.includes("setSessionFilters"))
        sent.push((JSON.parse(body) as { variables: { f: unknown } }).variables.f);
    });
    await page.goto(server.pageUrl);
    await page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 120_000 });
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dist) await rm(dist, { recursive: true, force: true });
  });

  const soon = { timeout: 30_000, interval: 200 };
  const state = (name: string) => page.evaluate((key) => document.documentElement.dataset[key], name);
  const windowOf = async () => {
    const data = await page.locator("#timebar").evaluate((bar) => ({ ...(bar as HTMLElement).dataset }));
    return { min: Number(data.min), max: Number(data.max), set: data.min !== "" };
  };
  const binsOf = (values: number[]) => {
    const finite = values.filter((v) => !Number.isNaN(v));
    const min = Math.min(...finite);
    const max = Math.max(...finite);
    const width = (max - min) / BINS;
    const counts = new Array<number>(BINS).fill(0);
    for (const v of finite) {
      const bin = Math.min(BINS - 1, Math.floor((v - min) / width));
      counts[bin] = (counts[bin] ?? 0) + 1;
    }
    return { min, max, width, counts };
  };
  /** Drags across the bars from bin `from` to bin `to` (their middles). */
  const brush = async (from: number, to: number) => {
    const box = await page.locator("#timebar .timebar-bars").boundingBox();
    if (!box) throw new Error("no timebar bars");
    const x = (bin: number) => box.x + ((bin + 0.5) * box.width) / BINS;
    await page.mouse.move(x(from), box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move((x(from) + x(to)) / 2, box.y + box.height / 2, { steps: 3 });
    await page.mouse.move(x(to), box.y + box.height / 2, { steps: 3 });
    await page.mouse.up();
  };
  /** The page's hidden counts equal those worked out here for a window on the node column `seen`. */
  const expectNodeWindow = async (first: number, last: number) => {
    const bins = binsOf(seen);
    await expect.poll(async () => (await windowOf()).min, soon).toBeCloseTo(bins.min + first * bins.width, 0);
    const { min, max } = await windowOf();
    expect(max).toBeLessThan(bins.min + (last + 1) * bins.width);
    expect(max).toBeGreaterThan(bins.min + (last + 1) * bins.width - 1);
    const outside = (row: number) => !((seen[row] ?? Number.NaN) >= min && (seen[row] ?? Number.NaN) <= max);
    const hiddenNodes = seen.filter((_v, row) => outside(row)).length;
    expect(hiddenNodes).toBeGreaterThan(0);
    expect(hiddenNodes).toBeLessThan(seen.length);
    await expect.poll(() => state("filterHiddenNodes"), soon).toBe(String(hiddenNodes));
    expect(await state("filterHiddenEdges")).toBe(String(endHidden(outside).filter(Boolean).length));
    expect(await page.locator("#timebar .bar.is-kept").count()).toBe(last - first + 1);
    return { min, max };
  };

  it("is shown for the datetime columns, with a histogram counted from the data", async () => {
    await expect.poll(() => page.locator("#timebar").isVisible(), soon).toBe(true);
    expect(
      await page.locator("#timebar-column option").evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value)),
    ).toEqual(["nodes/seen", "edges/at"]);
    await expect.poll(() => page.locator("#timebar .bar").count(), soon).toBe(BINS);
    const counts = await page.locator("#timebar .bar").evaluateAll((bars) => bars.map((bar) => Number((bar as HTMLElement).dataset.count)));
    expect(counts).toEqual(binsOf(seen).counts);
    expect(await page.locator("#timebar-window").textContent()).toBe("All times");
    // The bottom-left legend moved above the strip.
    const legend = await page.locator("#legend").boundingBox();
    const bar = await page.locator("#timebar").boundingBox();
    if (legend && bar) expect(legend.y + legend.height).toBeLessThanOrEqual(bar.y);
  }, 60_000);

  it("brushing a window hides the nodes outside it and their links, and shares the filter with the session", async () => {
    await brush(10, 19);
    const { min, max } = await expectNodeWindow(10, 19);
    await expect.poll(() => sent.length, soon).toBeGreaterThan(0);
    expect(sent.at(-1)).toEqual([{ axis: "nodes", column: "seen", kind: "range", min, max }]);
    expect(await page.locator("#timebar-window").textContent()).toMatch(/^2024-\d\d-\d\d \d\d:\d\d.* – 2024-/);
    await page.screenshot({ path: join(ARTIFACTS, "timebar-window.png") });
    // The Filters panel shows the same filter.
    await page.locator("#filters-toggle").click();
    await expect.poll(() => page.locator('#filter-panel .filter-column[data-column="seen"].is-active').count(), soon).toBe(1);
    await page.locator("#filters-toggle").click();
  }, 60_000);

  it("the step buttons slide the window a bin at a time, and play slides it on until paused", async () => {
    await page.locator("#timebar-forward").click();
    await expectNodeWindow(11, 20);
    await page.locator("#timebar-back").click();
    await page.locator("#timebar-back").click();
    await expectNodeWindow(9, 18);
    const before = (await windowOf()).min;
    await page.locator("#timebar-play").click();
    expect(await page.locator("#timebar-play").getAttribute("aria-pressed")).toBe("true");
    await expect.poll(async () => (await windowOf()).min, soon).toBeGreaterThan(before);
    await page.locator("#timebar-play").click();
    expect(await page.locator("#timebar-play").getAttribute("aria-pressed")).toBe("false");
    // Paused: the window stays where it is, and the hidden counts match it.
    const paused = await windowOf();
    await page.waitForTimeout(1200);
    expect((await windowOf()).min).toBe(paused.min);
    const bins = binsOf(seen);
    const first = Math.round((paused.min - bins.min) / bins.width);
    await expectNodeWindow(first, first + 9);
    // From the keyboard: arrows slide the window, Escape shows all times.
    await page.locator("#timebar .timebar-bars").focus();
    await page.keyboard.press("ArrowLeft");
    await expectNodeWindow(first - 1, first + 8);
    await page.keyboard.press("Escape");
    await expect.poll(() => state("filterHiddenNodes"), soon).toBe("0");
    await page.locator("#timebar-forward").click();
    await expectNodeWindow(0, 5);
    await page.locator("#timebar-clear").click();
    await expect.poll(() => state("filterHiddenNodes"), soon).toBe("0");
    expect(await page.locator("#timebar-window").textContent()).toBe("All times");
  }, 60_000);

  it("an edge column's window hides the edges outside it, and no node", async () => {
    await page.locator("#timebar-column").selectOption("edges/at");
    const bins = binsOf(at);
    await expect
      .poll(() => page.locator("#timebar .bar").evaluateAll((bars) => bars.map((bar) => Number((bar as HTMLElement).dataset.count))), soon)
      .toEqual(bins.counts);
    await brush(0, 29);
    await expect.poll(async () => (await windowOf()).set, soon).toBe(true);
    const { min, max } = await windowOf();
    expect(min).toBe(bins.min);
    const outside = at.filter((v) => !(v >= min && v <= max)).length;
    expect(outside).toBeGreaterThan(0);
    await expect.poll(() => state("filterHiddenEdges"), soon).toBe(String(outside));
    expect(await state("filterHiddenNodes")).toBe("0");
    await page.locator("#timebar-clear").click();
    await expect.poll(() => state("filterHiddenEdges"), soon).toBe("0");
  }, 60_000);

  it("at phone width it is a drawer that fits the window, and brushing still works", async () => {
    await page.setViewportSize({ width: 375, height: 667 });
    await expect.poll(() => page.locator("#timebar").isVisible(), soon).toBe(false);
    await page.locator('#drawer-bar button[data-drawer="timebar"]').click();
    await expect.poll(() => page.locator("#timebar").isVisible(), soon).toBe(true);
    await page.locator("#timebar-column").selectOption("nodes/seen");
    await expect.poll(() => page.locator("#timebar").getAttribute("data-column"), soon).toBe("seen");
    const box = await page.locator("#timebar").boundingBox();
    expect(box).not.toBeNull();
    if (!box) return;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    expect(box.y + box.height).toBeLessThanOrEqual(667);
    for (const id of ["#timebar-back", "#timebar-play", "#timebar-forward", "#timebar-clear"]) {
      const button = await page.locator(id).boundingBox();
      expect(button && button.x + button.width <= 375).toBe(true);
    }
    await brush(20, 29);
    await expectNodeWindow(20, 29);
    await page.screenshot({ path: join(ARTIFACTS, "timebar-narrow.png") });
    await page.locator("#timebar-clear").click();
    await expect.poll(() => state("filterHiddenNodes"), soon).toBe("0");
    await page.setViewportSize({ width: 1280, height: 800 });
  }, 60_000);
});
