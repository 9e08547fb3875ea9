// Polish of graph.html in Chromium: a normal visit logs no console error and no failed request (a session without a
// stored layout included), the page and the gateway have an icon.
import { rm } from "node:fs/promises";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WEB_ROOT } from "../../src/server/services.ts";
import { createStaticHandler } from "../../src/server/static.ts";
import { CHROMIUM, chromiumAvailable, launchChromium } from "./harness/browser.ts";
import { smallGraphFixture } from "./harness/graph-fixture.ts";
import { buildPage } from "./harness/page-build.ts";
import { type PageServer, startPageServer } from "./harness/page-server.ts";

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
