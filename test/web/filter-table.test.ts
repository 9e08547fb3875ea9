// The filter table and the CSV exports that follow the filters, in Chromium (harness): with a range filter set in the
// Filters panel, the table lists exactly the nodes (and edges) that pass, sorts them by any column both ways, shows a
// field only where the field filters show it, and downloads its rows in its order; the toolbar's CSV with nothing
// selected downloads the filtered nodes and edges; the selection table downloads its rows. A bigger graph pages.
import { mkdirSync } from "node:fs";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, chromiumAvailable, launchChromium } from "./harness/browser.ts";
import { randomGraphFixture, smallGraphFixture, withLayout } from "./harness/graph-fixture.ts";
import { buildPage, REPO_ROOT } from "./harness/page-build.ts";
import { type PageServer, startPageServer } from "./harness/page-server.ts";

const available = chromiumAvailable();
const ARTIFACTS = join(REPO_ROOT, "test/web/artifacts");
const title = available ? "the filter table and filtered CSV in Chromium" : `the filter table (skipped: no Chromium at ${CHROMIUM})`;
const soon = { timeout: 30_000, interval: 200 };

/** RFC 4180 rows (quoted cells with doubled quotes, CRLF line ends) as arrays of cells. */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      row.push(cell);
      cell = "";
    } else if (c === "\r" && text[i + 1] === "\n") {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = "";
      i++;
    } else cell += c;
  }
  if (cell !== "" || row.length > 0) rows.push([...row, cell]);
  return rows;
}

async function openPage(browser: Browser, server: PageServer): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true });
  const page = await context.newPage();
  page.on("pageerror", (error) => console.error("page error:", error.message));
  await page.goto(server.pageUrl);
  await page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 120_000 });
  return page;
}

async function downloaded(page: Page, button: string): Promise<{ name: string; rows: string[][] }> {
  const [download] = await Promise.all([page.waitForEvent("download", { timeout: 60_000 }), page.locator(button).click()]);
  const text = (await readFile(await download.path())).toString("utf8");
  return { name: download.suggestedFilename(), rows: parseCsv(text) };
}

describe.skipIf(!available)(title, () => {
  let dist = "";
  let browser: Browser;
  const servers: PageServer[] = [];

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    dist = await buildPage();
    browser = await launchChromium();
  }, 300_000);

  afterAll(async () => {
    await browser?.close();
    for (const server of servers) await server.close();
    if (dist) await rm(dist, { recursive: true, force: true });
  });

  describe("with a score filter on the small graph", () => {
    const fixture = withLayout(smallGraphFixture());
    const column = (table: "nodes" | "edges", name: string) =>
      Array.from((fixture[table].getChild(name)?.toArray() ?? []) as ArrayLike<unknown>);
    const names = column("nodes", "name") as string[];
    const scores = column("nodes", "score") as number[];
    const types = column("nodes", "type") as string[];
    const ids = column("nodes", "id") as number[];
    const sources = column("edges", "src") as number[];
    const destinations = column("edges", "dst") as number[];
    const weights = column("edges", "weight") as number[];
    const passes = (row: number) => (scores[row] ?? 0) >= 5;
    const passingNodes = names.map((_n, row) => row).filter(passes);
    const passingEdges = sources
      .map((_s, k) => k)
      .filter((k) => passes(ids.indexOf(sources[k] ?? -1)) && passes(ids.indexOf(destinations[k] ?? -1)));
    let page: Page;
    const cells = (k: number) => page.locator(`#filter-table tbody tr td:nth-child(${k + 1})`).allTextContents();

    beforeAll(async () => {
      const server = await startPageServer(dist, fixture);
      servers.push(server);
      page = await openPage(browser, server);
      await page.locator("#filters-toggle").click();
      const min = page.locator('#filter-panel .filter-column[data-column="score"] .filter-min');
      await min.fill("5");
      await min.press("Enter");
      await min.blur();
      await page.waitForFunction(
        (hidden) => document.documentElement.dataset.filterHiddenNodes === hidden,
        String(names.length - passingNodes.length),
        { timeout: 30_000 },
      );
    }, 180_000);

    it("lists exactly the nodes that pass, sorts by any column both ways, and shows fields as the field filters do", async () => {
      expect(passingNodes.length).toBeGreaterThan(5);
      expect(passingNodes.length).toBeLessThan(names.length);
      await page.locator("#filter-table-toggle").click();
      await expect.poll(() => page.locator("#filter-table").getAttribute("data-rows"), soon).toBe(String(passingNodes.length));
      expect(await page.locator("#filter-table .filter-table-caption").textContent()).toBe(
        `${passingNodes.length} of ${names.length} nodes pass the filters`,
      );
      const headers = await page.locator("#filter-table th").allTextContents();
      expect(headers).toEqual(["label", "name", "type", "group", "score", "ip", "note"]);
      expect((await cells(0)).sort()).toEqual(passingNodes.map((row) => names[row]).sort());

      // A server's score is hidden by the field filters: an empty cell, listed last either way.
      const people = passingNodes.filter((row) => types[row] !== "server");
      const servers = passingNodes.length - people.length;
      expect(servers).toBeGreaterThan(0);
      const byScore = people.map((row) => scores[row] ?? 0).sort((a, b) => a - b);
      const scoreCells = async () => (await cells(4)).map((cell) => (cell === "" ? "" : Number(cell)));
      await page.locator('#filter-table th button[data-column="score"]').click();
      await expect.poll(() => page.locator("#filter-table th").nth(4).getAttribute("aria-sort"), soon).toBe("ascending");
      expect(await scoreCells()).toEqual([...byScore, ...new Array<string>(servers).fill("")]);
      await page.locator('#filter-table th button[data-column="score"]').click();
      await expect.poll(() => page.locator("#filter-table th").nth(4).getAttribute("aria-sort"), soon).toBe("descending");
      expect(await scoreCells()).toEqual([...byScore.reverse(), ...new Array<string>(servers).fill("")]);

      // Text sorts too; a person's ip is hidden by the field filters (servers show only name and ip).
      await page.locator('#filter-table th button[data-column="name"]').click();
      const rows = await page
        .locator("#filter-table tbody tr")
        .evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.textContent ?? "")));
      const listed = rows.map((cellsOfRow) => cellsOfRow[1] ?? "");
      expect(listed).toEqual([...listed].sort((a, b) => a.localeCompare(b, undefined, { numeric: true })));
      for (const cellsOfRow of rows) {
        const row = names.indexOf(cellsOfRow[0] ?? "");
        if (types[row] === "server") expect(cellsOfRow.slice(2, 5)).toEqual(["", "", ""]);
        else expect(cellsOfRow[5]).toBe("");
      }
      await page.screenshot({ path: join(ARTIFACTS, "filter-table.png") });
    }, 60_000);

    it("lists the edges that pass, and downloads the table's rows in its order", async () => {
      await page.locator('#filter-table .filter-table-tabs button[data-axis="edges"]').click();
      await expect.poll(() => page.locator("#filter-table").getAttribute("data-rows"), soon).toBe(String(passingEdges.length));
      expect(await page.locator("#filter-table th").allTextContents()).toEqual(["source", "target", "weight"]);
      await page.locator('#filter-table th button[data-column="weight"]').click();
      await page.locator('#filter-table th button[data-column="weight"]').click();
      await expect.poll(() => page.locator("#filter-table th").nth(2).getAttribute("aria-sort"), soon).toBe("descending");
      const shownWeights = (await cells(2)).map(Number);
      const { name, rows } = await downloaded(page, "#filter-table-csv");
      expect(name).toBe("edges.csv");
      expect(rows[0]).toEqual(["kind", "src", "dst", "weight"]);
      expect(rows.slice(1).map((row) => Number(row[3]))).toEqual(shownWeights);
      expect(
        rows
          .slice(1)
          .map((row) => `${row[1]}-${row[2]}`)
          .sort(),
      ).toEqual(passingEdges.map((k) => `${sources[k]}-${destinations[k]}`).sort());
      expect(rows.slice(1).every((row) => row[0] === "edge")).toBe(true);
      expect(shownWeights).toEqual(passingEdges.map((k) => weights[k] ?? 0).sort((a, b) => b - a));

      await page.locator('#filter-table .filter-table-tabs button[data-axis="nodes"]').click();
      await expect.poll(() => page.locator("#filter-table").getAttribute("data-rows"), soon).toBe(String(passingNodes.length));
      const nodesCsv = await downloaded(page, "#filter-table-csv");
      expect(nodesCsv.name).toBe("nodes.csv");
      expect(nodesCsv.rows[0]).toEqual(["kind", "name", "type", "group", "score", "ip", "note"]);
      expect(
        nodesCsv.rows
          .slice(1)
          .map((row) => row[1])
          .sort(),
      ).toEqual(passingNodes.map((row) => names[row]).sort());
      await page.locator("#filter-table .filter-table-head button", { hasText: "Close" }).click();
    }, 60_000);

    it("the toolbar's CSV with nothing selected downloads the filtered nodes and edges", async () => {
      const { name, rows } = await downloaded(page, "#export-csv");
      expect(name).toBe("graph.csv");
      const header = rows[0] ?? [];
      expect(header).toEqual(["kind", "name", "type", "group", "score", "ip", "note", "src", "dst", "weight"]);
      const nodeRows = rows.filter((row) => row[0] === "node");
      const edgeRows = rows.filter((row) => row[0] === "edge");
      expect(nodeRows.map((row) => row[1]).sort()).toEqual(passingNodes.map((row) => names[row]).sort());
      // Servers list only name and ip, so their score cell is empty; everyone else's passes the filter.
      for (const row of nodeRows) if (row[2] !== "") expect(Number(row[4])).toBeGreaterThanOrEqual(5);
      expect(edgeRows.map((row) => `${row[7]}-${row[8]}`).sort()).toEqual(
        passingEdges.map((k) => `${sources[k]}-${destinations[k]}`).sort(),
      );
      await expect
        .poll(() => page.locator("#export-message").textContent(), soon)
        .toBe(`Saved graph.csv: the filtered graph, ${passingNodes.length} nodes and ${passingEdges.length} edges.`);
    }, 60_000);

    it("clicking a node's row selects it; the selection table downloads its rows as listed", async () => {
      await page.locator("#filter-table-toggle").click();
      await page.locator("#filter-table tbody tr", { hasText: "Zeta Prime" }).click();
      await expect.poll(() => page.locator("#inspector-title").textContent(), soon).toBe("Zeta Prime");
      await page.locator("#filter-table .filter-table-head button", { hasText: "Close" }).click();
      await page.locator("#selection-table-toggle").click();
      await expect.poll(() => page.locator("#selection-table tbody tr").count(), soon).toBeGreaterThan(1);
      await page.locator('#selection-table th button[data-column="score"]').click();
      const listed = await page.locator("#selection-table tbody tr td:nth-child(1)").allTextContents();
      const { name, rows } = await downloaded(page, "#selection-table-csv");
      expect(name).toBe("selection.csv");
      expect(rows[0]?.slice(0, 2)).toEqual(["kind", "name"]);
      expect(rows.slice(1).map((row) => row[1])).toEqual(listed);
      expect(rows.slice(1).every((row) => row[0] === "node")).toBe(true);
      // The CSV with a selection: the selection, whatever the filters.
      const selected = await downloaded(page, "#export-csv");
      expect(selected.rows.filter((row) => row[0] === "node").map((row) => row[1])).toEqual(["Zeta Prime"]);
    }, 60_000);
  });

  describe("on a graph of 250 nodes", () => {
    const fixture = randomGraphFixture(500, true);
    const sizes = [...((fixture.nodes.getChild("size")?.toArray() ?? []) as Float64Array)];
    let page: Page;

    beforeAll(async () => {
      const server = await startPageServer(dist, fixture);
      servers.push(server);
      page = await openPage(browser, server);
    }, 180_000);

    it("shows a page of 100 rows at a time, sorted over every row", async () => {
      await page.locator("#filters-toggle").click();
      await page.locator("#filter-table-toggle").click();
      await expect.poll(() => page.locator("#filter-table").getAttribute("data-rows"), soon).toBe("250");
      expect(await page.locator("#filter-table .filter-table-caption").textContent()).toBe("All 250 nodes");
      expect(await page.locator("#filter-table tbody tr").count()).toBe(100);
      expect(await page.locator("#filter-table-page").textContent()).toBe("1–100 of 250");
      expect(await page.locator("#filter-table-prev").isDisabled()).toBe(true);
      await page.locator('#filter-table th button[data-column="size"]').click();
      await page.locator('#filter-table th button[data-column="size"]').click();
      await expect.poll(() => page.locator("#filter-table th").nth(2).getAttribute("aria-sort"), soon).toBe("descending");
      const descending = [...sizes].sort((a, b) => b - a);
      const sizeCells = async () => (await page.locator("#filter-table tbody tr td:nth-child(3)").allTextContents()).map(Number);
      const close = (values: number[], expected: number[]) => values.every((v, k) => Math.abs(v - (expected[k] ?? 0)) < 1e-6);
      expect(close(await sizeCells(), descending.slice(0, 100))).toBe(true);
      await page.locator("#filter-table-next").click();
      expect(await page.locator("#filter-table-page").textContent()).toBe("101–200 of 250");
      expect(close(await sizeCells(), descending.slice(100, 200))).toBe(true);
      await page.locator("#filter-table-next").click();
      expect(await page.locator("#filter-table-page").textContent()).toBe("201–250 of 250");
      expect(await page.locator("#filter-table tbody tr").count()).toBe(50);
      expect(await page.locator("#filter-table-next").isDisabled()).toBe(true);
    }, 60_000);

    it("at phone width it is a drawer inside the window, its pager and CSV button too", async () => {
      await page.locator("#filter-table .filter-table-head button", { hasText: "Close" }).click();
      await page.locator("#filters-toggle").click();
      await page.setViewportSize({ width: 375, height: 667 });
      await page.locator("#tools-toggle").click();
      await page.locator("#filters-toggle").click();
      await expect.poll(() => page.locator("#filter-panel").isVisible(), soon).toBe(true);
      await page.locator("#filter-table-toggle").click();
      await expect.poll(() => page.locator("#filter-table").isVisible(), soon).toBe(true);
      expect(await page.locator("#filter-panel").isVisible()).toBe(false);
      for (const selector of ["#filter-table", "#filter-table-csv", "#filter-table-next", "#filter-table-prev"]) {
        const box = await page.locator(selector).boundingBox();
        expect(box, selector).not.toBeNull();
        if (!box) continue;
        expect(box.x, selector).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width, selector).toBeLessThanOrEqual(375);
        expect(box.y + box.height, selector).toBeLessThanOrEqual(667);
      }
      await page.screenshot({ path: join(ARTIFACTS, "filter-table-narrow.png") });
      await page.setViewportSize({ width: 1280, height: 800 });
    }, 60_000);
  });
});
