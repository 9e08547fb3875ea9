// GET /magic-login/?<SESAME_TOKEN_NAME>=<token>: opens a single-use login link (spec 5.6) — the browser gets a
// session cookie limited to the link's dataset and goes on to that dataset's graph.html.
import type { Hono } from "hono";
import type { Execute } from "../execute.ts";

export const REDEEM_SINGLE_USE = `mutation RedeemSingleUseLink($token: String!) {
  redeemSingleUseLink(token: $token) { token expiresAt datasetId } }`;

export type MagicLoginOptions = {
  execute: Execute;
  /** SESAME_TOKEN_NAME: the query parameter carrying the token. */
  tokenName: string;
  cookieSecure: boolean;
  cookie: { set(token: string, expiresAt: Date, secure: boolean): string };
};

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function refusedPage(message: string): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Login link · Graph visualization service</title></head>
<body style="font: 16px/1.5 system-ui, sans-serif; max-width: 36rem; margin: 4rem auto; color: #1d2330">
<h1 style="font-size: 1.25rem">This login link cannot be used</h1>
<p role="alert">${escapeHtml(message)}</p>
<p>Ask the person who sent it for a new one.</p>
</body>
</html>`;
}

export function addMagicLoginRoute(app: Hono<{ Bindings: { clientAddress: string } }>, options: MagicLoginOptions): void {
  app.get("/magic-login/", async (c) => {
    // The token must not travel on in a Referer header from the answer.
    const headers = { "content-type": "text/html; charset=utf-8", "cache-control": "no-store", "referrer-policy": "no-referrer" };
    const token = c.req.query(options.tokenName);
    if (!token) return new Response(refusedPage(`The link has no ${options.tokenName} parameter.`), { status: 400, headers });
    const result = await options.execute({
      document: REDEEM_SINGLE_USE,
      variables: { token },
      request: c.req.raw,
      clientAddress: c.env.clientAddress,
    });
    const signIn = (result.data as { redeemSingleUseLink?: { token: string; expiresAt: string; datasetId: string } } | null)
      ?.redeemSingleUseLink;
    if (!signIn) {
      const error = result.errors?.[0];
      const known = error?.extensions?.code === "FORBIDDEN";
      return new Response(refusedPage(known ? error.message : "Unexpected error."), { status: known ? 403 : 500, headers });
    }
    return new Response(null, {
      status: 303,
      headers: {
        location: `/graph/graph.html?dataset=${encodeURIComponent(signIn.datasetId)}`,
        "set-cookie": options.cookie.set(signIn.token, new Date(signIn.expiresAt), options.cookieSecure),
        "cache-control": "no-store",
        "referrer-policy": "no-referrer",
      },
    });
  });
}
