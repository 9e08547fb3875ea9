// Share and CSV export against the real gateway: the owner's copied link opens the same session for another user,
// and CSV reads the real data routes (Arrow with every column, and single rows for a selection).
import { readFile } from "node:fs/promises";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../helpers/server-process.ts";
import { CHROMIUM, chromiumAvailable } from "./harness/browser.ts";
import { ADMIN, shareWith, signIn } from "./harness/gateway-session.ts";
import { type PageGateway, startPageGateway } from "./harness/page-gateway.ts";

const available = chromiumAvailable();
const title = available ? "share and CSV on the real gateway" : `share and CSV on the real gateway (skipped: no Chromium at ${CHROMIUM})`;

describe.skipIf(!available)(title, () => {
  let world: PageGateway | undefined;
  let server: ServerProcess;
  let browser: Browser;
  let datasetId = "";
  const soon = { timeout: 30_000, interval: 200 };

  beforeAll(async () => {
    world = await startPageGateway("export-gateway");
    ({ server, browser, datasetId } = world);
    await shareWith(server.url, datasetId, "bob", "bob-password");
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  const firstFrame = (page: Page) =>
    page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 60_000 });
  const csvOf = async (page: Page) => {
    const [download] = await Promise.all([page.waitForEvent("download", { timeout: 60_000 }), page.locator("#export-csv").click()]);
    expect(download.suggestedFilename()).toBe("graph.csv");
    return (await readFile(await download.path())).toString("utf8").trimEnd().split("\r\n");
  };

  it("the owner's shared link opens the same session for another user, whose CSV lists the graph and then a selection", async () => {
    const owner = await signIn(browser, server.url, ADMIN.username, ADMIN.password);
    await owner.context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: server.url });
    await owner.page.goto(`${server.url}/graph/graph.html?dataset=${datasetId}`);
    await firstFrame(owner.page);
    const sessionId = new URL(owner.page.url()).searchParams.get("session") ?? "";
    expect(sessionId).toMatch(/\w+/);
    await owner.page.locator("#share-link").focus();
    await owner.page.keyboard.press("Enter");
    await expect.poll(() => owner.page.locator("#export-message").textContent(), soon).toContain("Link copied");
    const link = await owner.page.evaluate(() => navigator.clipboard.readText());
    expect(link).toBe(`${server.url}/graph/graph.html?dataset=${datasetId}&session=${sessionId}`);

    const viewer = await signIn(browser, server.url, "bob", "bob-password");
    viewer.page.on("pageerror", (error) => console.error("viewer page error:", error.message));
    await viewer.page.goto(link);
    await firstFrame(viewer.page);
    expect(new URL(viewer.page.url()).searchParams.get("session")).toBe(sessionId);
    expect(await viewer.page.locator("#dataset-name").textContent()).toBe("Gateway graph");

    // The node table has a field named kind: the entity column is _kind. `hidden` and the edges' `secret` are filtered out.
    const all = await csvOf(viewer.page);
    expect(all[0]).toBe("_kind,label,kind,score,s,d,ecolor");
    expect(all.filter((line) => line.startsWith("node,"))).toHaveLength(30);
    expect(all.filter((line) => line.startsWith("edge,"))).toHaveLength(30);
    expect(all).toContain("node,NODE-7,b,7,,,");
    expect(all).toContain("edge,,,,node-7,node-8,#ff8800");
    expect(all.join("\n")).not.toMatch(/not listed|x\d/);

    await viewer.page.locator("#search").fill("NODE-7");
    await viewer.page.locator("#search").press("Enter");
    await expect.poll(() => viewer.page.locator("#inspector-title").textContent(), soon).toBe("NODE-7");
    const selected = await csvOf(viewer.page);
    expect(selected[0]).toBe("_kind,label,kind,score,s,d,ecolor");
    expect(selected.slice(1).sort()).toEqual(["edge,,,,node-6,node-7,#00aaff", "edge,,,,node-7,node-8,#ff8800", "node,NODE-7,b,7,,,"]);
    await owner.context.close();
    await viewer.context.close();
  }, 240_000);
});
