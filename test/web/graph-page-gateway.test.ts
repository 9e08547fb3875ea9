// graph.html against the real gateway: sign in, open a dataset, draw it, inspect with field filters, keep the layout.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { tableFromArrays, tableToIPC } from "apache-arrow";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServerProcess, startServer } from "../helpers/server-process.ts";
import { CHROMIUM, chromiumAvailable, launchChromium } from "./harness/browser.ts";
import { buildPage, REPO_ROOT } from "./harness/page-build.ts";

const available = chromiumAvailable();
const ARTIFACTS = join(REPO_ROOT, "test/web/artifacts");
const title = available ? "graph.html served by the gateway" : `graph.html served by the gateway (skipped: no Chromium at ${CHROMIUM})`;
const ADMIN = { username: "admin", password: "change-me-now" };

if (!available) console.warn(`${title}: these browser tests are skipped`);

describe.skipIf(!available)(title, () => {
  let server: ServerProcess;
  let browser: Browser;
  let dataDir = "";
  let datasetId = "";

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    // The gateway serves web/dist: build the page there, as `npm run build:web` does.
    await buildPage(join(REPO_ROOT, "web/dist"));
    dataDir = mkdtempSync(join(tmpdir(), "graph-page-gateway-"));
    server = await startServer({
      DATA_DIR: dataDir,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      COOKIE_SECURE: "false",
    });
    datasetId = await uploadDataset(server.url);
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
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
    const auth = await bearer(server.url);
    await fetch(`${server.url}/graphql`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ query: 'mutation { createUser(input: {username: "bob", password: "bob-password"}) { id } }' }),
    });
    await fetch(`${server.url}/api/v2/share/link/`, {
      method: "POST",
      headers: { ...auth, "content-type": "application/json" },
      body: JSON.stringify({ obj_pk: datasetId, obj_type: "dataset", mode: "public", notify: false, invited_users: [], mode_action: "10" }),
    });
    const signIn = async (username: string, password: string) => {
      const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
      const page = await context.newPage();
      await page.goto(`${server.url}/login`);
      await page.fill("#username", username);
      await page.fill("#password", password);
      await page.click("button[type=submit]");
      await page.waitForURL(`${server.url}/`);
      return { context, page };
    };
    const owner = await signIn(ADMIN.username, ADMIN.password);
    await owner.page.goto(`${server.url}/graph/graph.html?dataset=${datasetId}`);
    const sessionUrl = owner.page.url();
    expect(new URL(sessionUrl).searchParams.get("session")).toMatch(/\w+/);
    // The second viewer joins while the owner's layout is still running.
    const viewer = await signIn("bob", "bob-password");
    await viewer.page.goto(sessionUrl);
    await viewer.page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 60_000 });
    await expect
      .poll(() => viewer.page.evaluate(() => document.documentElement.dataset.layout), { timeout: 150_000, interval: 500 })
      .toBe("shared");
    await viewer.page.screenshot({ path: join(ARTIFACTS, "gateway-second-viewer.png"), timeout: 60_000 });
    await owner.context.close();
    await viewer.context.close();
  }, 240_000);
});

async function bearer(base: string): Promise<Record<string, string>> {
  const login = await fetch(`${base}/api-token-auth/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  return { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
}

/** A 30-node ring with string ids, a category color, sizes, literal edge colors and both kinds of field filter. */
async function uploadDataset(base: string): Promise<string> {
  const login = await fetch(`${base}/api-token-auth/`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(ADMIN),
  });
  const auth = { authorization: `Bearer ${((await login.json()) as { token: string }).token}` };
  const created = await fetch(`${base}/api/v2/upload/datasets/`, {
    method: "POST",
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({
      name: "Gateway graph",
      metadata: {},
      node_encodings: {
        bindings: { node: "n", node_label: "label", node_color: "kind", node_size: "score" },
        complex: {
          default: {
            pointFieldInclusionEncoding: {
              graphType: "point",
              encodingType: "fieldinclusion",
              inclusion: { label: true, kind: true, score: true },
            },
          },
        },
      },
      edge_encodings: {
        bindings: { source: "s", destination: "d", edge_color: "ecolor" },
        complex: {
          default: { edgeFieldExclusionEncoding: { graphType: "edge", encodingType: "fieldexclusion", exclusion: { secret: true } } },
        },
      },
    }),
  });
  const id = ((await created.json()) as { data: { dataset_id: string } }).data.dataset_id;
  const ids = Array.from({ length: 30 }, (_, i) => `node-${i}`);
  const edges = tableFromArrays({
    s: ids,
    d: ids.map((_, i) => ids[(i + 1) % ids.length] ?? ""),
    ecolor: ids.map((_, i) => (i % 2 ? "#ff8800" : "#00aaff")),
    secret: ids.map((_, i) => `x${i}`),
  });
  const nodes = tableFromArrays({
    n: ids,
    label: ids.map((s) => s.toUpperCase()),
    kind: ids.map((_, i) => ["a", "b", "c"][i % 3] ?? "a"),
    score: Float64Array.from(ids, (_, i) => i),
    hidden: ids.map(() => "not listed"),
  });
  for (const [axis, table] of [
    ["edges", edges],
    ["nodes", nodes],
  ] as const) {
    const response = await fetch(`${base}/api/v2/upload/datasets/${id}/${axis}/arrow`, {
      method: "POST",
      headers: auth,
      body: Buffer.from(tableToIPC(table, "file")),
    });
    if (!response.ok) throw new Error(`${axis} upload answered ${response.status}`);
  }
  return id;
}
