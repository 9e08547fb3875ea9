// bench/viz: graph.html in headless Chromium with software WebGL: time from navigation to the first drawn frame,
// frames per second while panning, and how long the controls (labels; the Filters, Encodings and Table panels) take
// to answer while the pointer moves over the graph, and a click on a node its inspector, for random graphs of 10k, 100k
// and 1M edges (served by the page's test harness).
// With --stream the graph has no stored layout: the page starts the server layout and draws its first frame from the
// stream (the harness's stand-in job sends real frames at --frame-ms); measured while frames keep coming: how long the
// search box takes to list matches, the pan rate, and frames received, drawn and dropped.
// With --gateway the real service lays the graph out (bench/viz-gateway.ts).
// --dist=DIR measures a page built elsewhere (another commit's web/dist, for before/after figures).
// Run: node bench/viz.ts [edges,...] [--renderer=swiftshader|llvmpipe] [--pan-seconds=5] [--stream|--gateway] [--frame-ms=100]
//   [--dist=DIR]

import { rm } from "node:fs/promises";
import os from "node:os";
import type { Page } from "playwright-core";
import { CHROMIUM, chromiumAvailable, launchChromium, type Renderer } from "../test/web/harness/browser.ts";
import { randomGraphFixture } from "../test/web/harness/graph-fixture.ts";
import { buildPage } from "../test/web/harness/page-build.ts";
import { startPageServer } from "../test/web/harness/page-server.ts";
import { loadAverageLine } from "./load-average.ts";
import { openOnGateway, prepareGatewayPage } from "./viz-gateway.ts";

const args = process.argv.slice(2);
const option = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
const sizes = (args.find((arg) => !arg.startsWith("--")) ?? "10000,100000,1000000").split(",").map(Number);
const renderer = (option("renderer") ?? "swiftshader") as Renderer;
const panSeconds = Number(option("pan-seconds") ?? 5);
const stream = args.includes("--stream");
const gateway = args.includes("--gateway");
/** Positions come from a layout stream: the harness's stand-in job, or the gateway's own layout. */
const streaming = stream || gateway;
const frameMs = Number(option("frame-ms") ?? 100);
/** Frames to count while panning, at least, however slow they are. */
const MIN_FRAMES = 3;
const FRAME_LIMIT_MS = 15 * 60_000;
/** How long the search box may take to answer before the figure reads "over". */
const SEARCH_LIMIT_MS = 60_000;

if (!chromiumAvailable()) {
  console.error(`bench/viz needs Chromium at ${CHROMIUM} (apt-get install chromium)`);
  process.exit(1);
}

const prebuilt = option("dist");
const dist = prebuilt ?? (await buildPage());
if (gateway) await prepareGatewayPage();
const loadLine = loadAverageLine();
const browser = await launchChromium(renderer);
const rows: string[][] = [];
try {
  for (const edges of sizes) rows.push(await measure(edges));
} finally {
  await browser.close();
  if (!prebuilt) await rm(dist, { recursive: true, force: true });
}

const rendererName = renderer === "swiftshader" ? "SwiftShader (ANGLE)" : "Mesa llvmpipe (ANGLE over EGL)";
console.log(
  `\ngraph.html in headless Chromium ${browser.version()} with software WebGL: ${rendererName}, on ${os.cpus().length} CPU cores ` +
    `(${os.cpus()[0]?.model ?? "unknown CPU"}), no GPU. Viewport 1280x800.`,
);
console.log(
  gateway
    ? "Layout: none stored; the real gateway (npm start's defaults) lays the graph out with ForceAtlas2 and streams its " +
        "frames; the search, pan and frame figures are taken while they come."
    : stream
      ? `Layout: none stored, so the page starts the server layout and draws its frames (one every ${frameMs} ms, ` +
        "x,y float32 per node); the search, pan and frame figures are taken while frames keep coming."
      : "Layout: stored in the session, as on a reload; nodes = edges / 2, 20 color categories, sized nodes.",
);
console.log("Software frame rates are for comparing builds only; a laptop GPU is orders of magnitude faster.\n");
printTable(
  streaming
    ? [
        "edges",
        "nodes",
        "data loaded (ms)",
        "first frame (ms)",
        "search answer (ms)",
        "pan fps",
        "control answer (ms, median / max)",
        "select answer (ms)",
        "bytes/frame",
        "frames received",
        "drawn",
        "dropped",
        "layout at the end (iteration)",
      ]
    : [
        "edges",
        "nodes",
        "data loaded (ms)",
        "first frame (ms)",
        "search answer (ms)",
        "pan fps",
        "control answer (ms, median / max)",
        "select answer (ms)",
        "frames counted",
      ],
  rows,
);

type Opened = { nodes: number; page: Page; close(): Promise<void> };

/** The page with the harness (a stored layout, or the stand-in layout job with --stream), or on the real gateway. */
async function openPage(edges: number): Promise<Opened> {
  if (gateway) return openOnGateway(browser, edges).then((run) => ({ nodes: run.nodes, page: run.page, close: run.stop }));
  const fixture = randomGraphFixture(edges, !stream);
  // The stand-in job streams long enough for every measurement to happen while frames come.
  const server = await startPageServer(dist, fixture, stream ? { frameMs, maxIter: 100_000, step: 1 } : undefined);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  await page.goto(server.pageUrl);
  return {
    nodes: fixture.nodes.numRows,
    page,
    async close() {
      await page.close();
      await server.close();
    },
  };
}

async function measure(edges: number): Promise<string[]> {
  process.stderr.write(`${edges} edges: loading… `);
  const { nodes, page, close } = await openPage(edges);
  page.on("pageerror", (error) => console.error(`page error at ${edges} edges:`, error.message));
  try {
    await page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, {
      timeout: FRAME_LIMIT_MS,
      polling: 250,
    });
    const marks = await page.evaluate(() => ({
      data: performance.getEntriesByName("graph-data-loaded")[0]?.startTime ?? Number.NaN,
      frame: performance.getEntriesByName("graph-first-frame")[0]?.startTime ?? Number.NaN,
    }));
    process.stderr.write(`first frame at ${Math.round(marks.frame)} ms; searching… `);
    const search = await searchMs(page);
    process.stderr.write(`${Math.round(search)} ms; panning… `);
    const pan = await panFps(page);
    process.stderr.write(`${pan.fps.toFixed(2)} fps; controls… `);
    const control = await controlMs(page);
    process.stderr.write(`${control}; selecting… `);
    const select = await selectMs(page);
    process.stderr.write(`${select}\n`);
    const common = [
      edges.toLocaleString("en-US"),
      nodes.toLocaleString("en-US"),
      Math.round(marks.data).toLocaleString("en-US"),
      Math.round(marks.frame).toLocaleString("en-US"),
      Number.isFinite(search) ? Math.round(search).toLocaleString("en-US") : `> ${SEARCH_LIMIT_MS.toLocaleString("en-US")}`,
      pan.fps < 1 ? pan.fps.toFixed(3) : pan.fps.toFixed(1),
      control,
      select,
    ];
    if (!streaming) return [...common, String(pan.frames)];
    const shown = await page.evaluate(() => ({ ...document.documentElement.dataset }));
    const count = (value: string | undefined) => Number(value ?? 0).toLocaleString("en-US");
    return [
      ...common,
      (32 + nodes * 8).toLocaleString("en-US"),
      count(shown.layoutReceived),
      count(shown.layoutFrames),
      count(shown.layoutDropped),
      `${shown.layoutState ?? "?"} (${count(shown.layoutIteration)})`,
    ];
  } finally {
    await close();
  }
}

/** Types into the search box and waits for the list of matches (the page's debounce included); Infinity past the limit. */
async function searchMs(page: Page): Promise<number> {
  const start = performance.now();
  try {
    await page.locator("#search").fill("1", { timeout: SEARCH_LIMIT_MS });
    await page.locator("#search-results [role=option]").first().waitFor({ timeout: SEARCH_LIMIT_MS });
  } catch {
    return Number.POSITIVE_INFINITY;
  }
  const elapsed = performance.now() - start;
  await page.locator("#search").fill("", { timeout: SEARCH_LIMIT_MS });
  await page.locator("#search").blur({ timeout: SEARCH_LIMIT_MS });
  return elapsed;
}

/**
 * Drags the canvas back and forth; counts the frames cosmos.gl draws (the page's data-graph-renders: the page draws
 * only when something changed, so the browser's own animation frames no longer say how often the graph was drawn).
 */
async function panFps(page: Page): Promise<{ fps: number; frames: number }> {
  // A page from before the render governor draws every animation frame: count those instead.
  await page.evaluate(() => {
    if (document.documentElement.dataset.graphRenders !== undefined) return;
    const counter = { frames: 0 };
    (window as unknown as { benchFrames: typeof counter }).benchFrames = counter;
    const tick = () => {
      counter.frames++;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const frames = () =>
    page.evaluate(() =>
      Number(
        document.documentElement.dataset.graphRenders ?? (window as unknown as { benchFrames: { frames: number } }).benchFrames.frames,
      ),
    );
  await page.mouse.move(640, 420);
  await page.mouse.down();
  const startFrames = await frames();
  const start = performance.now();
  let step = 0;
  let counted = 0;
  while (performance.now() - start < panSeconds * 1000 || counted < MIN_FRAMES) {
    if (performance.now() - start > FRAME_LIMIT_MS) break;
    step++;
    // A slow circle around the start point: a continuous pan with no net drift.
    await page.mouse.move(640 + 120 * Math.sin(step / 10), 420 + 80 * Math.cos(step / 10) - 80);
    counted = (await frames()) - startFrames;
  }
  const seconds = (performance.now() - start) / 1000;
  await page.mouse.up();
  return { fps: counted / seconds, frames: counted };
}

/** A control of the page: its element, what to do to it, and when it has answered (`on`: switched on, or opened). */
type Control = { selector: string; act(page: Page, on: boolean): Promise<unknown>; answered(on: boolean): string };

/** A button opening and closing a panel: answered once its aria-expanded says so. */
function panelButton(id: string): Control {
  return {
    selector: `#${id}`,
    act: (page) => page.click(`#${id}`, { timeout: FRAME_LIMIT_MS }),
    answered: (on) => `document.getElementById(${JSON.stringify(id)})?.getAttribute("aria-expanded") === "${on}"`,
  };
}

/** The controls measured (functions: the module's top-level await runs before later constants are set). */
function controls(): Control[] {
  return [
    {
      selector: "#label-column",
      act: async (page, on) => {
        const options = await page.locator("#label-column option").allTextContents();
        return page.selectOption("#label-column", { label: on ? (options[0] ?? "") : "Labels: off" }, { timeout: FRAME_LIMIT_MS });
      },
      answered: (on) => `document.querySelector(".labels")?.hidden === ${!on}`,
    },
    panelButton("filters-toggle"),
    panelButton("encodings-toggle"),
    panelButton("selection-table-toggle"),
  ];
}

/**
 * How long the controls take to answer while the pointer moves over the graph (hovering nodes): the labels control
 * (label-control.ts) switched off and on, and the Filters, Encodings and Table panels opened and closed, twice each,
 * from the action to its change seen in an animation frame (frames wait while the canvas is drawn). Median and slowest
 * of all; "n/a" on a page without the labels control (a build from before it).
 */
async function controlMs(page: Page): Promise<string> {
  if ((await page.locator("#label-column").count()) === 0) return "n/a";
  const times: number[] = [];
  let k = 0;
  for (const control of controls()) {
    if ((await page.locator(control.selector).count()) === 0) continue;
    // The labels start shown and the panels closed: off, on, off, on, or open, close, open, close.
    const labels = control.selector === "#label-column";
    for (const on of labels ? [false, true, false, true] : [true, false, true, false]) {
      k++;
      for (let step = 0; step < 4; step++) await page.mouse.move(460 + 40 * step + 7 * k, 380 + 20 * step);
      const start = performance.now();
      await control.act(page, on);
      await page.waitForFunction(control.answered(on), null, { polling: "raf", timeout: FRAME_LIMIT_MS });
      times.push(performance.now() - start);
      process.stderr.write(`${control.selector} ${on ? "on" : "off"} ${Math.round(performance.now() - start)} ms; `);
    }
  }
  times.sort((a, b) => a - b);
  return `${Math.round(times[times.length >> 1] ?? Number.NaN)} / ${Math.round(times[times.length - 1] ?? Number.NaN)}`;
}

/**
 * How long a click on a node takes to open the inspector with its fields (fetched from the server): the pointer looks
 * for a node near the middle until the hover ring shows, then clicks. "n/a" on a page without the ring (a build from
 * before it) or when no node was found.
 */
async function selectMs(page: Page): Promise<string> {
  if ((await page.locator(".hover-ring").count()) === 0) return "n/a";
  let at: [number, number] | undefined;
  for (let k = 0; k < 60 && !at; k++) {
    const angle = k * 0.7;
    const point: [number, number] = [640 + (4 + k * 3) * Math.cos(angle), 420 + (4 + k * 3) * Math.sin(angle)];
    await page.mouse.move(...point);
    if (await page.locator(".hover-ring").isVisible()) at = point;
  }
  if (!at) return "n/a";
  const start = performance.now();
  await page.mouse.click(...at);
  await page.waitForFunction(
    () => !document.getElementById("inspector")?.hidden && !!document.querySelector("#inspector-fields dt"),
    null,
    {
      polling: "raf",
      timeout: FRAME_LIMIT_MS,
    },
  );
  return Math.round(performance.now() - start).toLocaleString("en-US");
}

function printTable(header: string[], body: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padStart(widths[i] ?? 0)).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const row of body) console.log(line(row));
}
console.log(`\n${loadLine()}`);
