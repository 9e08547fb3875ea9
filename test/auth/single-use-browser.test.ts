// Single-use login links opened in Chromium against two gateway processes on one Postgres database with Redis:
// the link signs the browser in and the dataset's page draws; another dataset is 404 and the rest of the API
// refused; a second use and an expired link are refused; a forced logout on the other instance ends the session.
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "../helpers/databases.ts";
import { type ServerProcess, startServer } from "../helpers/server-process.ts";
import { CHROMIUM, chromiumAvailable, launchChromium } from "../web/harness/browser.ts";
import { ADMIN, bearer, graphql, uploadDataset } from "../web/harness/gateway-session.ts";
import { buildGatewayPage } from "../web/harness/page-build.ts";

const available = chromiumAvailable();
const title = available ? "single-use links in Chromium" : `single-use links in Chromium (skipped: no Chromium at ${CHROMIUM})`;
if (!available) console.warn(`${title}: these browser tests are skipped`);

/** A link's path and query, to open on either instance. */
async function singleUseLink(base: string, auth: Record<string, string>, datasetId: string): Promise<string> {
  const response = await fetch(`${base}/api/v2/generate/single-use-url/?username=guest&dataset_id=${datasetId}`, { headers: auth });
  expect(response.status).toBe(200);
  const url = new URL(((await response.json()) as { single_use_url: string }).single_use_url);
  return `${url.pathname}${url.search}`;
}

describe.skipIf(!available)(title, () => {
  let database: TestDatabase;
  let a: ServerProcess;
  /** SESAME_MAX_AGE=2: its links expire quickly. */
  let b: ServerProcess;
  let browser: Browser;
  let auth: Record<string, string> = {};
  let granted = "";
  let other = "";

  beforeAll(async () => {
    await buildGatewayPage();
    database = await createTestDatabase("postgres");
    const env = {
      ...database.env,
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      REDIS_URL: "redis://127.0.0.1:6379",
      COOKIE_SECURE: "false",
    };
    a = await startServer(env);
    b = await startServer({ ...env, SESAME_MAX_AGE: "2" });
    auth = await bearer(a.url);
    await graphql(a.url, auth, "mutation($i: CreateUserInput!) { createUser(input: $i) { id } }", {
      i: { username: "guest", password: "guest-password-1" },
    });
    granted = await uploadDataset(a.url);
    other = await uploadDataset(a.url);
    browser = await launchChromium();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await Promise.all([a?.stop(), b?.stop()]);
    await database?.drop();
  });

  it("signs in with the link, draws the dataset, refuses everything else, and ends with a forced logout", async () => {
    const link = await singleUseLink(a.url, auth, granted);
    const context = await browser.newContext({ viewport: { width: 1000, height: 700 } });
    const page = await context.newPage();
    // Every GraphQL answer the page itself gets while drawing, to see none was refused.
    const answers: Promise<string>[] = [];
    page.on("response", (response) => {
      if (new URL(response.url()).pathname === "/graphql") answers.push(response.text().catch(() => ""));
    });
    await page.goto(`${a.url}${link}`);
    // Redirected on to the dataset's page, with a session of its own, and the graph drawn.
    await page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 60_000 });
    const landed = new URL(page.url());
    expect(landed.pathname).toBe("/graph/graph.html");
    expect(landed.searchParams.get("dataset")).toBe(granted);
    expect(landed.searchParams.get("session")).toMatch(/\w+/);
    const pageAnswers = await Promise.all(answers);
    expect(pageAnswers.length).toBeGreaterThan(0);
    expect(pageAnswers.filter((text) => text.includes('"errors"'))).toEqual([]);
    const cookies = await context.cookies();
    expect(cookies.find((c) => c.name === "gw_session")?.httpOnly).toBe(true);

    // The same browser session on the other instance: another dataset is missing, lists are refused.
    const elsewhere = await page.goto(`${b.url}/graph/graph.html?dataset=${other}`);
    expect(elsewhere?.status()).toBe(404);
    const refused = await page.evaluate(async () => {
      const response = await fetch("/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "{ datasets(limit: 10, offset: 0) { count } }" }),
      });
      return ((await response.json()) as { errors: { extensions: { code: string } }[] }).errors[0]?.extensions.code;
    });
    expect(refused).toBe("FORBIDDEN");

    // A second opening, in another browser, is refused.
    const second = await browser.newContext();
    const again = await (await second.newPage()).goto(`${a.url}${link}`);
    expect(again?.status()).toBe(403);
    expect(await again?.text()).toContain("already used");
    expect(await second.cookies()).toEqual([]);
    await second.close();

    // Logged out by an admin on B: the page on A is sent to the sign-in form at once.
    const logout = await fetch(`${b.url}/api/v2/logout-user/guest/`, { headers: auth });
    expect(logout.status).toBe(200);
    await page.goto(`${a.url}/graph/graph.html?dataset=${granted}`);
    expect(new URL(page.url()).pathname).toBe("/login");
    await context.close();
  });

  it("refuses an expired link", async () => {
    const link = await singleUseLink(b.url, auth, granted);
    await new Promise((resolve) => setTimeout(resolve, 2_200));
    const context = await browser.newContext();
    const late = await (await context.newPage()).goto(`${a.url}${link}`);
    expect(late?.status()).toBe(403);
    expect(await late?.text()).toContain("expired");
    expect(await context.cookies()).toEqual([]);
    await context.close();
  });
});
