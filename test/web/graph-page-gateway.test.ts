// graph.html against the real gateway: sign in, open a dataset, draw it, inspect with field filters, keep the layout.
import { join } from "node:path";
import type { Browser } from "playwright-core";
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

  it("signs in, opens a session, draws, inspects with the field filters and keeps the layout", async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    const asked: string[] = [];
    page.on("request", (request) => asked.push(`${request.method()} ${new URL(request.url()).pathname}${new URL(request.url()).search}`));
    const puts: number[] = [];
    page.on("response", (response) => {
      if (response.request().method() === "PUT") puts.push(response.status());
    });

    await page.goto(`${server.url}/graph/graph.html?dataset=${datasetId}`);
    await page.fill("#username", ADMIN.username);
    await page.fill("#password", ADMIN.password);
    await page.click("button[type=submit]");
    await page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 60_000 });
    expect(new URL(page.url()).searchParams.get("session")).toMatch(/\w+/);
    expect(asked.filter((line) => line.includes(".arrow?")).map((line) => line.replace(/\/graph\/data\/\w+\//, ""))).toEqual([
      "GET nodes.arrow?columns=n,kind,score,label",
      "GET edges.arrow?columns=s,d,ecolor",
    ]);

    // The owner's layout is stored once the simulation settles (the gateway answers 204).
    await expect.poll(() => puts, { timeout: 120_000, interval: 500 }).toEqual([204]);

    await page.locator("#search").fill("NODE-7");
    await expect.poll(() => page.locator("#search-results [role=option]").first().textContent(), { timeout: 10_000 }).toBe("NODE-7");
    await page.locator("#search").press("Enter");
    await expect.poll(() => page.locator("#inspector-title").textContent(), { timeout: 10_000 }).toBe("NODE-7");
    expect(await page.locator("#inspector-fields dt").allTextContents()).toEqual(["label", "kind", "score"]);
    expect(await page.locator("#legend").textContent()).toContain("#ff8800");
    await page.waitForTimeout(1_000);
    await page.screenshot({ path: join(ARTIFACTS, "gateway-inspector.png"), timeout: 60_000 });

    await page.reload();
    await page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 60_000 });
    expect(await page.evaluate(() => document.documentElement.dataset.layout)).toBe("saved");
    await page.close();
  }, 240_000);
  it("a second viewer on the same session sees the owner's layout as soon as it is stored", async () => {
    // Bob may open Alice's (the admin's) dataset once it is shared publicly.
    await shareWith(server.url, datasetId, "bob", "bob-password");
    const owner = await signIn(browser, server.url, ADMIN.username, ADMIN.password);
    await owner.page.goto(`${server.url}/graph/graph.html?dataset=${datasetId}`);
    const sessionUrl = owner.page.url();
    expect(new URL(sessionUrl).searchParams.get("session")).toMatch(/\w+/);
    // The second viewer joins while the owner's layout is still running.
    const viewer = await signIn(browser, server.url, "bob", "bob-password");
    await viewer.page.goto(sessionUrl);
    await viewer.page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 60_000 });
    await expect
      .poll(() => viewer.page.evaluate(() => document.documentElement.dataset.layout), { timeout: 150_000, interval: 500 })
      .toBe("shared");
    await viewer.page.screenshot({ path: join(ARTIFACTS, "gateway-second-viewer.png"), timeout: 60_000 });
    await owner.context.close();
    await viewer.context.close();
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
