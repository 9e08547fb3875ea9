// The account page (/account) in Chromium against the real gateway: sign in, create a personal key (its secret shown
// once), use it against the REST API, revoke it (refused at once), open a dataset from the list, the forms' refusals
// (another site's POST, an unknown key, a non-admin's single-use link), an admin's single-use link opened elsewhere,
// sign-out, and single sign-on through a real OpenID Connect provider (oidc-provider, in process) back to the page.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CLIENT, startIdp } from "../auth/sso-world.ts";
import type { ServerProcess } from "../helpers/server-process.ts";
import { CHROMIUM, chromiumAvailable } from "./harness/browser.ts";
import { ADMIN, bearer, graphql } from "./harness/gateway-session.ts";
import { type PageGateway, startPageGateway } from "./harness/page-gateway.ts";

const available = chromiumAvailable();
const title = available ? "the account page" : `the account page (skipped: no Chromium at ${CHROMIUM})`;
if (!available) console.warn(`${title}: these browser tests are skipped`);

const MEMBER = { username: "account-member", password: "member-password-1" };

describe.skipIf(!available)(title, () => {
  let world: PageGateway | undefined;
  let server: ServerProcess;
  let browser: Browser;
  let datasetId = "";

  beforeAll(async () => {
    world = await startPageGateway("account-page");
    ({ server, browser, datasetId } = world);
    const created = await graphql(server.url, await bearer(server.url), "mutation($i: CreateUserInput!) { createUser(input: $i) { id } }", {
      i: MEMBER,
    });
    expect(created.errors).toBeUndefined();
  }, 180_000);

  afterAll(async () => {
    await world?.close();
  });

  /** A fresh browser that opened /account, was sent to sign in, and came back. */
  async function signedIn(user: { username: string; password: string }): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    const page = await context.newPage();
    await page.goto(`${server.url}/account`);
    expect(new URL(page.url()).pathname).toBe("/login");
    expect(new URL(page.url()).searchParams.get("next")).toBe("/account");
    await page.getByLabel("Username").fill(user.username);
    await page.getByLabel("Password").fill(user.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.waitForURL(`${server.url}/account`);
    // The page reads the account after it loads: on a loaded machine that takes more than expect.poll's default second.
    await expect.poll(() => page.locator("#account-username").textContent(), { timeout: 10_000 }).toBe(user.username);
    return { context, page };
  }

  /** The statuses of a dataset listing and of the key-for-JWT exchange, both sent with the key. */
  const restWith = async (credential: string) => {
    const headers = { authorization: `PersonalKey ${credential}` };
    const listed = await fetch(`${server.url}/api/v2/datasets/`, { headers });
    const exchanged = await fetch(`${server.url}/api/v2/auth/pkey/jwt/`, { method: "POST", headers });
    return [listed.status, exchanged.status];
  };

  it("creates a key whose secret is shown once, which the REST API accepts until it is revoked on the page", async () => {
    const { context, page } = await signedIn(ADMIN);
    try {
      await expect.poll(() => page.locator("#no-keys").textContent(), { timeout: 10_000 }).toBe("You have no API keys yet.");
      await page.getByLabel("New key name").fill("laptop notebook");
      await page.getByRole("button", { name: "Create key" }).click();
      const credential = (await page.locator("#new-key-credential").textContent()) ?? "";
      expect(credential).toMatch(/^[^:\s]+:[^:\s]{20,}$/);
      const [keyId, secret] = credential.split(":") as [string, string];
      expect(await page.locator("#new-key").textContent()).toContain("it is not shown again");
      const row = page.locator(`#keys tr[data-key-id="${keyId}"]`);
      expect(await row.locator("td").first().textContent()).toBe("laptop notebook");
      expect(await row.locator(".key-status").textContent()).toBe("Active");

      // The key works against the REST API.
      expect(await restWith(credential)).toEqual([200, 200]);

      // Shown once: the page opened again lists the key, never its secret.
      await page.goto(`${server.url}/account`);
      expect(await page.locator(`#keys tr[data-key-id="${keyId}"] .key-status`).textContent()).toBe("Active");
      expect(await page.locator("#new-key").count()).toBe(0);
      expect(await page.content()).not.toContain(secret);

      // Revoked on the page: the same credential is refused at once.
      await page.getByRole("button", { name: "Revoke key laptop notebook" }).click();
      await page.waitForURL(`${server.url}/account?notice=key-revoked`);
      expect(await page.locator("#account-notice").textContent()).toContain("Key revoked");
      expect(await page.locator(`#keys tr[data-key-id="${keyId}"] .key-status`).textContent()).toBe("Revoked");
      expect(await page.getByRole("button", { name: "Revoke key laptop notebook" }).count()).toBe(0);
      expect(await restWith(credential)).toEqual([401, 401]);
    } finally {
      await context.close();
    }
  });

  it("lists the datasets with links that open them in the graph page", async () => {
    const { context, page } = await signedIn(ADMIN);
    try {
      const row = page.locator(`#datasets tr[data-dataset-id="${datasetId}"]`);
      expect(await row.locator("td").nth(2).textContent()).toBe("30");
      expect(await row.locator("td").nth(5).textContent()).toBe("you");
      const opened = page.waitForResponse((response) => new URL(response.url()).searchParams.has("session"));
      await row.getByRole("link", { name: "Gateway graph" }).click();
      const response = await opened;
      expect(response.status()).toBe(200);
      const url = new URL(page.url());
      expect(url.pathname).toBe("/graph/graph.html");
      expect(url.searchParams.get("dataset")).toBe(datasetId);
      expect(url.searchParams.get("session")).toMatch(/\w+/);
    } finally {
      await context.close();
    }
  });

  it("refuses forms sent by another site, and says why a form failed", async () => {
    const { context, page } = await signedIn(ADMIN);
    try {
      // The session cookie rides along (SameSite=Lax does not stop a same-site origin): the origin check refuses it.
      const forged = await context.request.post(`${server.url}/account/keys`, {
        form: { name: "forged" },
        headers: { origin: "http://attacker.example" },
        maxRedirects: 0,
      });
      // The gateway's origin rule refuses it before the page's own check (CORS_ORIGINS lists no such origin).
      expect(forged.status()).toBe(403);
      expect(await forged.text()).toContain("requests from http://attacker.example are not allowed");
      const unmarked = await context.request.post(`${server.url}/account/keys`, { form: { name: "forged" }, maxRedirects: 0 });
      expect(unmarked.status()).toBe(403);
      expect(await unmarked.text()).toContain("this form must be sent from the account page");
      await page.goto(`${server.url}/account`);
      expect(await page.content()).not.toContain("forged");

      // An unknown key: 404 with the reason on the page.
      const unknown = await context.request.post(`${server.url}/account/keys/revoke`, {
        form: { id: "no-such-key" },
        headers: { origin: server.url },
        maxRedirects: 0,
      });
      expect(unknown.status()).toBe(404);
      expect(await unknown.text()).toContain("The key was not revoked: no personal key with id no-such-key");

      // A name over 200 characters: 400, said on the page, no key made.
      await page.getByLabel("New key name").evaluate((input) => input.removeAttribute("maxlength"));
      await page.getByLabel("New key name").fill("x".repeat(201));
      const [tooLong] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith("/account/keys")),
        page.getByRole("button", { name: "Create key" }).click(),
      ]);
      expect(tooLong.status()).toBe(400);
      expect(await page.getByRole("alert").textContent()).toContain("key name must be at most 200 characters");
      expect(await page.locator("#new-key").count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it("makes an admin's single-use link that opens the dataset in another browser, and says why one was not made", async () => {
    const { context, page } = await signedIn(ADMIN);
    const outsider = await browser.newContext();
    try {
      await page.getByLabel("Dataset ID").fill(datasetId);
      await page.getByLabel("Username", { exact: true }).fill("no-such-user");
      const [missing] = await Promise.all([
        page.waitForResponse((response) => response.url().endsWith("/account/single-use-link")),
        page.getByRole("button", { name: "Make link" }).click(),
      ]);
      expect(missing.status()).toBe(404);
      expect(await page.locator("#single-use-error").textContent()).toMatch(/^No link was made: .*no-such-user/);
      // The form keeps what was typed.
      expect(await page.getByLabel("Dataset ID").inputValue()).toBe(datasetId);

      await page.getByLabel("Username", { exact: true }).fill(MEMBER.username);
      await page.getByRole("button", { name: "Make link" }).click();
      const link = (await page.locator("#single-use-url").textContent()) ?? "";
      expect(link).toMatch(new RegExp(`^${server.url}/magic-login/\\?sst=[\\w-]+$`));

      // Opened by someone else's browser: signed in on that one dataset's graph page.
      const opened = await outsider.newPage();
      await opened.goto(link);
      const url = new URL(opened.url());
      expect(url.pathname).toBe("/graph/graph.html");
      expect(url.searchParams.get("dataset")).toBe(datasetId);
      expect(url.searchParams.get("session")).toMatch(/\w+/);
    } finally {
      await outsider.close();
      await context.close();
    }
  });

  it("shows a member only their own keys, no single-use form, and refuses them a single-use link", async () => {
    const { context, page } = await signedIn(MEMBER);
    try {
      expect(await page.locator("#no-keys").count()).toBe(1);
      expect(await page.locator("#single-use-title").count()).toBe(0);
      const refused = await context.request.post(`${server.url}/account/single-use-link`, {
        form: { username: MEMBER.username, dataset_id: datasetId },
        headers: { origin: server.url },
        maxRedirects: 0,
      });
      expect(refused.status()).toBe(403);
      expect(await refused.text()).not.toContain("/magic-login/");
    } finally {
      await context.close();
    }
  });

  it("signs out: the page asks for sign-in again", async () => {
    const { context, page } = await signedIn(MEMBER);
    try {
      await page.getByRole("button", { name: "Sign out" }).click();
      await page.waitForURL(`${server.url}/login`);
      await page.goto(`${server.url}/account`);
      expect(new URL(page.url()).pathname).toBe("/login");
    } finally {
      await context.close();
    }
  });

  it("offers one sign-in button per configured single sign-on provider; signing in there comes back to the account page", async () => {
    const idp = await startIdp([`${server.url}/sso/oidc/callback/`]);
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${server.url}/account`);
      expect(await page.locator("nav[aria-label='Single sign-on']").count()).toBe(0);

      const auth = await bearer(server.url);
      const created = await graphql(server.url, auth, "mutation($i: SsoProviderInput!) { createSsoProvider(input: $i) { name } }", {
        i: { name: "corp", displayName: "Corp ID", issuer: idp.issuer, clientId: CLIENT.id, clientSecret: CLIENT.secret },
      });
      expect(created.errors).toBeUndefined();
      await page.goto(`${server.url}/account`);
      const button = page.getByRole("navigation", { name: "Single sign-on" }).getByRole("link", { name: "Sign in with Corp ID" });
      expect(await button.getAttribute("href")).toBe("/sso/oidc/login/corp/?next=%2Faccount");
      // Password sign-in is still there beside it, and the client secret is nowhere on the page.
      expect(await page.getByLabel("Password").count()).toBe(1);
      expect(await page.content()).not.toContain(CLIENT.secret);

      // At the provider (oidc-provider's own login form), then back: signed in, on the account page.
      await button.click();
      await page.waitForURL((url) => url.origin === idp.issuer);
      await page.locator("input[name=login]").fill("alice");
      await page.locator("input[name=password]").fill("any-password");
      await page.locator("button[type=submit]").click();
      await page.waitForURL(`${server.url}/account`);
      expect(await page.locator("#account-username").textContent()).toMatch(/alice/);
      expect(await page.locator("#no-keys").count()).toBe(1);
    } finally {
      await context.close();
      await idp.close();
    }
  });
});
