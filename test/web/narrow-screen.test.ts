// graph.html on a 375x667 phone screen in Chromium: the toolbar folds behind a Menu toggle, the panels become drawers
// over a bottom bar, one at a time, and no two visible boxes overlap or leave the window.
import { mkdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, chromiumAvailable, launchChromium } from "./harness/browser.ts";
import { smallGraphFixture, withLayout } from "./harness/graph-fixture.ts";
import { buildPage, REPO_ROOT } from "./harness/page-build.ts";
import { type PageServer, startPageServer } from "./harness/page-server.ts";

const available = chromiumAvailable();
const ARTIFACTS = join(REPO_ROOT, "test/web/artifacts");
const title = available ? "graph.html on a small screen" : `graph.html on a small screen (skipped: no Chromium at ${CHROMIUM})`;
const WIDTH = 375;
const HEIGHT = 667;

type Box = { name: string; x: number; y: number; width: number; height: number };

/** The boxes of the page's panels and bars that are shown now (rendered, not display:none). */
async function shownBoxes(page: Page): Promise<Box[]> {
  return await page.evaluate(() => {
    const selectors = [".topbar", "#drawer-bar", "#inspector", "#layout-panel", "#legend", "#collections", "#export-message"];
    const out: Box[] = [];
    for (const selector of selectors) {
      const element = document.querySelector<HTMLElement>(selector);
      if (!element || element.hidden || getComputedStyle(element).display === "none") continue;
      const r = element.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      out.push({ name: selector, x: r.x, y: r.y, width: r.width, height: r.height });
    }
    return out;
  });
}

function overlaps(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

function expectLaidOut(boxes: Box[]): void {
  for (const box of boxes) {
    expect(box.x, `${box.name} left`).toBeGreaterThanOrEqual(0);
    expect(box.y, `${box.name} top`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${box.name} right`).toBeLessThanOrEqual(WIDTH);
    expect(box.y + box.height, `${box.name} bottom`).toBeLessThanOrEqual(HEIGHT);
  }
  for (let i = 0; i < boxes.length; i++)
    for (let j = i + 1; j < boxes.length; j++)
      expect(overlaps(boxes[i] as Box, boxes[j] as Box), `${boxes[i]?.name} overlaps ${boxes[j]?.name}`).toBe(false);
}

describe.skipIf(!available)(title, () => {
  let dist = "";
  let server: PageServer;
  let browser: Browser;
  let page: Page;
  const fixture = withLayout(smallGraphFixture());

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    dist = await buildPage();
    server = await startPageServer(dist, fixture);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: WIDTH, height: HEIGHT }, hasTouch: true, isMobile: true });
    page.on("pageerror", (error) => console.error("page error:", error.message));
    await page.goto(server.pageUrl);
    await page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 60_000 });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    if (dist) await rm(dist, { recursive: true, force: true });
  });

  const soon = { timeout: 30_000, interval: 200 };
  const pressed = () => page.locator("#drawer-bar [aria-pressed=true]").allTextContents();

  it("the panels are drawers over a bottom bar: each opens alone, inside the window, overlapping nothing", async () => {
    await expect
      .poll(() => page.locator("#drawer-bar button:not([hidden])").allTextContents(), soon)
      .toEqual(expect.arrayContaining(["Layout", "Legend"]));
    expectLaidOut(await shownBoxes(page));
    for (const name of ["Layout", "Legend"]) {
      await page.locator("#drawer-bar button", { hasText: name }).tap();
      expect(await pressed()).toEqual([name]);
      const boxes = await shownBoxes(page);
      expect(boxes.map((b) => b.name)).toContain(name === "Layout" ? "#layout-panel" : "#legend");
      expect(boxes.map((b) => b.name)).not.toContain(name === "Layout" ? "#legend" : "#layout-panel");
      expectLaidOut(boxes);
    }
    await page.locator("#drawer-bar button", { hasText: "Legend" }).tap();
    expect(await pressed()).toEqual([]);
    expect((await shownBoxes(page)).map((b) => b.name).sort()).toEqual(["#drawer-bar", ".topbar"]);
  });

  it("the toolbar's buttons fold behind Menu; open, they sit inside the window", async () => {
    const fit = page.locator("#fit");
    expect(await fit.isVisible()).toBe(false);
    expect(await page.locator("#search").isVisible()).toBe(true);
    await page.locator("#tools-toggle").tap();
    await expect.poll(() => fit.isVisible(), soon).toBe(true);
    const buttons = await page.locator(".topbar button:visible").evaluateAll((items) =>
      items.map((item, k) => {
        const r = item.getBoundingClientRect();
        return { name: item.id || String(k), x: r.x, y: r.y, width: r.width, height: r.height };
      }),
    );
    expect(buttons.map((b) => b.name)).toEqual(expect.arrayContaining(["fit", "share-link", "export-png", "export-csv", "tools-toggle"]));
    expectLaidOut(buttons);
    expectLaidOut(await shownBoxes(page));
    await page.screenshot({ path: join(ARTIFACTS, "narrow-menu.png") });
    await fit.tap();
    await expect.poll(() => fit.isVisible(), soon).toBe(false);
  });

  it("choosing a search match opens the inspector as a drawer that overlaps nothing", async () => {
    await page.locator("#search").fill("Zeta");
    await page.locator("#search-results [role=option]").first().tap();
    await expect.poll(() => page.locator("#inspector").isVisible(), soon).toBe(true);
    expect(await pressed()).toEqual(["Details"]);
    const boxes = await shownBoxes(page);
    expect(boxes.map((b) => b.name)).toContain("#inspector");
    expectLaidOut(boxes);
    await page.screenshot({ path: join(ARTIFACTS, "narrow-inspector.png") });
    // Another drawer hides the inspector without closing it; Details brings it back.
    await page.locator("#drawer-bar button", { hasText: "Legend" }).tap();
    expect((await shownBoxes(page)).map((b) => b.name)).not.toContain("#inspector");
    expectLaidOut(await shownBoxes(page));
    await page.locator("#drawer-bar button", { hasText: "Details" }).tap();
    expect((await shownBoxes(page)).map((b) => b.name)).toContain("#inspector");
    // The selection table (from the menu) is a drawer too: it opens in the inspector's place.
    await page.locator("#tools-toggle").tap();
    await page.locator("#selection-table-toggle").tap();
    await expect.poll(() => page.locator("#selection-table tbody tr").count(), soon).toBeGreaterThan(1);
    expect(await pressed()).toEqual(["Table"]);
    const withTable = await shownBoxes(page);
    expect(withTable.map((b) => b.name)).not.toContain("#inspector");
    const table = await page.locator("#selection-table").boundingBox();
    expectLaidOut([...withTable, { name: "#selection-table", ...(table ?? { x: -1, y: -1, width: 0, height: 0 }) }]);
    await page.screenshot({ path: join(ARTIFACTS, "narrow-table.png") });
    // So are the Filters and Encodings panels.
    for (const [toggle, panel] of [
      ["#filters-toggle", "#filter-panel"],
      ["#encodings-toggle", "#encodings-panel"],
    ]) {
      await page.locator("#tools-toggle").tap();
      await page.locator(toggle as string).tap();
      await expect.poll(() => page.locator(panel as string).isVisible(), soon).toBe(true);
      const box = await page.locator(panel as string).boundingBox();
      const others = (await shownBoxes(page)).filter((b) => b.name !== "#inspector");
      expectLaidOut([...others, { name: panel as string, ...(box ?? { x: -1, y: -1, width: 0, height: 0 }) }]);
      await page.screenshot({ path: join(ARTIFACTS, `narrow-${(panel as string).slice(1)}.png`) });
    }
    await page.locator("#drawer-bar button", { hasText: "Details" }).tap();
  });

  /** The centre of a node on the screen, from its label's box (the label starts 4 px right of the node's disc). */
  const labelBox = (name: string) =>
    page.evaluate((name) => {
      const label = [...document.querySelectorAll<HTMLElement>("#labels .label")].find((l) => l.textContent === name);
      const r = label?.getBoundingClientRect();
      return r ? { left: r.left, y: r.top + r.height / 2 } : undefined;
    }, name);

  it("a tap selects the node under the finger, and a two-finger pinch zooms", async () => {
    await page.keyboard.press("Escape");
    await page.keyboard.press("f");
    await page.waitForTimeout(1_000);
    // A node with a standing label, low enough for the pinch above it to stay clear of the top bar.
    const name = await page.evaluate(() => {
      const labels = [...document.querySelectorAll<HTMLElement>("#labels .label")];
      const found = labels.find((l) => {
        const r = l.getBoundingClientRect();
        return r.top > 230 && r.top < 450 && r.left > 60;
      });
      return found?.textContent ?? "";
    });
    expect(name).not.toBe("");
    const { left, y } = (await labelBox(name)) ?? { left: 0, y: 0 };
    let selected = false;
    for (const offset of [6, 9, 12, 16]) {
      await page.touchscreen.tap(left - offset, y);
      await page.waitForTimeout(400);
      if ((await page.locator("#inspector").isVisible()) && (await page.locator("#inspector-title").textContent()) === name) {
        selected = true;
        break;
      }
    }
    expect(selected).toBe(true);
    // The inspector's drawer closes (the selection stays, and so does its label); the pinch is above the node.
    await page.locator("#drawer-bar button", { hasText: "Details" }).tap();
    const before = await labelBox(name);
    const centre = { x: WIDTH / 2, y: (before?.y ?? 300) - 60 };
    const distance = (box: { left: number; y: number } | undefined) => Math.hypot((box?.left ?? 0) - centre.x, (box?.y ?? 0) - centre.y);
    const cdp = await page.context().newCDPSession(page);
    const fingers = (spread: number) => [
      { x: centre.x - spread, y: centre.y, id: 1 },
      { x: centre.x + spread, y: centre.y, id: 2 },
    ];
    await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: fingers(20) });
    for (let spread = 25; spread <= 60; spread += 5) {
      await cdp.send("Input.dispatchTouchEvent", { type: "touchMove", touchPoints: fingers(spread) });
      await page.waitForTimeout(30);
    }
    await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
    await page.waitForTimeout(800);
    const after = await labelBox(name);
    // Fingers three times further apart: the node moves away from the pinch's centre (about threefold).
    expect(distance(after) / distance(before)).toBeGreaterThan(1.8);
    await page.screenshot({ path: join(ARTIFACTS, "narrow-pinch.png") });
  });
});
