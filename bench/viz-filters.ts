// bench/viz-filters: how long the timebar, the filter table and the filtered CSV export take to answer on graph.html in
// headless Chromium with software WebGL, for random graphs (served by the page's test harness) whose nodes have a
// datetime column: a timebar step (its click handler, where the hidden rows and paint layer are worked out, and from
// the click to the next animation frame), opening the filter table (its columns read and the passing rows listed),
// sorting it by the time column, the toolbar's CSV of the filtered graph (click to download), and a color change from
// the Encodings panel (nodes colored by another column, until its legend shows and a frame followed). Medians and slowest
// of 5 (the table's first opening: once), each from a page at rest (no canvas frame for a second).
// Run: node bench/viz-filters.ts [edges,...] [--renderer=swiftshader|llvmpipe]

import { rm } from "node:fs/promises";
import os from "node:os";
import { Table, TimestampMillisecond, vectorFromArray } from "apache-arrow";
import type { Page } from "playwright-core";
import { CHROMIUM, chromiumAvailable, launchChromium, type Renderer } from "../test/web/harness/browser.ts";
import { randomGraphFixture } from "../test/web/harness/graph-fixture.ts";
import { buildPage } from "../test/web/harness/page-build.ts";
import { startPageServer } from "../test/web/harness/page-server.ts";
import { mulberry32 } from "../web/src/random.ts";

const args = process.argv.slice(2);
const option = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
const sizes = (args.find((arg) => !arg.startsWith("--")) ?? "10000,100000").split(",").map(Number);
const renderer = (option("renderer") ?? "swiftshader") as Renderer;
const REPEATS = 5;

if (!chromiumAvailable()) {
  console.error(`bench/viz-filters needs Chromium at ${CHROMIUM}`);
  process.exit(1);
}

/** The random graph with a node datetime column `seen` over a year. */
function fixtureOf(edges: number) {
  const base = randomGraphFixture(edges, true);
  const random = mulberry32(edges + 1);
  const start = Date.UTC(2024, 0, 1);
  const seen = Array.from({ length: base.nodes.numRows }, () => new Date(start + Math.floor(random() * 365 * 86_400_000)));
  const nodes = new Table({
    ...Object.fromEntries(
      base.nodes.schema.fields.map((field) => [field.name, base.nodes.getChild(field.name) as NonNullable<ReturnType<Table["getChild"]>>]),
    ),
    seen: vectorFromArray(seen, new TimestampMillisecond()),
  });
  return { ...base, nodes };
}

const stats = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `${Math.round(sorted[Math.floor(sorted.length / 2)] ?? 0)} / ${Math.round(sorted.at(-1) ?? 0)}`;
};

/** Clicks an element in the page: the ms its click handler ran, and until `done` holds and a frame followed. */
async function answerBoth(page: Page, selector: string, done: string): Promise<{ script: number; frame: number }> {
  return page.evaluate(
    async ({ selector, done }) => {
      const test = new Function(`return (${done});`) as () => boolean;
      const t0 = performance.now();
      (document.querySelector(selector) as HTMLElement).click();
      const script = performance.now() - t0;
      while (!test()) await new Promise((resolve) => setTimeout(resolve, 5));
      await new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
      return { script, frame: performance.now() - t0 };
    },
    { selector, done },
  );
}

const answer = async (page: Page, selector: string, done: string) => (await answerBoth(page, selector, done)).frame;

/**
 * Waits until the canvas has drawn no frame for a second (at most a minute): a software-WebGL frame of a big graph
 * takes seconds and holds the page meanwhile, so each action is measured from a page at rest.
 */
async function settle(page: Page): Promise<void> {
  const renders = () => page.evaluate(() => document.documentElement.dataset.graphRenders ?? "");
  const until = Date.now() + 60_000;
  let last = await renders();
  while (Date.now() < until) {
    await page.waitForTimeout(1000);
    const now = await renders();
    if (now === last) return;
    last = now;
  }
}

const dist = await buildPage();
const browser = await launchChromium(renderer);
const rows: string[][] = [];
try {
  for (const edges of sizes) {
    const server = await startPageServer(dist, fixtureOf(edges));
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
    const page = await context.newPage();
    try {
      await page.goto(server.pageUrl);
      await page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 600_000 });
      await page.waitForFunction(() => document.querySelectorAll("#timebar .bar").length > 0, null, { timeout: 120_000 });
      const steps: number[] = [];
      const scripts: number[] = [];
      for (let k = 0; k < REPEATS; k++) {
        await settle(page);
        const before = await page.evaluate(() => document.getElementById("timebar")?.dataset.min ?? "");
        const step = await answerBoth(
          page,
          "#timebar-forward",
          `document.getElementById("timebar").dataset.min !== ${JSON.stringify(before)}`,
        );
        steps.push(step.frame);
        scripts.push(step.script);
      }
      await settle(page);
      const open = await answer(page, "#filter-table-toggle", `document.getElementById("filter-table").dataset.rows !== undefined`);
      const sorts: number[] = [];
      for (let k = 0; k < REPEATS; k++) {
        const want = k % 2 === 0 ? "ascending" : "descending";
        await settle(page);
        sorts.push(
          await answer(
            page,
            '#filter-table th button[data-column="seen"]',
            `document.querySelector('#filter-table th button[data-column="seen"]')?.parentElement?.getAttribute("aria-sort") === "${want}"`,
          ),
        );
      }
      await page.locator("#filter-table .filter-table-head button", { hasText: "Close" }).click();
      const exports: number[] = [];
      for (let k = 0; k < REPEATS; k++) {
        await settle(page);
        const t0 = performance.now();
        await Promise.all([page.waitForEvent("download", { timeout: 300_000 }), page.locator("#export-csv").click()]);
        exports.push(performance.now() - t0);
      }
      await page.locator("#encodings-toggle").click();
      const colors: number[] = [];
      for (let k = 0; k < REPEATS; k++) {
        const column = k % 2 === 0 ? "size" : "community";
        await settle(page);
        colors.push(
          await page.evaluate(async (column) => {
            const select = document.getElementById("encoding-nodeColor") as HTMLSelectElement;
            const t0 = performance.now();
            select.value = column;
            select.dispatchEvent(new Event("change"));
            const legend = document.getElementById("legend");
            while (!legend?.textContent?.includes(`· ${column}`)) await new Promise((resolve) => setTimeout(resolve, 5));
            await new Promise((resolve) => requestAnimationFrame(() => resolve(undefined)));
            return performance.now() - t0;
          }, column),
        );
      }
      const passing = await page.evaluate(() => document.getElementById("filter-table")?.dataset.rows ?? "?");
      rows.push([
        edges.toLocaleString("en-US"),
        passing,
        stats(scripts),
        stats(steps),
        String(Math.round(open)),
        stats(sorts),
        stats(exports),
        stats(colors),
      ]);
    } finally {
      await context.close();
      await server.close();
    }
  }
} finally {
  await browser.close();
  await rm(dist, { recursive: true, force: true });
}

console.log(
  `\ngraph.html in headless Chromium ${browser.version()} with ${renderer}, on ${os.cpus().length} CPU cores ` +
    `(${os.cpus()[0]?.model ?? "unknown CPU"}), no GPU. Viewport 1280x800. ms, median / slowest of ${REPEATS}.`,
);
const header = [
  "edges",
  "nodes in window",
  "timebar step: handler",
  "timebar step: to next frame",
  "table open (once)",
  "table sort",
  "CSV of filtered graph",
  "color by column: to legend and frame",
];
console.log(`| ${header.join(" | ")} |\n|${header.map(() => "---").join("|")}|`);
for (const row of rows) console.log(`| ${row.join(" | ")} |`);
