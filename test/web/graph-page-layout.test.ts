// graph.html and the server layout, against the page harness: where positions come from (bound, stored, dataset,
// server), frames moving the nodes (the newest wins), progress, pause/resume, settings, and another viewer's changes.
import { rm } from "node:fs/promises";
import { Float64, Table, vectorFromArray } from "apache-arrow";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, chromiumAvailable, launchChromium } from "./harness/browser.ts";
import { type GraphFixture, smallGraphFixture } from "./harness/graph-fixture.ts";
import type { LayoutJobOptions } from "./harness/layout-job-fixture.ts";
import { buildPage } from "./harness/page-build.ts";
import { type PageServer, startPageServer } from "./harness/page-server.ts";

const available = chromiumAvailable();
const title = available ? "graph.html with a server layout" : `graph.html with a server layout (skipped: no Chromium at ${CHROMIUM})`;

if (!available) console.warn(`${title}: these browser tests are skipped`);

const soon = { timeout: 30_000, interval: 100 };

describe.skipIf(!available)(title, () => {
  let dist = "";
  let browser: Browser;
  const servers: PageServer[] = [];

  beforeAll(async () => {
    dist = await buildPage();
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    for (const server of servers) await server.close();
    if (dist) await rm(dist, { recursive: true, force: true });
  });

  const serve = async (fixture: GraphFixture, options?: LayoutJobOptions) => {
    const server = await startPageServer(dist, fixture, options);
    servers.push(server);
    return server;
  };
  const open = async (server: PageServer) => {
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    page.on("pageerror", (error) => console.error("page error:", error.message));
    await page.goto(server.pageUrl);
    await page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 60_000 });
    return page;
  };
  const attr = (page: Page, name: string) => page.locator("html").getAttribute(name);
  const starts = (server: PageServer) => server.layoutJob.controls.filter((control) => control.action === "START").length;

  describe("where the first positions come from", () => {
    it("bound node_x/node_y come first, even with a stored layout; no server layout starts", async () => {
      const fixture = withPositionColumns(smallGraphFixture(), "px", "py");
      fixture.nodeBindings = { ...fixture.nodeBindings, node_x: "px", node_y: "py" };
      fixture.layout = ring(fixture.nodes.numRows);
      const server = await serve(fixture);
      const page = await open(server);
      expect(await attr(page, "data-layout")).toBe("bound");
      expect(starts(server)).toBe(0);
      await page.close();
    }, 90_000);

    it("the stored layout comes next, before the dataset's layout columns", async () => {
      const fixture = withPositionColumns(smallGraphFixture(), "x", "y");
      fixture.datasetLayout = { libraries: ["igraph"], alg: "circle" };
      fixture.layout = ring(fixture.nodes.numRows);
      const server = await serve(fixture);
      const page = await open(server);
      expect(await attr(page, "data-layout")).toBe("saved");
      expect(starts(server)).toBe(0);
      await page.close();
    }, 90_000);

    it("a dataset created with a layout draws its x/y columns, read with the other node columns", async () => {
      const fixture = withPositionColumns(smallGraphFixture(), "x", "y");
      fixture.datasetLayout = { libraries: ["igraph"], alg: "circle" };
      const server = await serve(fixture);
      const page = await open(server);
      expect(await attr(page, "data-layout")).toBe("dataset");
      expect(await attr(page, "data-graph-state")).toBe("ready");
      const asked = server.requests.filter((path) => path.includes("/nodes.arrow?"));
      expect(asked).toHaveLength(1);
      expect(new URL(asked[0] ?? "", "http://x").searchParams.get("columns")?.split(",")).toEqual(expect.arrayContaining(["x", "y"]));
      expect(starts(server)).toBe(0);
      await page.close();
    }, 90_000);

    it("otherwise the first view starts the server's ForceAtlas2 and draws its first frame", async () => {
      const server = await serve(smallGraphFixture(), { frameMs: 0 });
      const page = await open(server);
      expect(await attr(page, "data-layout")).toBe("server");
      expect(server.layoutJob.controls.map((control) => control.action)).toEqual(["START"]);
      expect(Number(await attr(page, "data-layout-frames"))).toBeGreaterThanOrEqual(1);
      expect(await attr(page, "data-layout-state")).toBe("running");
      expect(server.requests).toContain("/graph/data/session-small/layout/stream (websocket)");
      await page.close();
    }, 90_000);
  });

  it("a stored layout for another node count is not drawn: the server layout starts instead", async () => {
    const fixture = smallGraphFixture();
    fixture.layout = ring(fixture.nodes.numRows - 1);
    const server = await serve(fixture, { frameMs: 0 });
    const page = await open(server);
    expect(await attr(page, "data-layout")).toBe("server");
    expect(starts(server)).toBe(1);
    await page.close();
  }, 90_000);

  it("receives the stream in a worker: no layout socket on the page's main thread, and still the newest frame drawn", async () => {
    const server = await serve(smallGraphFixture(), { frameMs: 0, maxIter: 40 });
    const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
    page.on("pageerror", (error) => console.error("page error:", error.message));
    // Records every socket the page's main thread opens (a worker has a global of its own, which this leaves alone).
    await page.addInitScript(() => {
      const opened: string[] = [];
      (window as unknown as { openedSockets: string[] }).openedSockets = opened;
      const Native = window.WebSocket;
      window.WebSocket = class extends Native {
        constructor(url: string | URL, protocols?: string | string[]) {
          super(url, protocols);
          opened.push(String(url));
        }
      } as typeof WebSocket;
    });
    await page.goto(server.pageUrl);
    await page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 60_000 });
    for (let k = 1; k <= 28; k++) server.layoutJob.sendFrame(undefined, "running", 10 + k);
    await expect.poll(() => attr(page, "data-layout-seq"), soon).toBe(String(server.layoutJob.seq));
    await expect.poll(() => page.locator("#layout-iteration").textContent(), soon).toBe("38 / 40");
    expect(Number(await attr(page, "data-layout-received"))).toBeGreaterThan(Number(await attr(page, "data-layout-frames")));
    expect(Number(await attr(page, "data-layout-dropped"))).toBeGreaterThan(0);
    const opened = await page.evaluate(() => (window as unknown as { openedSockets: string[] }).openedSockets);
    expect(opened.filter((url) => url.includes("/layout/stream"))).toEqual([]);
    await page.close();
  }, 90_000);

  describe("a layout streaming to two pages", () => {
    let server: PageServer;
    let first: Page;
    let second: Page;

    beforeAll(async () => {
      server = await serve(smallGraphFixture(), { frameMs: 0, maxIter: 40 });
      first = await open(server);
      second = await open(server);
    }, 120_000);

    it("each frame moves the nodes, the progress follows, and frames that pile up are dropped (the newest wins)", async () => {
      const n = server.fixture.nodes.numRows;
      server.layoutJob.sendFrame(undefined, "running", 10);
      await expect.poll(() => first.locator("#layout-iteration").textContent(), soon).toBe("10 / 40");
      expect(await first.locator("#layout-progress").evaluate((bar: HTMLProgressElement) => [bar.value, bar.max])).toEqual([10, 40]);
      await expect.poll(() => first.locator("#status").textContent(), soon).toContain("laying out 25%");
      expect(await attr(first, "data-graph-state")).toBe("laying-out");

      // Any positions the server sends are drawn (here: every node on one line).
      const line = new Float32Array(n * 2);
      for (let i = 0; i < n; i++) line[i * 2] = i;
      const before = Number(await attr(first, "data-layout-frames"));
      server.layoutJob.sendFrame(line, "running", 12);
      await expect.poll(async () => Number(await attr(first, "data-layout-frames")), soon).toBe(before + 1);
      await expect.poll(() => first.locator("#layout-iteration").textContent(), soon).toBe("12 / 40");

      // A burst: 28 frames sent at once; the page draws the last, and not all of them.
      const applied = Number(await attr(first, "data-layout-frames"));
      const sent = server.layoutJob.framesSent;
      for (let k = 1; k <= 28; k++) server.layoutJob.sendFrame(undefined, "running", 12 + k);
      expect(server.layoutJob.framesSent - sent).toBe(56);
      await expect.poll(() => first.locator("#layout-iteration").textContent(), soon).toBe("40 / 40");
      const lastSeq = String(server.layoutJob.seq);
      await expect.poll(() => attr(first, "data-layout-seq"), soon).toBe(lastSeq);
      await expect.poll(() => attr(second, "data-layout-seq"), soon).toBe(lastSeq);
      const drawnNow = Number(await attr(first, "data-layout-frames")) - applied;
      expect(drawnNow).toBeGreaterThanOrEqual(1);
      expect(drawnNow).toBeLessThan(28);
      expect(Number(await attr(first, "data-layout-dropped"))).toBeGreaterThan(0);
    }, 90_000);

    it("the search box answers while frames stream", async () => {
      const streaming = setInterval(() => server.layoutJob.sendFrame(undefined, "running", 20), 50);
      try {
        await first.locator("#search").fill("zeta");
        await expect.poll(() => first.locator("#search-results [role=option]").first().textContent(), soon).toBe("Zeta Prime");
      } finally {
        clearInterval(streaming);
      }
      await first.locator("#search").fill("");
      await first.keyboard.press("Escape");
    }, 60_000);

    it("pause and resume send their mutations, and the other page sees the state", async () => {
      await expect.poll(() => attr(first, "data-layout-state"), soon).toBe("running");
      await expect.poll(() => first.locator("#layout-toggle").textContent(), soon).toBe("Pause");
      await first.locator("#layout-toggle").click();
      await expect.poll(() => server.layoutJob.controls.at(-1)?.action, soon).toBe("PAUSE");
      await expect.poll(() => attr(first, "data-layout-state"), soon).toBe("paused");
      await expect.poll(() => attr(second, "data-layout-state"), soon).toBe("paused");
      expect(await first.locator("#layout-toggle").textContent()).toBe("Resume");
      expect(await first.locator("#layout-state").textContent()).toBe("Layout paused");
      // PAUSE stored the positions, as the gateway does.
      expect(server.fixture.layout?.length).toBe(server.fixture.nodes.numRows * 2);

      // The `p` key resumes (from the other page).
      await second.locator("#graph").click({ position: { x: 5, y: 300 } });
      await second.keyboard.press("p");
      await expect.poll(() => server.layoutJob.controls.at(-1)?.action, soon).toBe("RESUME");
      await expect.poll(() => attr(first, "data-layout-state"), soon).toBe("running");
    }, 60_000);

    it("a running frame still being drawn when the pause is answered does not show the layout running again", async () => {
      await expect.poll(() => attr(first, "data-layout-state"), soon).toBe("running");
      // Every state the first page shows from now on; its renders wait 1.5 s (a slow software-WebGL draw).
      await first.evaluate(() => {
        const page = window as unknown as { statesLeft: string[]; fastFrames: () => void };
        page.statesLeft = [];
        new MutationObserver((records) => {
          for (const record of records) page.statesLeft.push(record.oldValue ?? "");
        }).observe(document.documentElement, { attributeFilter: ["data-layout-state"], attributeOldValue: true });
        const native = window.requestAnimationFrame.bind(window);
        window.requestAnimationFrame = (callback) => native((time) => setTimeout(() => callback(time), 1_500));
        page.fastFrames = () => {
          window.requestAnimationFrame = native;
        };
      });
      // A running frame: the page draws it and waits for its render; meanwhile another viewer pauses the layout.
      server.layoutJob.sendFrame(undefined, "running", 20);
      await first.waitForTimeout(300);
      server.layoutJob.control("PAUSE", null);
      await expect.poll(() => attr(first, "data-layout-state"), soon).toBe("paused");
      await first.evaluate(() => (window as unknown as { fastFrames: () => void }).fastFrames());
      // The paused frame drawn last, and the state stayed paused all along.
      await expect.poll(() => attr(first, "data-layout-seq"), soon).toBe(String(server.layoutJob.seq));
      const left = await first.evaluate(() => (window as unknown as { statesLeft: string[] }).statesLeft);
      const shown = [...left.slice(1), await attr(first, "data-layout-state")];
      expect(left[0]).toBe("running");
      expect(shown).toEqual(["paused"]);
      expect(await first.locator("#layout-toggle").textContent()).toBe("Resume");
      await expect.poll(() => attr(second, "data-layout-state"), soon).toBe("paused");
    }, 60_000);

    it("the settings panel sends SET_PARAMS, and another viewer's change shows in every panel", async () => {
      await first.locator("#layout-settings-toggle").click();
      expect(await first.locator("#layout-settings-toggle").getAttribute("aria-expanded")).toBe("true");
      await first.locator("#layout-gravity").fill("3");
      await first.locator("#layout-gravity").press("Enter");
      await expect.poll(() => server.layoutJob.controls.at(-1), soon).toEqual({ action: "SET_PARAMS", layout: { params: { gravity: 3 } } });
      await first.locator("#layout-linlog").check();
      await expect
        .poll(() => server.layoutJob.controls.at(-1), soon)
        .toEqual({
          action: "SET_PARAMS",
          layout: { params: { lin_log_mode: true } },
        });
      expect(server.layoutJob.job?.params).toMatchObject({ gravity: 3, lin_log_mode: true });

      // The other page shows both, without anyone reloading it.
      await expect.poll(() => second.locator("#layout-gravity").inputValue(), soon).toBe("3");
      await expect.poll(() => second.locator("#layout-linlog").isChecked(), soon).toBe(true);
      // And its own change reaches the first page.
      await second.locator("#layout-settings-toggle").click();
      await second.locator("#layout-scaling").fill("5");
      await second.locator("#layout-overlap").check();
      await expect.poll(() => first.locator("#layout-scaling").inputValue(), soon).toBe("5");
      await expect.poll(() => first.locator("#layout-overlap").isChecked(), soon).toBe(true);
      expect(server.layoutJob.job?.params).toMatchObject({ scaling_ratio: 5, prevent_overlapping: true });
    }, 60_000);

    it("a finished layout shows done, is stored, and the next visit draws it at once without starting another", async () => {
      server.layoutJob.sendFrame(undefined, "done", 40);
      await expect.poll(() => attr(first, "data-layout-state"), soon).toBe("done");
      await expect.poll(() => attr(first, "data-graph-state"), soon).toBe("ready");
      expect(await first.locator("#layout-toggle").textContent()).toBe("Run again");
      await first.close();
      await second.close();
      const startsBefore = starts(server);
      const third = await open(server);
      expect(await attr(third, "data-layout")).toBe("saved");
      expect(starts(server)).toBe(startsBefore);
      await third.close();
    }, 60_000);
  });

  it("draws the canvas only when something changed: not while idle, again on a pan and on frames", async () => {
    const server = await serve(smallGraphFixture(), { frameMs: 0 });
    const page = await open(server);
    const renders = async () => Number(await attr(page, "data-graph-renders"));
    // Let the first draws finish (two reads a second apart agree: on a slow machine the page can still be drawing its
    // first frames a second after it opened), then a page left alone draws nothing more.
    let last = -1;
    await expect
      .poll(
        async () => {
          const now = await renders();
          const same = now === last && now > 0;
          last = now;
          return same;
        },
        { timeout: 30_000, interval: 1_000 },
      )
      .toBe(true);
    const idle = await renders();
    await page.waitForTimeout(1_500);
    expect(await renders()).toBe(idle);
    // Pointer moves alone draw nothing (hover-picking.test.ts); a pan does.
    await page.mouse.move(500, 400);
    await page.mouse.down();
    await page.mouse.move(540, 430, { steps: 4 });
    await page.mouse.up();
    await expect.poll(renders, soon).toBeGreaterThan(idle);
    await page.waitForTimeout(1_000);
    const moved = await renders();
    server.layoutJob.sendFrame(undefined, "running", 5);
    await expect.poll(renders, soon).toBeGreaterThan(moved);
    await page.close();
  }, 90_000);

  it("a layout that cannot start says why, and the graph is still drawn", async () => {
    const server = await serve(smallGraphFixture(), { failStart: "no compute backend" });
    const page = await open(server);
    await expect.poll(() => page.locator("#layout-error").isVisible(), soon).toBe(true);
    expect(await page.locator("#layout-error").textContent()).toContain("no compute backend");
    expect(await attr(page, "data-graph-state")).toBe("ready");
    await page.close();
  }, 90_000);

  it("a layout that fails while running shows the failed state and the server's reason", async () => {
    const server = await serve(smallGraphFixture(), { frameMs: 0 });
    const page = await open(server);
    server.layoutJob.fail("the worker ran out of memory");
    await expect.poll(() => attr(page, "data-layout-state"), soon).toBe("failed");
    await expect.poll(() => page.locator("#layout-error").textContent(), soon).toContain("ran out of memory");
    await page.close();
  }, 90_000);
});

/** The fixture with two float columns of positions (a ring, in arbitrary units) added to its node table. */
function withPositionColumns(fixture: GraphFixture, x: string, y: string): GraphFixture {
  const n = fixture.nodes.numRows;
  const positions = ring(n);
  const columns: Record<string, ReturnType<typeof vectorFromArray>> = {};
  for (const field of fixture.nodes.schema.fields) {
    const child = fixture.nodes.getChild(field.name);
    if (child) columns[field.name] = child as ReturnType<typeof vectorFromArray>;
  }
  columns[x] = vectorFromArray(
    Array.from({ length: n }, (_, i) => positions[i * 2] ?? 0),
    new Float64(),
  );
  columns[y] = vectorFromArray(
    Array.from({ length: n }, (_, i) => positions[i * 2 + 1] ?? 0),
    new Float64(),
  );
  return { ...fixture, nodes: new Table(columns) };
}

function ring(n: number): Float32Array {
  const out = new Float32Array(n * 2);
  for (let i = 0; i < n; i++) {
    out[i * 2] = 50 * Math.cos((i / n) * Math.PI * 2);
    out[i * 2 + 1] = 50 * Math.sin((i / n) * Math.PI * 2);
  }
  return out;
}
