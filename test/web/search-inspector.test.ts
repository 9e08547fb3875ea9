// graph.html in Chromium: search over ids, labels and shown text columns (count, paging, field filters respected,
// columns fetched once), and the inspector's degree, neighbours and endpoints that select the node they name.
import { mkdirSync } from "node:fs";
import { rm } from "node:fs/promises";
import { join } from "node:path";
import { Int32, Table, Utf8, vectorFromArray } from "apache-arrow";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FieldFilter } from "../../src/datasets/encodings/types.ts";
import { inspectorFields } from "../../web/src/field-visibility.ts";
import { CHROMIUM, chromiumAvailable, launchChromium } from "./harness/browser.ts";
import { type GraphFixture, smallGraphFixture, withLayout } from "./harness/graph-fixture.ts";
import { buildPage, REPO_ROOT } from "./harness/page-build.ts";
import { type PageServer, startPageServer } from "./harness/page-server.ts";

const available = chromiumAvailable();
const ARTIFACTS = join(REPO_ROOT, "test/web/artifacts");
const title = available ? "search and inspector in Chromium" : `search and inspector in Chromium (skipped: no Chromium at ${CHROMIUM})`;

/** A ring of positions, so the page draws at once from the stored layout. */
describe.skipIf(!available)(title, () => {
  let dist = "";
  let server: PageServer;
  let browser: Browser;
  let page: Page;
  const fixture = withLayout(smallGraphFixture());
  const nodes = fixture.nodes;
  const names = (nodes.getChild("name")?.toArray() ?? []) as string[];
  const row = (i: number) => Object.fromEntries(nodes.schema.fields.map((field) => [field.name, nodes.getChild(field.name)?.get(i)]));

  /** Rows the page should find, worked out row by row from the real rows and the field filters, in node order. */
  const expectedMatches = (text: string) => {
    const needle = text.toLowerCase();
    const out: number[] = [];
    for (let i = 0; i < nodes.numRows; i++) {
      const values = row(i);
      const shown = inspectorFields(fixture.fieldFilters as FieldFilter[], "point", values);
      const searched = ["id", "name", ...["type", "group", "secret", "ip", "note"].filter((name) => shown.includes(name))];
      if (searched.some((name) => values[name] != null && String(values[name]).toLowerCase().includes(needle))) out.push(i);
    }
    return out;
  };

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
  const text = (selector: string) => page.locator(selector).first().textContent({ timeout: 5_000 });
  const optionNodes = async () =>
    await page
      .locator("#search-results [role=option]")
      .evaluateAll((items) => items.map((item) => Number((item as HTMLElement).dataset.node)));
  const search = async (value: string) => {
    await page.locator("#search").fill("");
    await page.locator("#search").fill(value);
  };

  it("counts every match over the shown text columns and pages through them", async () => {
    const expected = expectedMatches("team");
    // Groups are shown for people only: the servers' group is hidden by the node filter's server rules.
    expect(expected.length).toBe(30);
    await search("team");
    await expect.poll(() => text("#search-results .search-count"), soon).toBe("30 matches · 1–8");
    expect(await optionNodes()).toEqual(expected.slice(0, 8));
    await page.locator("#search-results .search-next").click();
    await expect.poll(() => text("#search-results .search-count"), soon).toBe("30 matches · 9–16");
    expect(await optionNodes()).toEqual(expected.slice(8, 16));
    await page.locator("#search-results .search-next").click();
    await page.locator("#search-results .search-next").click();
    await expect.poll(() => text("#search-results .search-count"), soon).toBe("30 matches · 25–30");
    expect(await optionNodes()).toEqual(expected.slice(24));
    expect(await page.locator("#search-results .search-next").isDisabled()).toBe(true);
    await page.locator("#search-results .search-prev").click();
    await expect.poll(() => text("#search-results .search-count"), soon).toBe("30 matches · 17–24");
    await page.screenshot({ path: join(ARTIFACTS, "search-pages.png"), timeout: 60_000 });
    // The text columns came once, without the column every filter hides.
    const asked = server.requests
      .filter((path) => path.startsWith("/graph/data/session-small/nodes.arrow?"))
      .map((path) => new URL(path, "http://x").searchParams.get("columns")?.split(",").sort());
    expect(asked.slice(1)).toEqual([["group", "ip", "note", "type"]]);
  }, 60_000);

  it("finds ids and filtered columns, never a hidden one", async () => {
    await search("10.0.0.");
    const servers = expectedMatches("10.0.0.");
    expect(servers.length).toBe(6);
    await expect.poll(() => text("#search-results .search-count"), soon).toBe("6 matches");
    expect(await optionNodes()).toEqual(servers);
    await expect.poll(() => text("#search-results [role=option] .search-where"), soon).toBe("ip: 10.0.0.5");
    await search("s3cr3t");
    await expect.poll(() => text("#search-results .search-count"), soon).toBe("No matching node");
    expect(expectedMatches("s3cr3t")).toEqual([]);
    await search("1007");
    await expect.poll(() => text("#search-results .search-count"), soon).toBe("1 match");
    expect(await optionNodes()).toEqual([7]);
    await expect.poll(() => text("#search-results [role=option]"), soon).toBe("Zeta Primeid: 1007");
  }, 60_000);

  it("Enter chooses the highlighted match at once, while the text columns are still on their way", async () => {
    const other = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    try {
      await other.goto(server.pageUrl);
      await other.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 60_000 });
      // The text columns the search downloads on first use do not arrive until released.
      await other.route(/\/nodes\.arrow\?/, async (route) => {
        await held;
        await route.continue().catch(() => undefined);
      });
      await other.locator("#search").fill("zeta");
      // Ids and labels answer at once; the list shows while the fuller answer waits.
      await expect.poll(() => other.locator("#search-results [role=option]").first().textContent(), soon).toBe("Zeta Prime");
      await other.locator("#search").press("Enter");
      await expect.poll(() => other.locator("#inspector-title").textContent(), { timeout: 5_000, interval: 100 }).toBe("Zeta Prime");
    } finally {
      release();
      await other.close();
    }
  }, 60_000);

  it("choosing a match on a later page selects that node", async () => {
    const expected = expectedMatches("team");
    await search("team");
    await expect.poll(() => text("#search-results .search-count"), soon).toBe("30 matches · 1–8");
    await page.locator("#search-results .search-next").click();
    await expect.poll(() => text("#search-results .search-count"), soon).toBe("30 matches · 9–16");
    const chosen = expected[9] ?? -1;
    await page.locator(`#search-results [role=option][data-node="${chosen}"]`).click();
    await expect.poll(() => text("#inspector-title"), soon).toBe(names[chosen]);
    await expect.poll(() => text(".label.is-selected"), soon).toBe(names[chosen]);
  }, 60_000);

  it("the inspector lists a node's degree and neighbours, and clicking one selects it", async () => {
    await search("Zeta");
    await expect.poll(() => text("#search-results [role=option]"), soon).toBe("Zeta Prime");
    await page.locator("#search").press("Enter");
    await expect.poll(() => text("#inspector-title"), soon).toBe("Zeta Prime");
    const src = (fixture.edges.getChild("src")?.toArray() ?? []) as Int32Array;
    const dst = (fixture.edges.getChild("dst")?.toArray() ?? []) as Int32Array;
    const degreeOf = (i: number) => [...src, ...dst].filter((id) => id === 1000 + i).length;
    const neighboursOf = (i: number) => {
      const out = new Set<number>();
      src.forEach((s, e) => {
        const d = dst[e] ?? 0;
        if (s === 1000 + i && d !== s) out.add(d - 1000);
        if (d === 1000 + i && d !== s) out.add(s - 1000);
      });
      return [...out].sort((a, b) => a - b);
    };
    const zeta = neighboursOf(7);
    expect(zeta.length).toBeGreaterThan(1);
    await expect.poll(() => text("#inspector-links .inspector-degree"), soon).toBe(`Degree ${degreeOf(7)} · ${zeta.length} neighbours`);
    const listed = await page.locator("#inspector-links .node-link").allTextContents();
    expect([...listed].sort()).toEqual(zeta.map((i) => names[i]).sort());
    const next = zeta[0] ?? -1;
    await page.locator(`#inspector-links .node-link[data-node="${next}"]`).click();
    await expect.poll(() => text("#inspector-title"), soon).toBe(names[next]);
    await expect.poll(() => text(".label.is-selected"), soon).toBe(names[next]);
    await expect
      .poll(() => text("#inspector-links .inspector-degree"), soon)
      .toBe(`Degree ${degreeOf(next)} · ${neighboursOf(next).length} neighbours`);
    await page.keyboard.press("Escape");
    await expect.poll(() => page.locator("#inspector").isVisible(), soon).toBe(false);
  }, 60_000);

  it("an edge's inspector links both endpoints, and clicking one selects that node", async () => {
    await search("Zeta");
    await expect.poll(() => text("#search-results [role=option]"), soon).toBe("Zeta Prime");
    await page.locator("#search").press("Enter");
    await expect.poll(() => text("#inspector-title"), soon).toBe("Zeta Prime");
    await page.keyboard.press("Escape");
    await page.waitForTimeout(1_200);
    // Zeta Prime is centered; its links leave it toward its neighbours (y maybe flipped on screen), else all round.
    const layout = fixture.layout ?? new Float32Array(0);
    const edges = fixture.edges;
    const zeta = 7;
    const angles: number[] = [];
    for (let e = 0; e < edges.numRows; e++) {
      const [s, d] = [Number(edges.getChild("src")?.get(e)) - 1000, Number(edges.getChild("dst")?.get(e)) - 1000];
      const other = s === zeta ? d : d === zeta ? s : undefined;
      if (other === undefined) continue;
      const dx = (layout[other * 2] ?? 0) - (layout[zeta * 2] ?? 0);
      const dy = (layout[other * 2 + 1] ?? 0) - (layout[zeta * 2 + 1] ?? 0);
      angles.push(Math.atan2(dy, dx), Math.atan2(-dy, dx));
    }
    for (let step = 0; step < 72; step++) angles.push((step / 72) * Math.PI * 2);
    let found: [number, number] | undefined;
    for (const radius of [45, 80]) {
      for (const angle of angles) {
        const at: [number, number] = [640 + radius * Math.cos(angle), 400 + radius * Math.sin(angle)];
        await page.mouse.move(...at, { steps: 2 });
        await page.waitForTimeout(250);
        if ((await page.evaluate(() => document.querySelector("#graph canvas")?.getAttribute("style") ?? "")).includes("pointer")) {
          found = at;
          break;
        }
      }
      if (found) break;
    }
    expect(found).toBeDefined();
    await page.mouse.click(...(found ?? [0, 0]));
    await expect.poll(() => text("#inspector-kind"), soon).toBe("Edge");
    const ends = await page.locator("#inspector-links .edge-end .node-link").allTextContents();
    expect(ends).toHaveLength(2);
    expect(ends).toContain("Zeta Prime");
    expect(await text("#inspector-title")).toBe(`${ends[0]} → ${ends[1]}`);
    const other = ends.find((name) => name !== "Zeta Prime") ?? "";
    await page.screenshot({ path: join(ARTIFACTS, "inspector-edge-endpoints.png"), timeout: 60_000 });
    await page.locator("#inspector-links .edge-end .node-link", { hasText: other }).click();
    await expect.poll(() => text("#inspector-kind"), soon).toBe("Node");
    await expect.poll(() => text("#inspector-title"), soon).toBe(other);
    await expect.poll(() => text(".label.is-selected"), soon).toBe(other);
    await expect.poll(() => text("#inspector-links h3"), soon).toBe("Neighbours");
  }, 120_000);

  it("a live change of the field filters changes what the search finds", async () => {
    const before = fixture.fieldFilters;
    // The node filter loses its server rules: the servers' group becomes searchable too.
    fixture.fieldFilters = fixture.fieldFilters.map((filter) => (filter.graphType === "point" ? { ...filter, byType: {} } : filter));
    expect(expectedMatches("team")).toHaveLength(36);
    fixture.revision = { id: "rev-filters", number: fixture.revision.number + 1 };
    server.publish({ kind: "revision", revision: fixture.revision });
    await expect
      .poll(async () => {
        await search("team");
        return text("#search-results .search-count");
      }, soon)
      .toBe("36 matches · 1–8");
    fixture.fieldFilters = before;
  }, 60_000);

  it("a hub lists its first 50 neighbours and counts the rest", async () => {
    // 70 leaves around a hub, one of them linked twice: degree 71, 70 neighbours.
    const count = 71;
    const ids = Array.from({ length: count }, (_, i) => i);
    const hub: GraphFixture = withLayout({
      ...smallGraphFixture(),
      sessionId: "session-hub",
      datasetId: "dataset-hub",
      name: "Hub graph",
      nodes: new Table({
        id: vectorFromArray(ids, new Int32()),
        name: vectorFromArray(
          ids.map((i) => (i === 0 ? "Hub" : `Leaf ${i}`)),
          new Utf8(),
        ),
      }),
      edges: new Table({
        src: vectorFromArray([...ids.slice(1).map(() => 0), 0], new Int32()),
        dst: vectorFromArray([...ids.slice(1), 1], new Int32()),
      }),
      nodeBindings: { node: "id", node_label: "name" },
      edgeBindings: { source: "src", destination: "dst" },
      fieldFilters: [],
    });
    const hubServer = await startPageServer(dist, hub);
    const other = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    try {
      await other.goto(hubServer.pageUrl);
      await other.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 60_000 });
      await other.locator("#search").fill("hub");
      await expect.poll(() => other.locator("#search-results .search-count").textContent(), soon).toBe("1 match");
      await other.locator("#search").press("Enter");
      await expect.poll(() => other.locator("#inspector-title").textContent(), soon).toBe("Hub");
      await expect.poll(() => other.locator("#inspector-links .inspector-degree").textContent(), soon).toBe("Degree 71 · 70 neighbours");
      expect(await other.locator("#inspector-links .node-link").allTextContents()).toEqual(ids.slice(1, 51).map((i) => `Leaf ${i}`));
      expect(await other.locator("#inspector-links .neighbour-more").textContent()).toBe("and 20 more");
      await other.screenshot({ path: join(ARTIFACTS, "inspector-hub.png"), timeout: 60_000 });
      await other.locator('#inspector-links .node-link[data-node="50"]').click();
      await expect.poll(() => other.locator("#inspector-title").textContent(), soon).toBe("Leaf 50");
      await expect.poll(() => other.locator("#inspector-links .inspector-degree").textContent(), soon).toBe("Degree 1 · 1 neighbour");
    } finally {
      await other.close();
      await hubServer.close();
    }
  }, 120_000);
});
