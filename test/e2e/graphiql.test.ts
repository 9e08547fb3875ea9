// GraphiQL on /graphql loads every script and style from this server (no CDN), so it works without internet:
// the page names only local assets, the server serves each, and Chromium, with every other host cut off, runs a query.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestGateway, type TestGateway } from "../helpers/gateway.ts";
import { type ServerProcess, startServer } from "../helpers/server-process.ts";
import { CHROMIUM, chromiumAvailable, launchChromium } from "../web/harness/browser.ts";

/** Every address the page loads: src= and href= attributes, and the quoted worker URLs of its inline script. */
function addressesIn(html: string): string[] {
  const attributes = [...html.matchAll(/\b(?:src|href)=("[^"]*"|'[^']*'|[^\s>]+)/g)].map((m) => (m[1] ?? "").replace(/^["']|["']$/g, ""));
  const quoted = [...html.matchAll(/"((?:https?:)?\/[^"]*\.(?:js|css))"/g)].map((m) => m[1] ?? "");
  return [...new Set([...attributes, ...quoted])];
}

describe("GraphiQL on /graphql", () => {
  let gw: TestGateway;
  let html = "";

  beforeAll(async () => {
    gw = await createTestGateway("sqlite");
    const response = await gw.request("/graphql", { headers: { accept: "text/html" } });
    expect(response.status).toBe(200);
    html = await response.text();
  });
  afterAll(async () => {
    await gw?.close();
  });

  it("names no other host, only this server's /graphiql/ assets", () => {
    expect(html).toContain("YogaGraphiQL.renderYogaGraphiQL");
    expect(html).not.toMatch(/\/\/[a-z0-9.-]+\.[a-z]{2,}\//i);
    const addresses = addressesIn(html).filter((a) => !a.startsWith("data:"));
    expect(addresses.sort()).toEqual([
      "/graphiql/graphiql.css",
      "/graphiql/monacoeditorwork/editor.worker.bundle.js",
      "/graphiql/monacoeditorwork/graphql.worker..bundle.js",
      "/graphiql/monacoeditorwork/json.worker.bundle.js",
      "/graphiql/yoga-graphiql.umd.js",
    ]);
    expect(html).not.toContain("__TITLE__");
  });

  it("serves each asset the page names, and nothing outside the package's dist folder", async () => {
    const local = addressesIn(html).filter((a) => a.startsWith("/"));
    expect(local).toHaveLength(5);
    for (const address of local) {
      const response = await gw.request(address);
      expect(response.status, address).toBe(200);
      expect(response.headers.get("content-type"), address).toMatch(address.endsWith(".css") ? /^text\/css/ : /^text\/javascript/);
      expect((await response.arrayBuffer()).byteLength, address).toBeGreaterThan(1000);
    }
    expect((await gw.request("/graphiql/../package.json")).status).toBe(404);
    expect((await gw.request("/graphiql/%2e%2e/package.json")).status).toBe(404);
    expect((await gw.request("/graphiql/missing.js")).status).toBe(404);
  });
});

const available = chromiumAvailable();
const title = available ? "GraphiQL in Chromium without internet" : `GraphiQL in Chromium (skipped: no Chromium at ${CHROMIUM})`;
if (!available && process.env.CI) throw new Error(`CI must provide Chromium at ${CHROMIUM}`);

describe.skipIf(!available)(title, () => {
  let server: ServerProcess;
  let browser: Browser;

  beforeAll(async () => {
    const { mkdtemp } = await import("node:fs/promises");
    const { tmpdir } = await import("node:os");
    server = await startServer({ DATA_DIR: await mkdtemp(`${tmpdir()}/gw-graphiql-`) });
    browser = await launchChromium();
  }, 90_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it("renders the editor and runs a query, with every other host refused", async () => {
    const page = await browser.newPage();
    const refused: string[] = [];
    await page.route("**/*", (route) => {
      const url = new URL(route.request().url());
      if (url.origin === server.url) return route.continue();
      refused.push(url.href);
      return route.abort();
    });
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    // GraphiQL takes the query from the address; run it and read the answer from the result pane.
    await page.goto(`${server.url}/graphql?query=${encodeURIComponent("{ __typename }")}`);
    await page.locator(".graphiql-container .monaco-editor").first().waitFor({ timeout: 60_000 });
    expect(await page.title()).toBe("Graph visualization service");
    await page.locator(".graphiql-execute-button").click();
    // The result editor lays the JSON out with non-breaking spaces: compare it with whitespace collapsed.
    const answer = async () => (await page.locator(".graphiql-response").innerText()).replace(/\s+/g, " ");
    await expect.poll(answer, { timeout: 30_000 }).toContain('{ "data": { "__typename": "Query" } }');
    expect(refused).toEqual([]);
    expect(errors).toEqual([]);
  }, 120_000);
});
