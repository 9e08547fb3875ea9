// bench/viz: graph.html in headless Chromium with software WebGL: time from navigation to the first drawn frame, and
// frames per second while panning, for random graphs of 10k, 100k and 1M edges (served by the page's test harness).
// Run: node bench/viz.ts [edges,...] [--renderer=swiftshader|llvmpipe] [--pan-seconds=5] [--simulate]

import { rm } from "node:fs/promises";
import os from "node:os";
import type { Page } from "playwright-core";
import { CHROMIUM, chromiumAvailable, launchChromium, type Renderer } from "../test/web/harness/browser.ts";
import { randomGraphFixture } from "../test/web/harness/graph-fixture.ts";
import { buildPage } from "../test/web/harness/page-build.ts";
import { startPageServer } from "../test/web/harness/page-server.ts";

const args = process.argv.slice(2);
const option = (name: string) => args.find((arg) => arg.startsWith(`--${name}=`))?.split("=")[1];
const sizes = (args.find((arg) => !arg.startsWith("--")) ?? "10000,100000,1000000").split(",").map(Number);
const renderer = (option("renderer") ?? "swiftshader") as Renderer;
const panSeconds = Number(option("pan-seconds") ?? 5);
const simulate = args.includes("--simulate");
/** Frames to count while panning, at least, however slow they are. */
const MIN_FRAMES = 3;
const FRAME_LIMIT_MS = 15 * 60_000;

if (!chromiumAvailable()) {
  console.error(`bench/viz needs Chromium at ${CHROMIUM} (apt-get install chromium)`);
  process.exit(1);
}

const dist = await buildPage();
const browser = await launchChromium(renderer);
const rows: string[][] = [];
try {
  for (const edges of sizes) rows.push(await measure(edges));
} finally {
  await browser.close();
  await rm(dist, { recursive: true, force: true });
}

const rendererName = renderer === "swiftshader" ? "SwiftShader (ANGLE)" : "Mesa llvmpipe (ANGLE over EGL)";
console.log(
  `\ngraph.html in headless Chromium ${browser.version()} with software WebGL: ${rendererName}, on ${os.cpus().length} CPU cores ` +
    `(${os.cpus()[0]?.model ?? "unknown CPU"}), no GPU. Viewport 1280x800.`,
);
console.log(
  simulate
    ? "Layout: none stored, so the GPU force layout runs (panning pauses it)."
    : "Layout: stored in the session, as on a reload (no simulation); nodes = edges / 2, 20 color categories, sized nodes.",
);
console.log("Software frame rates are for comparing builds only; a laptop GPU is orders of magnitude faster.\n");
printTable(["edges", "nodes", "data loaded (ms)", "first frame (ms)", "pan fps", "frames counted"], rows);

async function measure(edges: number): Promise<string[]> {
  const fixture = randomGraphFixture(edges, !simulate);
  const server = await startPageServer(dist, fixture);
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
  page.on("pageerror", (error) => console.error(`page error at ${edges} edges:`, error.message));
  try {
    process.stderr.write(`${edges} edges: loading… `);
    await page.goto(server.pageUrl);
    await page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, {
      timeout: FRAME_LIMIT_MS,
      polling: 250,
    });
    const marks = await page.evaluate(() => ({
      data: performance.getEntriesByName("graph-data-loaded")[0]?.startTime ?? Number.NaN,
      frame: performance.getEntriesByName("graph-first-frame")[0]?.startTime ?? Number.NaN,
    }));
    process.stderr.write(`first frame at ${Math.round(marks.frame)} ms; panning… `);
    const pan = await panFps(page);
    process.stderr.write(`${pan.fps.toFixed(2)} fps\n`);
    return [
      edges.toLocaleString("en-US"),
      fixture.nodes.numRows.toLocaleString("en-US"),
      Math.round(marks.data).toLocaleString("en-US"),
      Math.round(marks.frame).toLocaleString("en-US"),
      pan.fps < 1 ? pan.fps.toFixed(3) : pan.fps.toFixed(1),
      String(pan.frames),
    ];
  } finally {
    await page.close();
    await server.close();
  }
}

/** Drags the canvas back and forth; frames are counted in the page (cosmos.gl draws once per animation frame). */
async function panFps(page: Page): Promise<{ fps: number; frames: number }> {
  await page.evaluate(() => {
    const counter = { frames: 0 };
    (window as unknown as { benchFrames: typeof counter }).benchFrames = counter;
    const tick = () => {
      counter.frames++;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
  const frames = () => page.evaluate(() => (window as unknown as { benchFrames: { frames: number } }).benchFrames.frames);
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

function printTable(header: string[], body: string[][]): void {
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((row) => (row[i] ?? "").length)));
  const line = (cells: string[]) => `| ${cells.map((cell, i) => cell.padStart(widths[i] ?? 0)).join(" | ")} |`;
  console.log(line(header));
  console.log(`|${widths.map((w) => "-".repeat(w + 2)).join("|")}|`);
  for (const row of body) console.log(line(row));
}
