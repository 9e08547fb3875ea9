// graph.html's share and export buttons in Chromium against the harness: the copied link opens the same session in
// another browser context, "PNG" downloads the view (canvas and labels), "CSV" the selection or the whole graph with
// the fields the inspector lists, and a failing route says why.
import { mkdirSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { PNG } from "pngjs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, chromiumAvailable, launchChromium } from "./harness/browser.ts";
import { smallGraphFixture } from "./harness/graph-fixture.ts";
import { buildPage, REPO_ROOT } from "./harness/page-build.ts";
import { type PageServer, startPageServer } from "./harness/page-server.ts";
import { countDrawnPixels } from "./harness/pixels.ts";

const available = chromiumAvailable();
const title = available ? "share and export in Chromium" : `share and export in Chromium (skipped: no Chromium at ${CHROMIUM})`;

/** Pixels of a PNG that differ from its top-left pixel (the canvas's background, whatever the theme). */
function drawnPixels(png: Buffer): number {
  const image = PNG.sync.read(png);
  return countDrawnPixels(png, [image.data[0] ?? 0, image.data[1] ?? 0, image.data[2] ?? 0]);
}

describe.skipIf(!available)(title, () => {
  let dist = "";
  let server: PageServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const soon = { timeout: 30_000, interval: 200 };

  beforeAll(async () => {
    mkdirSync(join(REPO_ROOT, "test/web/artifacts"), { recursive: true });
    dist = await buildPage();
    const fixture = smallGraphFixture();
    // A stored layout: the page draws at once, no layout job needed.
    const count = fixture.nodes.numRows;
    fixture.layout = new Float32Array(count * 2);
    for (let i = 0; i < count; i++) {
      fixture.layout[i * 2] = 100 * Math.cos((i / count) * Math.PI * 2);
      fixture.layout[i * 2 + 1] = 100 * Math.sin((i / count) * Math.PI * 2);
    }
    server = await startPageServer(dist, fixture);
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1000, height: 700 }, acceptDownloads: true });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.origin });
    page = await context.newPage();
    page.on("pageerror", (error) => console.error("page error:", error.message));
    // Other parameters and a fragment, which the shared link leaves out.
    await page.goto(`${server.pageUrl}&showCollections=false#somewhere`);
    await page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 60_000 });
    await page.waitForFunction(() => document.documentElement.dataset.graphState === "ready", null, { timeout: 60_000 });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dist) await rm(dist, { recursive: true, force: true });
  });

  const message = () => page.locator("#export-message").textContent();
  const downloaded = async (button: string) => {
    const [download] = await Promise.all([page.waitForEvent("download", { timeout: 60_000 }), page.locator(button).click()]);
    const path = await download.path();
    return { name: download.suggestedFilename(), bytes: await readFile(path) };
  };

  it("Share copies the session's link (from the keyboard), and another browser opening it joins the same session", async () => {
    await page.locator("#share-link").focus();
    await page.keyboard.press("Enter");
    await expect.poll(message, soon).toContain("Link copied");
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toBe(`${server.origin}/graph/graph.html?dataset=dataset-small&session=session-small`);

    const other = await browser.newContext({ viewport: { width: 800, height: 600 } });
    try {
      const second = await other.newPage();
      const before = server.requests.length;
      await second.goto(link);
      await expect.poll(() => second.locator("html").getAttribute("data-graph-state"), soon).toBe("ready");
      expect(await second.locator("#dataset-name").textContent()).toBe("Harness graph");
      expect(server.requests.slice(before)).toContain("/graph/data/session-small/layout");
    } finally {
      await other.close();
    }
  }, 120_000);

  it("Share copies without the Clipboard API too (a page served over plain HTTP has none)", async () => {
    await page.evaluate(() => navigator.clipboard.writeText("something else"));
    await page.evaluate(() => {
      const api = navigator.clipboard;
      (window as unknown as { savedClipboard: Clipboard }).savedClipboard = api;
      Object.defineProperty(navigator, "clipboard", { value: undefined, configurable: true });
    });
    try {
      await page.locator("#share-link").click();
      await expect.poll(message, soon).toContain("Link copied");
      const link = await page.evaluate(() => (window as unknown as { savedClipboard: Clipboard }).savedClipboard.readText());
      expect(link).toBe(`${server.origin}/graph/graph.html?dataset=dataset-small&session=session-small`);
    } finally {
      await page.evaluate(() =>
        Object.defineProperty(navigator, "clipboard", {
          value: (window as unknown as { savedClipboard: Clipboard }).savedClipboard,
          configurable: true,
        }),
      );
    }
  }, 60_000);

  it("PNG downloads the view as graph.png: the canvas's size, the drawn graph, and the labels over it", async () => {
    const size = await page.evaluate(() => {
      const canvas = document.querySelector("#graph canvas") as HTMLCanvasElement;
      return [canvas.width, canvas.height];
    });
    // Without the labels first: what is drawn then comes from the WebGL canvas.
    await page.addStyleTag({ content: ".labels { display: none !important; }" });
    const bare = await downloaded("#export-png");
    expect(bare.name).toBe("graph.png");
    expect([...bare.bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    expect([bare.bytes.readUInt32BE(16), bare.bytes.readUInt32BE(20)]).toEqual(size);
    const graphOnly = drawnPixels(bare.bytes);
    expect(graphOnly).toBeGreaterThan(150);

    await page.evaluate(() => {
      for (const style of document.querySelectorAll("style")) if (style.textContent?.includes(".labels { display: none")) style.remove();
    });
    await expect.poll(() => page.locator(".label").first().isVisible(), soon).toBe(true);
    const labelled = await downloaded("#export-png");
    expect(drawnPixels(labelled.bytes)).toBeGreaterThan(graphOnly + 100);
    await expect.poll(message, soon).toBe("Saved graph.png.");
  }, 120_000);

  it("CSV with nothing selected: every node and drawn edge, with only the fields the filters show", async () => {
    const { name, bytes } = await downloaded("#export-csv");
    expect(name).toBe("graph.csv");
    const lines = bytes.toString("utf8").trimEnd().split("\r\n");
    // Node columns in table order (id and secret filtered out; ip shown for servers), then the edge's (internal_id excluded).
    expect(lines[0]).toBe("kind,name,type,group,score,ip,note,src,dst,weight");
    expect(lines.filter((line) => line.startsWith("node,"))).toHaveLength(36);
    expect(lines.filter((line) => line.startsWith("edge,"))).toHaveLength(44);
    expect(lines).toContain("node,Zeta Prime,person,blue team,5.9,,note 7,,,");
    // A server lists only what its type's rules name (name and ip), as its inspector does.
    expect(lines).toContain("node,srv-5,,,,10.0.0.5,,,,");
    expect(lines).toContain("edge,,,,,,,1007,1010,3");
    expect(bytes.toString("utf8")).not.toMatch(/s3cr3t|edge-\d|cross-\d/);
    await expect.poll(message, soon).toBe("Saved graph.csv: the graph, 36 nodes and 44 edges.");
  }, 60_000);

  it("CSV with a node selected: the node and its edges", async () => {
    await page.locator("#search").fill("zeta");
    await page.locator("#search").press("Enter");
    await expect.poll(() => page.locator("#inspector-title").textContent(), soon).toBe("Zeta Prime");
    const lines = (await downloaded("#export-csv")).bytes.toString("utf8").trimEnd().split("\r\n");
    expect(lines[0]).toBe("kind,name,type,group,score,note,src,dst,weight");
    expect(lines.slice(1).sort()).toEqual([
      "edge,,,,,,1004,1007,5",
      "edge,,,,,,1007,1010,3",
      "node,Zeta Prime,person,blue team,5.9,note 7,,,",
    ]);
    await page.locator("#inspector-close").click();
    await expect.poll(() => page.locator("#inspector").isVisible(), soon).toBe(false);
  }, 60_000);

  it("a failing data route says why, in an alert-coloured note", async () => {
    await page.route("**/nodes.arrow?*", (route) => route.fulfill({ status: 500, body: "broken" }));
    try {
      await page.locator("#export-csv").click();
      await expect.poll(message, soon).toBe("Export CSV failed: nodes columns: the server answered 500");
      expect(await page.locator("#export-message").getAttribute("class")).toContain("is-error");
      expect(await page.locator("#export-message").getAttribute("role")).toBe("alert");
      await page.screenshot({ path: join(REPO_ROOT, "test/web/artifacts/export-error.png"), timeout: 60_000 });
    } finally {
      await page.unroute("**/nodes.arrow?*");
    }
  }, 60_000);
});
