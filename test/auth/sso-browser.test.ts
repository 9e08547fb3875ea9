// Single sign-on in Chromium, as a user does it: the sign-in page's provider button, the provider's own login form,
// and back on the account page signed in (the session cookie set by the callback).
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CHROMIUM, chromiumAvailable, launchChromium } from "../web/harness/browser.ts";
import { CLIENT, CREATE_PROVIDER, startWorld, type World } from "./sso-world.ts";

const available = chromiumAvailable();
const title = available ? "single sign-on in Chromium" : `single sign-on in Chromium (skipped: no Chromium at ${CHROMIUM})`;
if (!available) console.warn(`${title}: these browser tests are skipped`);

describe.skipIf(!available)(title, () => {
  let world: World;
  let browser: Browser;

  beforeAll(async () => {
    world = await startWorld("sqlite");
    const created = await world.graphql(
      CREATE_PROVIDER,
      { input: { name: "corp", displayName: "Corp", issuer: world.idp.issuer, clientId: CLIENT.id, clientSecret: CLIENT.secret } },
      world.adminToken,
    );
    expect(created.errors).toBeUndefined();
    browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await world?.close();
  });

  it("signs in with the provider's button and comes back to the page it started from", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      await page.goto(`${world.base}/account`);
      expect(new URL(page.url()).pathname).toBe("/login");
      await page.getByRole("link", { name: "Sign in with Corp" }).click();
      // The provider's own login form.
      await page.waitForURL((url) => url.origin === world.idp.issuer);
      await page.getByPlaceholder("Enter any login").fill("alice");
      await page.getByPlaceholder("and password").fill("whatever");
      await page.getByRole("button", { name: "Sign-in" }).click();
      await page.waitForURL(`${world.base}/account`);
      await expect.poll(() => page.locator("#account-username").textContent()).toBe("alice");
      const cookies = await context.cookies(world.base);
      expect(cookies.find((c) => c.name === "gw_session")?.httpOnly).toBe(true);
      // The one-time state cookie is gone.
      expect(cookies.find((c) => c.name === "gw_sso_state")).toBeUndefined();
    } finally {
      await context.close();
    }
  });

  it("shows a clear error page for a callback opened again after the sign-in (its state cookie is spent)", async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    try {
      let callback = "";
      page.on("request", (request) => {
        if (request.url().includes("/sso/oidc/callback/")) callback = request.url();
      });
      await page.goto(`${world.base}/sso/oidc/login/corp/?next=/account`);
      await page.getByPlaceholder("Enter any login").fill("alice");
      await page.getByPlaceholder("and password").fill("whatever");
      await page.getByRole("button", { name: "Sign-in" }).click();
      await page.waitForURL(`${world.base}/account`);
      const again = await page.goto(callback);
      expect(again?.status()).toBe(403);
      await expect.poll(() => page.getByRole("alert").textContent()).toContain("not started in this browser");
    } finally {
      await context.close();
    }
  });
});
