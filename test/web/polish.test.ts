// Polish of graph.html in Chromium: a normal visit logs no console error and no failed request (a session without a
// stored layout included), the page and the gateway have an icon, light and dark themes.
import { rm } from "node:fs/promises";
import type { Browser, Page } from "playwright-core";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEB_ROOT } from "../../src/server/services.ts";
import { createStaticHandler } from "../../src/server/static.ts";
import { CHROMIUM, chromiumAvailable, launchChromium } from "./harness/browser.ts";
import { smallGraphFixture } from "./harness/graph-fixture.ts";
import { buildPage } from "./harness/page-build.ts";
import { type PageServer, startPageServer } from "./harness/page-server.ts";
import { countDrawnPixels } from "./harness/pixels.ts";

const available = chromiumAvailable();
const title = available ? "graph.html polish in Chromium" : `graph.html polish in Chromium (skipped: no Chromium at ${CHROMIUM})`;

describe.skipIf(!available)(title, () => {
  let dist = "";
  let server: PageServer;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    dist = await buildPage();
    server = await startPageServer(dist, smallGraphFixture());
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`console: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("response", (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    page.on("requestfailed", (request) => problems.push(`failed: ${request.url()}`));
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dist) await rm(dist, { recursive: true, force: true });
  });

  const state = (name: string) => page.locator("html").getAttribute(name);
  const soon = { timeout: 60_000, interval: 200 };

  it("a first visit to a session without a stored layout logs no console error and no failed request", async () => {
    expect(server.fixture.layout).toBeUndefined();
    await page.goto(server.pageUrl);
    await expect.poll(() => state("data-layout-state"), soon).toBe("done");
    await expect.poll(() => state("data-graph-state"), soon).toBe("ready");
    // The page asked for the stored layout and was told there is none.
    expect(server.requests.some((path) => path === `/graph/data/${server.fixture.sessionId}/layout`)).toBe(true);
    expect(await state("data-layout")).toBe("server");
    expect(problems).toEqual([]);
  }, 120_000);

  it("has an icon of its own, served from the build", async () => {
    const href = await page.locator('link[rel="icon"]').getAttribute("href");
    expect(href).toMatch(/^\/graph\/assets\/favicon-.*\.svg$/);
    const icon = await page.request.get(new URL(href ?? "", server.origin).href);
    expect(icon.status()).toBe(200);
    expect(icon.headers()["content-type"]).toBe("image/svg+xml");
    expect(await icon.text()).toContain("<svg");
  });

  const focused = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.textContent || "");
  const helpOpen = () => page.locator("#help-overlay").evaluate((dialog) => (dialog as HTMLDialogElement).open);

  it("? opens a help overlay listing the page's shortcuts, focus inside; Escape closes it without clearing the selection", async () => {
    // A node selected through the search box: the inspector is open.
    await page.locator("#search").fill("zeta");
    await expect.poll(() => page.locator("#search-results [role=option]").first().textContent(), soon).toBe("Zeta Prime");
    await page.locator("#search").press("Enter");
    await expect.poll(() => page.locator("#inspector").isVisible(), soon).toBe(true);
    await page.locator("#fit").focus();
    expect(await helpOpen()).toBe(false);
    await page.keyboard.press("?");
    expect(await helpOpen()).toBe(true);
    expect(await page.locator("#help-overlay").isVisible()).toBe(true);
    expect(await page.locator("#help-overlay").getAttribute("aria-labelledby")).toBe("help-title");
    expect(await focused()).toBe("Close");
    const keys = await page.locator("#help-overlay dt").allTextContents();
    for (const key of ["?", "/", "f", "p", "Esc", "Enter", "↑ ↓", "PgUp PgDn"]) expect(keys).toContain(key);
    // Keys inside the overlay are its own: `f` or Escape do not reach the page.
    await page.keyboard.press("Escape");
    expect(await helpOpen()).toBe(false);
    expect(await page.locator("#inspector").isVisible()).toBe(true);
    expect(await focused()).toBe("fit");
    // The page's own Escape still clears the selection.
    await page.keyboard.press("Escape");
    await expect.poll(() => page.locator("#inspector").isVisible(), soon).toBe(false);
  });

  it("the top bar's ? button opens it too and gets focus back; typing ? in the search box types it", async () => {
    await page.locator("#help-button").click();
    expect(await helpOpen()).toBe(true);
    await page.locator("#help-overlay button", { hasText: "Close" }).click();
    expect(await helpOpen()).toBe(false);
    expect(await focused()).toBe("help-button");
    await page.locator("#search").fill("");
    await page.locator("#search").press("?");
    expect(await page.locator("#search").inputValue()).toBe("?");
    expect(await helpOpen()).toBe(false);
    await page.locator("#search").fill("");
    expect(problems).toEqual([]);
  });
});

describe.skipIf(!available)(`${title}: light and dark themes`, () => {
  let dist = "";
  let server: PageServer;
  let browser: Browser;
  const LIGHT: [number, number, number] = [0xf6, 0xf7, 0xf9];
  const DARK: [number, number, number] = [0x15, 0x18, 0x1d];
  const soon = { timeout: 60_000, interval: 200 };

  beforeAll(async () => {
    dist = await buildPage();
    server = await startPageServer(dist, smallGraphFixture());
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dist) await rm(dist, { recursive: true, force: true });
  });

  const open = async (colorScheme: "light" | "dark") => {
    const context = await browser.newContext({ colorScheme, viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.on("pageerror", (error) => console.error("page error:", error.message));
    await page.goto(server.pageUrl);
    await page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 60_000 });
    return { context, page };
  };
  const theme = (page: Page) => page.locator("html").getAttribute("data-theme");
  /** The color on screen at the window's left edge, halfway down: canvas background (the fit leaves a margin). */
  const backgroundPixel = async (page: Page): Promise<number[]> => {
    const image = PNG.sync.read(await page.screenshot({ clip: { x: 6, y: 400, width: 1, height: 1 } }));
    return [...image.data.subarray(0, 3)];
  };
  const near = (color: [number, number, number]) => (pixel: number[]) => pixel.every((c, i) => Math.abs(c - (color[i] ?? 0)) <= 3);

  it("follows the browser's light preference: canvas background, panels and labels light, the graph drawn on it", async () => {
    const { context, page } = await open("light");
    try {
      expect(await theme(page)).toBe("light");
      await expect.poll(async () => near(LIGHT)(await backgroundPixel(page)), soon).toBe(true);
      expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe("rgb(246, 247, 249)");
      // Labels: dark text on a light backing.
      await expect.poll(() => page.locator(".label").count(), soon).toBeGreaterThan(0);
      expect(
        await page
          .locator(".label")
          .first()
          .evaluate((label) => getComputedStyle(label).color),
      ).toBe("rgb(29, 35, 48)");
      await page.waitForTimeout(1_000);
      const png = await page.screenshot();
      expect(countDrawnPixels(png, LIGHT, { x: 340, y: 120, width: 600, height: 560 })).toBeGreaterThan(150);
    } finally {
      await context.close();
    }
  }, 120_000);

  it("the toggle switches the theme, canvas included, and the choice outlives a reload", async () => {
    const { context, page } = await open("light");
    try {
      const toggle = page.locator("#theme-toggle");
      expect(await toggle.getAttribute("aria-label")).toBe("Switch to the dark theme");
      await toggle.click();
      expect(await theme(page)).toBe("dark");
      await expect.poll(async () => near(DARK)(await backgroundPixel(page)), soon).toBe(true);
      expect(
        await page
          .locator(".label")
          .first()
          .evaluate((label) => getComputedStyle(label).color),
      ).toBe("rgb(230, 233, 239)");
      expect(await toggle.getAttribute("aria-label")).toBe("Switch to the light theme");
      expect(await page.evaluate(() => localStorage.getItem("graph-theme"))).toBe("dark");
      await page.reload();
      await page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 60_000 });
      expect(await theme(page)).toBe("dark");
      await expect.poll(async () => near(DARK)(await backgroundPixel(page)), soon).toBe(true);
      await page.locator("#theme-toggle").click();
      await expect.poll(async () => near(LIGHT)(await backgroundPixel(page)), soon).toBe(true);
    } finally {
      await context.close();
    }
  }, 120_000);

  it("without a stored choice, follows the preference when it changes", async () => {
    const { context, page } = await open("dark");
    try {
      expect(await theme(page)).toBe("dark");
      await expect.poll(async () => near(DARK)(await backgroundPixel(page)), soon).toBe(true);
      await page.emulateMedia({ colorScheme: "light" });
      await expect.poll(() => theme(page), soon).toBe("light");
      await expect.poll(async () => near(LIGHT)(await backgroundPixel(page)), soon).toBe(true);
    } finally {
      await context.close();
    }
  }, 120_000);
});

describe("the gateway's icon", () => {
  const serve = createStaticHandler(WEB_ROOT);

  it("answers /favicon.svg and /favicon.ico (asked for unprompted) with the SVG icon the landing page names", async () => {
    for (const path of ["/favicon.svg", "/favicon.ico"]) {
      const response = await serve(new Request(`http://gateway${path}`));
      expect(response?.status).toBe(200);
      expect(response?.headers.get("content-type")).toBe("image/svg+xml");
      expect(await response?.text()).toContain("<svg");
    }
    const landing = await (await serve(new Request("http://gateway/")))?.text();
    expect(landing).toContain('<link rel="icon" href="/favicon.svg" type="image/svg+xml">');
  });
});
