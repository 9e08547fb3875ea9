// graph.html on software WebGL (headless Chromium's SwiftShader, as on a machine without a GPU): a graph big enough
// for its frames to cost is drawn without multisampling (graph-device.ts) and with the circle point shader
// (scripts/cosmos-shaders.ts), and costly frames wait while the pointer moves over the page's controls
// (render-governor.ts), so a control is not answered behind a frame.
import { rm } from "node:fs/promises";
import type { Browser, Page } from "playwright-core";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, chromiumAvailable, launchChromium } from "./harness/browser.ts";
import { type GraphFixture, randomGraphFixture, smallGraphFixture, withLayout } from "./harness/graph-fixture.ts";
import type { LayoutJobOptions } from "./harness/layout-job-fixture.ts";
import { buildPage } from "./harness/page-build.ts";
import { type PageServer, startPageServer } from "./harness/page-server.ts";

const available = chromiumAvailable();
const title = available ? "software WebGL frames in Chromium" : `software WebGL frames (skipped: no Chromium at ${CHROMIUM})`;

describe.skipIf(!available)(title, () => {
  let dist = "";
  let browser: Browser;
  const opened: { page: Page; server: PageServer }[] = [];

  beforeAll(async () => {
    dist = await buildPage();
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    for (const { page, server } of opened) {
      await page.close().catch(() => undefined);
      await server.close();
    }
    await browser?.close();
    if (dist) await rm(dist, { recursive: true, force: true });
  });

  /** Opens the page on a fixture; answers it with the console's warnings and errors as they come. */
  const open = async (fixture: GraphFixture, layout?: LayoutJobOptions) => {
    const server = await startPageServer(dist, fixture, layout);
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    opened.push({ page, server });
    const problems: string[] = [];
    page.on("console", (message) => {
      // Chromium's own note on reading a software-drawn canvas back to show it is not the page's.
      if (message.text().includes("GPU stall due to ReadPixels")) return;
      if (message.type() === "error" || message.type() === "warning") problems.push(`${message.type()}: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    await page.goto(server.pageUrl);
    await page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 60_000 });
    return { page, problems };
  };

  const antialias = (page: Page) =>
    page.evaluate(
      () => document.querySelector<HTMLCanvasElement>("#graph canvas")?.getContext("webgl2")?.getContextAttributes()?.antialias,
    );
  const renders = async (page: Page) => Number(await page.locator("html").getAttribute("data-graph-renders"));
  const frameMs = async (page: Page) => Number(await page.locator("html").getAttribute("data-graph-frame-ms"));

  it("draws a 20k-edge graph without multisampling: its nodes show, and nothing is logged", async () => {
    const { page, problems } = await open(randomGraphFixture(20_000, true));
    expect(await antialias(page)).toBe(false);
    await page.waitForTimeout(500);
    // The nodes are drawn: the canvas holds thousands of pixels brighter than the dark background.
    const shot = PNG.sync.read(await page.locator("#graph canvas").screenshot());
    let lit = 0;
    for (let i = 0; i < shot.data.length; i += 4) {
      if ((shot.data[i] ?? 0) + (shot.data[i + 1] ?? 0) + (shot.data[i + 2] ?? 0) > 200) lit++;
    }
    expect(lit).toBeGreaterThan(5_000);
    expect(problems).toEqual([]);
  }, 120_000);

  it("keeps multisampling for a small graph, whose frames are cheap anyway", async () => {
    const { page, problems } = await open(withLayout(smallGraphFixture()));
    expect(await antialias(page)).toBe(true);
    expect(problems).toEqual([]);
  }, 120_000);

  it("holds costly frames while the pointer moves over the controls, and draws again once it stops", async () => {
    // 100k nodes whose positions stream in: every frame is costly in software WebGL.
    const { page } = await open(randomGraphFixture(200_000, false), { frameMs: 100, maxIter: 100_000, step: 1 });
    await expect.poll(() => frameMs(page), { timeout: 30_000, interval: 200 }).toBeGreaterThan(120);
    // The pointer moving over the Filters button, every 50 ms: moved from inside the page, so a loaded machine's
    // delays between the test and the browser cannot leave gaps in the movement.
    const reach = (ms: number) =>
      page.evaluate(
        (ms) =>
          new Promise<void>((resolve) => {
            const button = document.getElementById("filters-toggle");
            const timer = window.setInterval(() => button?.dispatchEvent(new PointerEvent("pointermove", { bubbles: true })), 50);
            window.setTimeout(() => {
              window.clearInterval(timer);
              resolve();
            }, ms);
          }),
        ms,
      );
    // A frame already under way finishes; none starts after it while the pointer keeps moving over the controls.
    await reach(1_500);
    const held = await renders(page);
    await reach(1_500);
    expect(await renders(page)).toBe(held);
    // The layout's frames are drawn again once the pointer rests.
    await expect.poll(() => renders(page), { timeout: 10_000, interval: 100 }).toBeGreaterThan(held);
  }, 120_000);
});
