// Browser routes: sign-in and sign-out with an HTTP-only cookie, and graph.html's open-or-join-a-session redirect.
import { Hono } from "hono";
import { APP_ERROR_CODES, isAppErrorCode } from "../../src/errors/app-error.ts";
import { safeNext } from "../../src/http/safe-next.ts";
import type { Execute } from "../execute.ts";
import { addAccountRoutes } from "./account-routes.ts";
import { asJson } from "./json-request.ts";
import { loginPage } from "./login-page.ts";
import { addMagicLoginRoute } from "./magic-login.ts";
import { CREATE_COLLECTION, OPEN_SESSION, SESSION, SIGN_IN, SIGN_OUT } from "./operations.ts";
import { escapeHtml } from "./page-html.ts";
import { addSsoCallbackRoute } from "./sso-callback.ts";
import { ssoProviders } from "./sso-providers.ts";
import { readUrlCollections } from "./url-collections.ts";

export type WebFacadeOptions = {
  execute: Execute;
  cookieSecure: boolean;
  /** How the session cookie is written and cleared (src/auth/browser-sessions.ts). */
  cookie: { set(token: string, expiresAt: Date, secure: boolean): string; clear(secure: boolean): string };
  /** The built graph.html (with its assets under /graph/), or undefined when the page is not built. */
  servePage(request: Request): Promise<Response | undefined>;
  /** SESAME_TOKEN_NAME: the query parameter of single-use login links (`sst` when absent). */
  singleUseTokenName?: string | undefined;
  /** Public base URL (PUBLIC_URL) for the links the account page hands out; absent, the request's own origin. */
  publicUrl?: string | undefined;
};

type Env = { Bindings: { clientAddress: string } };

const codeOf = (result: { errors?: readonly { extensions?: Record<string, unknown> }[] }) =>
  result.errors?.[0]?.extensions?.code as string | undefined;

export function createWebFacade(options: WebFacadeOptions): Hono<Env> {
  const app = new Hono<Env>({ strict: true });
  const html = (body: string, status = 200) =>
    new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });

  app.get("/login", async (c) => {
    // Password sign-in stays on offer when the provider list cannot be read.
    const providers = await ssoProviders(options.execute, c.req.raw, c.env.clientAddress).catch(() => []);
    return html(loginPage(safeNext(c.req.query("next")), c.req.query("error") !== undefined ? "failed" : undefined, providers));
  });

  app.post("/login", async (c) => {
    const form = await c.req.parseBody();
    const next = safeNext(form.next);
    const result = await options.execute({
      document: SIGN_IN,
      variables: { username: String(form.username ?? ""), password: String(form.password ?? "") },
      request: c.req.raw,
      clientAddress: c.env.clientAddress,
    });
    const signIn = (result.data as { signIn?: { token: string; expiresAt: string } } | null)?.signIn;
    if (!signIn && codeOf(result) === "UNAVAILABLE") {
      const page = html(loginPage(next, "unavailable"), 503);
      page.headers.set("retry-after", "5");
      return page;
    }
    if (!signIn && codeOf(result) === "RATE_LIMITED") {
      const page = html(loginPage(next, "limited"), 429);
      const retry = (result.errors?.[0]?.extensions?.details as { retryAfterSeconds?: number } | undefined)?.retryAfterSeconds;
      page.headers.set("retry-after", String(retry ?? 60));
      return page;
    }
    if (!signIn) return c.redirect(`/login?error=1&next=${encodeURIComponent(next)}`, 303);
    c.header("set-cookie", options.cookie.set(signIn.token, new Date(signIn.expiresAt), options.cookieSecure));
    return c.redirect(next, 303);
  });

  app.post("/logout", async (c) => {
    await options.execute({ document: SIGN_OUT, request: asJson(c.req.raw), clientAddress: c.env.clientAddress });
    c.header("set-cookie", options.cookie.clear(options.cookieSecure));
    return c.redirect("/login", 303);
  });

  app.get("/graph/graph.html", async (c) => {
    const url = new URL(c.req.url);
    const here = `${url.pathname}${url.search}`;
    const datasetId = url.searchParams.get("dataset");
    const sessionId = url.searchParams.get("session");
    if (!datasetId && !sessionId) return html("<!doctype html><p>graph.html needs a <code>dataset</code> parameter.</p>", 400);
    const result = sessionId
      ? await options.execute({
          document: SESSION,
          variables: { id: sessionId },
          request: asJson(c.req.raw),
          clientAddress: c.env.clientAddress,
        })
      : await options.execute({
          document: OPEN_SESSION,
          variables: { datasetId },
          request: asJson(c.req.raw),
          clientAddress: c.env.clientAddress,
        });
    const code = codeOf(result);
    // An expired or revoked credential is no credential: sign in again.
    if (code === "UNAUTHENTICATED" || code === "TOKEN_EXPIRED") return c.redirect(`/login?next=${encodeURIComponent(here)}`, 302);
    if (code === "NOT_FOUND" || code === "FORBIDDEN")
      return html("<!doctype html><p>No such dataset or session, or it is not shared with you.</p>", 404);
    if (result.errors?.length) {
      // The caller's own mistakes and passing conditions keep their status (400, 429, 503...); only the rest is a 500.
      const status = isAppErrorCode(code) ? APP_ERROR_CODES[code] : 500;
      const message = status === 500 ? "Unexpected error." : escapeHtml(result.errors[0]?.message ?? "");
      return html(`<!doctype html><p>${message}</p>`, status);
    }
    if (!sessionId) {
      // Every parameter the client sent (type, viztoken, usertag, splashAfter, collections...) is kept.
      const opened = (result.data as { openVizSession: { id: string } }).openVizSession.id;
      // The sets pygraphistry put in `collections` become the new session's collections, in order.
      const { sets } = readUrlCollections(url.searchParams.get("collections"));
      for (const set of sets) {
        await options.execute({
          document: CREATE_COLLECTION,
          variables: { input: { sessionId: opened, ...set } },
          request: asJson(c.req.raw),
          clientAddress: c.env.clientAddress,
        });
      }
      url.searchParams.set("session", opened);
      return c.redirect(`${url.pathname}${url.search}`, 302);
    }
    return (
      (await options.servePage(c.req.raw)) ?? html("<!doctype html><p>The page is not built: run <code>npm run build:web</code>.</p>", 503)
    );
  });

  addAccountRoutes(app, options.execute, options.publicUrl);

  addSsoCallbackRoute(app, { execute: options.execute, cookieSecure: options.cookieSecure, cookie: options.cookie });

  addMagicLoginRoute(app, {
    execute: options.execute,
    tokenName: options.singleUseTokenName ?? "sst",
    cookieSecure: options.cookieSecure,
    cookie: options.cookie,
  });

  return app;
}
