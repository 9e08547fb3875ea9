// The "Assistant token" control against the real gateway in Chromium: a page opened by a single-use link shows it,
// gets a read-only token over the granted dataset from POST /api/v2/auth/grant-token/ (its cookie), shows the expiry
// and copies the token; the token reaches that dataset and writes nothing. A signed-in account's page has no such
// control.
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, chromiumAvailable } from "./harness/browser.ts";
import { bearer, graphql, signIn } from "./harness/gateway-session.ts";
import { type PageGateway, startPageGateway } from "./harness/page-gateway.ts";

const available = chromiumAvailable();
const title = available ? "assistant token in Chromium" : `assistant token in Chromium (skipped: no Chromium at ${CHROMIUM})`;
if (!available) console.warn(`${title}: these browser tests are skipped`);

/** Waits for the page's answer to the control's caller query (the control is added, or not, once it came). */
const callerAnswer = (page: Page) =>
  page.waitForResponse(
    (response) => response.url().endsWith("/graphql") && !!response.request().postData()?.includes("AssistantTokenCaller"),
    {
      timeout: 60_000,
    },
  );

describe.skipIf(!available)(title, () => {
  let gateway: PageGateway;
  let auth: Record<string, string> = {};

  beforeAll(async () => {
    gateway = await startPageGateway("assistant-token");
    auth = await bearer(gateway.server.url);
    await graphql(gateway.server.url, auth, "mutation($i: CreateUserInput!) { createUser(input: $i) { id } }", {
      i: { username: "guest", password: "guest-password-1" },
    });
  }, 180_000);

  afterAll(async () => {
    await gateway?.close();
  });

  it("is not offered to a signed-in account", async () => {
    const { context, page } = await signIn(gateway.browser, gateway.server.url, "admin", "change-me-now");
    const answered = callerAnswer(page);
    await page.goto(`${gateway.server.url}/graph/graph.html?dataset=${gateway.datasetId}`);
    expect(await (await answered).json()).toMatchObject({ data: { caller: { grantDatasetId: null } } });
    await page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 60_000 });
    expect(await page.locator("#assistant-token-toggle").count()).toBe(0);
    await context.close();
  });

  it("gives a single-use session a read-only token over its dataset, with its expiry and a copy button", async () => {
    const base = gateway.server.url;
    const response = await fetch(`${base}/api/v2/generate/single-use-url/?username=guest&dataset_id=${gateway.datasetId}`, {
      headers: auth,
    });
    expect(response.status).toBe(200);
    const link = new URL(((await response.json()) as { single_use_url: string }).single_use_url);
    const context = await gateway.browser.newContext({ viewport: { width: 1000, height: 700 } });
    await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: base });
    const page = await context.newPage();
    await page.goto(`${base}${link.pathname}${link.search}`);
    await page.waitForFunction(() => performance.getEntriesByName("graph-first-frame").length > 0, null, { timeout: 60_000 });
    const toggle = page.locator("#assistant-token-toggle");
    await toggle.waitFor({ timeout: 30_000 });
    await toggle.click();
    const field = page.locator("#assistant-token-value");
    await expect.poll(() => field.inputValue(), { timeout: 30_000 }).not.toBe("");
    const token = await field.inputValue();
    const expires = await page.locator("#assistant-token-expiry").getAttribute("data-expires-at");
    expect(Date.parse(expires ?? "")).toBeGreaterThan(Date.now());
    expect(await page.locator("#assistant-token-expiry").textContent()).toMatch(/^Expires /);

    await page.locator("#assistant-token-copy").click();
    await expect.poll(() => page.locator("#assistant-token-message").textContent(), { timeout: 10_000 }).toBe("Token copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);

    // The token: this dataset, read-only.
    const asToken = { authorization: `Bearer ${token}` };
    const caller = await graphql<{ caller: { grantDatasetId: string } }>(base, asToken, "{ caller { grantDatasetId } }");
    expect(caller.data?.caller.grantDatasetId).toBe(gateway.datasetId);
    const write = await fetch(`${base}/graphql`, {
      method: "POST",
      headers: { ...asToken, "content-type": "application/json" },
      // Opening a session on its own dataset is a write: the browser's session may, its read-only token may not.
      body: JSON.stringify({ query: "mutation($d: ID!) { openVizSession(datasetId: $d) { id } }", variables: { d: gateway.datasetId } }),
    });
    const refused = (await write.json()) as { errors?: { extensions?: { code?: string } }[] };
    expect(refused.errors?.[0]?.extensions?.code).toBe("FORBIDDEN");
    await context.close();
  });
});
