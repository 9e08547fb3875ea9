// A normal visit to graph.html on the real gateway, from the sign-in page to a laid-out graph: no console error, no
// failed request (the session has no stored layout at first: 204, not 404), and the landing page's icon is there.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../helpers/server-process.ts";
import { CHROMIUM, chromiumAvailable } from "./harness/browser.ts";
import { ADMIN } from "./harness/gateway-session.ts";
import { type PageGateway, startPageGateway } from "./harness/page-gateway.ts";

const available = chromiumAvailable();
const title = available ? "a normal visit on the gateway" : `a normal visit on the gateway (skipped: no Chromium at ${CHROMIUM})`;

describe.skipIf(!available)(title, () => {
  let world: PageGateway | undefined;
  let server: ServerProcess;
  let browser: Browser;
  let datasetId = "";

  beforeAll(async () => {
    world = await startPageGateway("polish-gateway");
    ({ server, browser, datasetId } = world);
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  it("signs in, draws the server's layout, and logs no console error or failed request on the way", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const problems: string[] = [];
    const layoutAnswers: number[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`console: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
    page.on("response", (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
      if (/\/graph\/data\/\w+\/layout$/.test(new URL(response.url()).pathname)) layoutAnswers.push(response.status());
    });
    page.on("requestfailed", (request) => problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`));

    await page.goto(`${server.url}/graph/graph.html?dataset=${datasetId}`);
    await page.fill("#username", ADMIN.username);
    await page.fill("#password", ADMIN.password);
    await page.click("button[type=submit]");
    await page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 60_000 });
    await expect
      .poll(() => page.evaluate(() => document.documentElement.dataset.layoutState), { timeout: 60_000, interval: 200 })
      .toBe("done");
    // The first view asked for a stored layout, and there was none.
    expect(layoutAnswers[0]).toBe(204);
    const icon = await page.request.get(`${server.url}/favicon.ico`);
    expect(icon.status()).toBe(200);
    expect(icon.headers()["content-type"]).toBe("image/svg+xml");
    await page.goto(`${server.url}/`);
    expect(await page.locator('link[rel="icon"]').getAttribute("href")).toBe("/favicon.svg");
    expect(problems).toEqual([]);
    await page.close();
  }, 120_000);
});
