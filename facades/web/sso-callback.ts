// The browser's return from the identity provider (`/sso/oidc/callback/`): finishes the sign-in, sets the browser
// session cookie and goes back to `next`; a notebook's sign-in (pygraphistry) gets a page saying it may go back
// (and no cookie: its token goes to the notebook).
import type { Hono } from "hono";
import { APP_ERROR_CODES, isAppErrorCode } from "../../src/errors/app-error.ts";
import type { Execute } from "../execute.ts";
import { CALLBACK_PATH, clearedSsoStateCookie, ssoStateFrom } from "./sso-state-cookie.ts";

const COMPLETE = `mutation CompleteSsoLogin($query: String!, $browserState: String) {
  completeSsoLogin(query: $query, browserState: $browserState) { clientType next token expiresAt user { username } } }`;

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(title: string, message: string, status: number): Response {
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · Graph visualization service</title></head>
<body><main><h1>${escapeHtml(title)}</h1><p role="${status >= 400 ? "alert" : "status"}">${escapeHtml(message)}</p>
${status >= 400 ? '<p><a href="/login">Back to sign-in</a></p>' : ""}</main></body></html>`;
  return new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}

type Completion = {
  clientType: "BROWSER" | "PYGRAPHISTRY";
  next: string;
  token: string | null;
  expiresAt: string | null;
  user: { username: string };
};

export function addSsoCallbackRoute(
  app: Hono<{ Bindings: { clientAddress: string } }>,
  options: {
    execute: Execute;
    cookieSecure: boolean;
    cookie: { set(token: string, expiresAt: Date, secure: boolean): string };
  },
): void {
  app.get(CALLBACK_PATH, async (c) => {
    const url = new URL(c.req.url);
    const result = await options.execute({
      document: COMPLETE,
      variables: { query: url.search.replace(/^\?/, ""), browserState: ssoStateFrom(c.req.header("cookie")) ?? null },
      request: c.req.raw,
      clientAddress: c.env.clientAddress,
    });
    const clearState = clearedSsoStateCookie(options.cookieSecure);
    const done = (result.data as { completeSsoLogin?: Completion } | null)?.completeSsoLogin;
    if (!done) {
      const error = result.errors?.[0];
      const code = error?.extensions?.code;
      const status = isAppErrorCode(code) ? APP_ERROR_CODES[code] : 500;
      const response = page("Sign-in failed", status === 500 ? "Unexpected error." : (error?.message ?? "Sign-in failed."), status);
      response.headers.append("set-cookie", clearState);
      return response;
    }
    const response =
      done.clientType === "PYGRAPHISTRY"
        ? page(
            "Signed in",
            `Signed in as ${done.user.username}. Your notebook receives its token now; you may close this page and go back to your notebook.`,
            200,
          )
        : new Response(null, { status: 303, headers: { location: done.next, "cache-control": "no-store" } });
    // Only a browser sign-in signs this browser in (a notebook's auth_url may be opened anywhere).
    if (done.token !== null && done.expiresAt !== null) {
      response.headers.append("set-cookie", options.cookie.set(done.token, new Date(done.expiresAt), options.cookieSecure));
    }
    response.headers.append("set-cookie", clearState);
    return response;
  });
}
