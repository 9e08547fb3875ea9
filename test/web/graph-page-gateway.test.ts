// graph.html against the real gateway: sign in, open a dataset, draw the server's layout as it streams, inspect with
// field filters, reopen the stored layout; two browsers watching one layout stream; bound columns read again.
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServerProcess } from "../helpers/server-process.ts";
import { CHROMIUM, chromiumAvailable } from "./harness/browser.ts";
import { ADMIN, bearer, graphql, shareWith, signIn } from "./harness/gateway-session.ts";
import { ARTIFACTS, type PageGateway, startPageGateway } from "./harness/page-gateway.ts";

const available = chromiumAvailable();
const title = available ? "graph.html served by the gateway" : `graph.html served by the gateway (skipped: no Chromium at ${CHROMIUM})`;

if (!available) console.warn(`${title}: these browser tests are skipped`);

describe.skipIf(!available)(title, () => {
  let world: PageGateway | undefined;
  let server: ServerProcess;
  let browser: Browser;
  let datasetId = "";

  beforeAll(async () => {
    world = await startPageGateway("graph-page-gateway");
    ({ server, browser, datasetId } = world);
  }, 120_000);

  afterAll(async () => {
    await world?.close();
  });

  const firstFrame = (page: Page) =>
    page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 60_000 });
  const attr = (page: Page, name: string) => page.evaluate((key) => document.documentElement.getAttribute(key), name);
  /** The GraphQL operations a page posts that control the layout. */
  const controls = (page: Page) => {
    const sent: string[] = [];
    page.on("request", (request) => {
      const body = request.method() === "POST" ? (request.postData() ?? "") : "";
      const action = /controlSessionLayout\(sessionId: \$id, action: (\w+)/.exec(body)?.[1];
      if (action) sent.push(action);
    });
    return sent;
  };

  it("signs in, opens a session, draws the server's layout as it streams, inspects, and reopens the stored layout", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const asked: string[] = [];
    page.on("request", (request) => asked.push(`${request.method()} ${new URL(request.url()).pathname}${new URL(request.url()).search}`));
    const puts: number[] = [];
    page.on("response", (response) => {
      if (response.request().method() === "PUT") puts.push(response.status());
    });

    const sent = controls(page);

    await page.goto(`${server.url}/graph/graph.html?dataset=${datasetId}`);
    await page.fill("#username", ADMIN.username);
    await page.fill("#password", ADMIN.password);
    await page.click("button[type=submit]");
    await firstFrame(page);
    expect(new URL(page.url()).searchParams.get("session")).toMatch(/\w+/);
    // Nothing gives positions on the first view: the page started the server's ForceAtlas2 and drew its frames.
    expect(await attr(page, "data-layout")).toBe("server");
    expect(sent).toEqual(["START"]);
    expect(asked.filter((line) => line.includes(".arrow?")).map((line) => line.replace(/\/graph\/data\/\w+\//, ""))).toEqual([
      "GET nodes.arrow?columns=n,kind,score,label",
      "GET edges.arrow?columns=s,d,ecolor",
    ]);

    // The layout runs to its end on the server, which stores it; the page stores nothing itself.
    await expect.poll(() => attr(page, "data-layout-state"), { timeout: 120_000, interval: 250 }).toBe("done");
    expect(Number(await attr(page, "data-layout-frames"))).toBeGreaterThanOrEqual(1);
    expect(await page.locator("#layout-state").textContent()).toBe("Layout done");
    expect(puts).toEqual([]);

    await page.locator("#search").fill("NODE-7");
    await expect.poll(() => page.locator("#search-results [role=option]").first().textContent(), { timeout: 10_000 }).toBe("NODE-7");
    await page.locator("#search").press("Enter");
    await expect.poll(() => page.locator("#inspector-title").textContent(), { timeout: 10_000 }).toBe("NODE-7");
    expect(await page.locator("#inspector-fields dt").allTextContents()).toEqual(["label", "kind", "score"]);
    expect(await page.locator("#legend").textContent()).toContain("#ff8800");
    await page.waitForTimeout(1_000);
    await page.screenshot({ path: join(ARTIFACTS, "gateway-inspector.png"), timeout: 60_000 });

    await page.reload();
    await firstFrame(page);
    expect(await attr(page, "data-layout")).toBe("saved");
    expect(sent).toEqual(["START"]);
    await page.close();
  }, 240_000);
  it("two browsers on one session watch a server layout stream: one pauses, the other sees it; the end is stored and the next visit opens laid out", async () => {
    await shareWith(server.url, datasetId, "bob", "bob-password");
    const owner = await signIn(browser, server.url, ADMIN.username, ADMIN.password);
    await owner.page.goto(`${server.url}/graph/graph.html?dataset=${datasetId}`);
    await firstFrame(owner.page);
    const sessionUrl = owner.page.url();
    const sessionId = new URL(sessionUrl).searchParams.get("session") ?? "";
    expect(sessionId).toMatch(/\w+/);
    const viewer = await signIn(browser, server.url, "bob", "bob-password");
    await viewer.page.goto(sessionUrl);
    await firstFrame(viewer.page);

    // An open-ended layout (max_iter 0), started by anyone: both pages draw its frames as they come.
    const auth = await bearer(server.url);
    const control = (action: string, layout?: unknown) =>
      graphql<{ controlSessionLayout: { state: string } }>(
        server.url,
        auth,
        `mutation($id: ID!, $layout: JSON) { controlSessionLayout(sessionId: $id, action: ${action}, layout: $layout) { state } }`,
        { id: sessionId, layout },
      );
    const started = await control("START", { libraries: ["cugraph"], alg: "force_atlas2", params: { max_iter: 0 } });
    expect(started.errors).toBeUndefined();
    const frames = async (page: Page) => Number(await attr(page, "data-layout-frames"));
    const [ownerFrames, viewerFrames] = [await frames(owner.page), await frames(viewer.page)];
    for (const page of [owner.page, viewer.page]) {
      await expect.poll(() => attr(page, "data-layout-state"), { timeout: 30_000, interval: 100 }).toBe("running");
    }
    await expect.poll(() => frames(owner.page), { timeout: 30_000, interval: 100 }).toBeGreaterThan(ownerFrames + 3);
    await expect.poll(() => frames(viewer.page), { timeout: 30_000, interval: 100 }).toBeGreaterThan(viewerFrames + 3);

    // The viewer pauses with the panel's button; the owner's page shows it paused, and its frames stop.
    await viewer.page.locator("#layout-toggle").click();
    await expect.poll(() => attr(owner.page, "data-layout-state"), { timeout: 30_000, interval: 100 }).toBe("paused");
    expect(await owner.page.locator("#layout-toggle").textContent()).toBe("Resume");
    const pausedAt = await frames(owner.page);
    await owner.page.waitForTimeout(1_000);
    expect(await frames(owner.page)).toBeLessThanOrEqual(pausedAt + 1);
    await viewer.page.screenshot({ path: join(ARTIFACTS, "gateway-layout-paused.png"), timeout: 60_000 });

    // The owner resumes and turns gravity up: the viewer's panel shows both.
    await owner.page.locator("#layout-toggle").click();
    await expect.poll(() => attr(viewer.page, "data-layout-state"), { timeout: 30_000, interval: 100 }).toBe("running");
    await owner.page.locator("#layout-settings-toggle").click();
    await owner.page.locator("#layout-gravity").fill("4");
    await owner.page.locator("#layout-gravity").press("Enter");
    await viewer.page.locator("#layout-settings-toggle").click();
    await expect.poll(() => viewer.page.locator("#layout-gravity").inputValue(), { timeout: 30_000, interval: 100 }).toBe("4");

    // It ends (max_iter lowered below the iterations done): both pages show done, and the positions are stored.
    const ended = await control("SET_PARAMS", { params: { max_iter: 1 } });
    expect(ended.errors).toBeUndefined();
    for (const page of [owner.page, viewer.page]) {
      await expect.poll(() => attr(page, "data-layout-state"), { timeout: 30_000, interval: 100 }).toBe("done");
    }
    const stored = await fetch(`${server.url}/graph/data/${sessionId}/layout`, { headers: auth });
    expect(stored.status).toBe(200);
    const positions = new Float32Array(await stored.arrayBuffer());
    expect(positions.length).toBe(30 * 2);
    expect([...positions].every(Number.isFinite)).toBe(true);
    await owner.context.close();
    await viewer.context.close();

    // A third visit, to the session and to a new session of the dataset: laid out at once, no layout started.
    for (const url of [sessionUrl, `${server.url}/graph/graph.html?dataset=${datasetId}`]) {
      const third = await signIn(browser, server.url, "bob", "bob-password");
      const sent = controls(third.page);
      await third.page.goto(url);
      await firstFrame(third.page);
      expect(await attr(third.page, "data-layout")).toBe("saved");
      await third.page.waitForTimeout(500);
      expect(sent).toEqual([]);
      await third.context.close();
    }
  }, 240_000);

  it("an open page reads its bound columns again when a compute job stores new values under their names", async () => {
    const owner = await signIn(browser, server.url, ADMIN.username, ADMIN.password);
    const asked: string[] = [];
    owner.page.on("request", (request) => asked.push(new URL(request.url()).pathname + new URL(request.url()).search));
    await owner.page.goto(`${server.url}/graph/graph.html?dataset=${datasetId}`);
    await owner.page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 60_000 });
    const nodeReads = () => asked.filter((line) => /nodes\.arrow\?columns=/.test(line)).length;
    const before = nodeReads();
    // `score` is bound to the points' size: PageRank written under that name is a new table version.
    const auth = await bearer(server.url);
    const run = await graphql<{ runComputeJob: { id: string } }>(
      server.url,
      auth,
      "mutation($i: RunComputeJobInput!) { runComputeJob(input: $i) { id } }",
      { i: { datasetId, label: "score", library: "igraph", alg: "pagerank" } },
    );
    const jobId = run.data?.runComputeJob.id as string;
    expect(jobId).toBeTruthy();
    const status = async () =>
      (
        await graphql<{ computeJob: { status: string } }>(server.url, auth, "query($id: ID!) { computeJob(id: $id) { status } }", {
          id: jobId,
        })
      ).data?.computeJob.status;
    await expect.poll(status, { timeout: 60_000, interval: 250 }).toBe("SUCCEEDED");
    await expect.poll(nodeReads, { timeout: 30_000, interval: 250 }).toBeGreaterThan(before);
    await owner.context.close();
  }, 240_000);
});
