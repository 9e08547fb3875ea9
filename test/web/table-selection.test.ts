// graph.html in Chromium: the Table button lists the selected node and its neighbours, one column per field the field
// filters show for some of them; clicking a header sorts by it, clicking it again sorts the other way.
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
const title = available ? "the selection table in Chromium" : `the selection table in Chromium (skipped: no Chromium at ${CHROMIUM})`;

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
  const column = (k: number) => page.locator(`#selection-table tbody tr td:nth-child(${k + 1})`).allTextContents();

  it("lists the selected node and its neighbours and sorts by a clicked header, both ways", async () => {
    // Zeta Prime (row 7) and its distinct neighbours, from the edge table (ids are 1000 + row).
    const zeta = 7;
    const edges = fixture.edges;
    const neighbours = new Set<number>();
    for (let k = 0; k < edges.numRows; k++) {
      const [s, d] = [Number(edges.getChild("src")?.get(k)) - 1000, Number(edges.getChild("dst")?.get(k)) - 1000];
      if (s === zeta && d !== zeta) neighbours.add(d);
      if (d === zeta && s !== zeta) neighbours.add(s);
    }
    const listed = [zeta, ...neighbours];
    const columns = ["label"];
    for (const i of listed)
      for (const f of inspectorFields(fixture.fieldFilters as FieldFilter[], "point", row(i))) if (!columns.includes(f)) columns.push(f);

    await page.locator("#search").fill("Zeta Prime");
    await page.locator("#search-results [role=option]").first().click();
    await expect.poll(() => page.locator("#inspector-title").textContent(), soon).toBe("Zeta Prime");
    await page.locator("#selection-table-toggle").click();
    await expect.poll(() => column(0), soon).toEqual(listed.map((i) => names[i]));
    expect(await page.locator("#selection-table th").allTextContents()).toEqual(columns);
    expect(await page.locator("#selection-table tr.is-selected td").first().textContent()).toBe("Zeta Prime");

    const k = columns.indexOf("score");
    expect(k).toBeGreaterThan(0);
    const byScore = [...listed].sort((a, b) => Number(row(a).score) - Number(row(b).score));
    await page.locator('#selection-table th button[data-column="score"]').click();
    expect(await column(0)).toEqual(byScore.map((i) => names[i]));
    expect(await column(k)).toEqual(byScore.map((i) => formatValue(row(i).score)));
    expect(await page.locator("#selection-table th").nth(k).getAttribute("aria-sort")).toBe("ascending");
    await page.locator('#selection-table th button[data-column="score"]').click();
    expect(await column(0)).toEqual([...byScore].reverse().map((i) => names[i]));
    expect(await page.locator("#selection-table th").nth(k).getAttribute("aria-sort")).toBe("descending");
    await page.screenshot({ path: join(ARTIFACTS, "selection-table.png") });
  });
});
