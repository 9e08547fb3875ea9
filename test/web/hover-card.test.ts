// graph.html in Chromium: hovering a node shows a card with its label and its first fields, those the field filters
// let the inspector show; the row is fetched once through the row route and read from a cache on the next hover.
import { mkdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FieldFilter } from "../../src/datasets/encodings/types.ts";
import { inspectorFields } from "../../web/src/field-visibility.ts";
import { formatValue } from "../../web/src/node-text.ts";
import { CHROMIUM, chromiumAvailable, launchChromium } from "./harness/browser.ts";
import { smallGraphFixture, withLayout } from "./harness/graph-fixture.ts";
import { buildPage, REPO_ROOT } from "./harness/page-build.ts";
import { type PageServer, startPageServer } from "./harness/page-server.ts";

const available = chromiumAvailable();
const ARTIFACTS = join(REPO_ROOT, "test/web/artifacts");
const title = available ? "hover cards in Chromium" : `hover cards in Chromium (skipped: no Chromium at ${CHROMIUM})`;

describe.skipIf(!available)(title, () => {
  let dist = "";
  let server: PageServer;
  let browser: Browser;
  let page: Page;
  const fixture = withLayout(smallGraphFixture());
  const nodes = fixture.nodes;
  const names = (nodes.getChild("name")?.toArray() ?? []) as string[];
  const row = (i: number) => Object.fromEntries(nodes.schema.fields.map((field) => [field.name, nodes.getChild(field.name)?.get(i)]));

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    dist = await buildPage();
    server = await startPageServer(dist, fixture);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
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

  /** Moves the mouse onto the node whose standing label is `name` (the label starts 4 px right of its disc). */
  const hover = async (name: string) => {
    const box = await page.evaluate((name) => {
      const label = [...document.querySelectorAll<HTMLElement>("#labels .label")].find((l) => l.textContent === name);
      const r = label?.getBoundingClientRect();
      return r ? { left: r.left, y: r.top + r.height / 2 } : undefined;
    }, name);
    expect(box).toBeDefined();
    for (const offset of [6, 9, 12, 16]) {
      await page.mouse.move((box?.left ?? 0) - offset, box?.y ?? 0, { steps: 2 });
      await page.waitForTimeout(300);
      if ((await page.locator("#hover-card").isVisible()) && (await page.locator(".hover-card-title").textContent()) === name) return;
    }
    throw new Error(`no hover card for ${name}`);
  };

  it("hovering a node shows its label and first shown fields; the row is fetched once", async () => {
    const name = await page.evaluate(() => document.querySelector<HTMLElement>("#labels .label")?.textContent ?? "");
    const index = names.indexOf(name);
    expect(index).toBeGreaterThanOrEqual(0);
    const values = row(index);
    const shown = inspectorFields(fixture.fieldFilters as FieldFilter[], "point", values).slice(0, 4);
    // The fixture's filters hide some of this node's fields, so the card's list is not simply the first four columns.
    expect(shown).not.toEqual(nodes.schema.fields.map((f) => f.name).slice(0, 4));
    await hover(name);
    await expect.poll(() => page.locator(".hover-card-fields dt").allTextContents(), soon).toEqual(shown);
    expect(await page.locator(".hover-card-fields dd").allTextContents()).toEqual(shown.map((f) => formatValue(values[f])));
    await page.screenshot({ path: join(ARTIFACTS, "hover-card.png") });
    const fetched = () => server.requests.filter((r) => r.endsWith(`/nodes/row/${index}`)).length;
    expect(fetched()).toBe(1);
    await page.mouse.move(5, 790, { steps: 2 });
    await expect.poll(() => page.locator("#hover-card").isVisible(), soon).toBe(false);
    await hover(name);
    expect(await page.locator(".hover-card-fields dt").allTextContents()).toEqual(shown);
    expect(fetched()).toBe(1);
  });
});
