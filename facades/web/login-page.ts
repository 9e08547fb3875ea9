// The sign-in page: a plain form that posts to /login and comes back to where the visit started, and one button per
// configured single sign-on provider.
import { escapeHtml } from "./page-html.ts";

/** A single sign-on provider as GraphQL `ssoProviders` lists it. */
export type SsoButton = { name: string; displayName: string; loginUrl: string; organization: string | null };

/** The provider's login URL with `next` added, so the browser comes back to where the visit started. */
function ssoHref(provider: SsoButton, next: string): string {
  return `${provider.loginUrl}${provider.loginUrl.includes("?") ? "&" : "?"}next=${encodeURIComponent(next)}`;
}

function ssoButtons(providers: readonly SsoButton[], next: string): string {
  if (providers.length === 0) return "";
  const items = providers
    .map((provider) => {
      const label = provider.organization ? `${provider.displayName} (${provider.organization})` : provider.displayName;
      return `<li><a class="sso" href="${escapeHtml(ssoHref(provider, next))}">Sign in with ${escapeHtml(label)}</a></li>`;
    })
    .join("");
  return `<nav aria-label="Single sign-on"><p class="or">or</p><ul class="sso-list">${items}</ul></nav>`;
}

/** Why the form is shown again: wrong credentials, or a service that cannot sign anyone in just now. */
export type LoginProblem = "failed" | "unavailable" | "limited" | undefined;

const PROBLEMS = {
  failed: "Unable to sign in with those credentials.",
  unavailable: "The service cannot sign anyone in right now (it cannot reach its database). Please try again in a moment.",
  limited: "Too many sign-in attempts for this account or from this address. Please wait a minute and try again.",
};

export function loginPage(next: string, problem: LoginProblem, providers: readonly SsoButton[] = []): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · Graph visualization service</title>
<style>
  body { font: 16px/1.5 system-ui, sans-serif; background: #f4f6fa; color: #1d2330; display: grid; place-items: center; min-height: 100vh; margin: 0; }
  form { background: #fff; padding: 2rem 2.25rem; border-radius: 10px; box-shadow: 0 6px 24px rgba(20, 30, 60, .08); width: 20rem; }
  h1 { font-size: 1.25rem; margin: 0 0 1.25rem; }
  label { display: block; font-size: .85rem; margin: .75rem 0 .25rem; color: #4a5468; }
  input { width: 100%; box-sizing: border-box; padding: .55rem .65rem; border: 1px solid #cfd5e1; border-radius: 6px; font: inherit; }
  button { margin-top: 1.25rem; width: 100%; padding: .6rem; border: 0; border-radius: 6px; background: #2f5bd3; color: #fff; font: inherit; cursor: pointer; }
  .error { color: #b3261e; font-size: .9rem; margin: 0 0 .5rem; }
  .or { text-align: center; color: #5f6b82; font-size: .85rem; margin: 1rem 0 .5rem; }
  .sso-list { list-style: none; padding: 0; margin: 0; }
  a.sso { display: block; text-align: center; margin-top: .5rem; padding: .55rem; border: 1px solid #2f5bd3; border-radius: 6px; color: #2f5bd3; text-decoration: none; }
</style>
</head>
<body>
<form method="post" action="/login">
  <h1>Sign in</h1>
  ${problem ? `<p class="error" role="alert">${PROBLEMS[problem]}</p>` : ""}
  <input type="hidden" name="next" value="${escapeHtml(next)}">
  <label for="username">Username</label>
  <input id="username" name="username" autocomplete="username" required autofocus>
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Sign in</button>
  ${ssoButtons(providers, next)}
</form>
</body>
</html>`;
}
