// The sign-in page: a plain form that posts to /login and comes back to where the visit started.
const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export function loginPage(next: string, failed: boolean): string {
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
</style>
</head>
<body>
<form method="post" action="/login">
  <h1>Sign in</h1>
  ${failed ? '<p class="error" role="alert">Unable to sign in with those credentials.</p>' : ""}
  <input type="hidden" name="next" value="${escapeHtml(next)}">
  <label for="username">Username</label>
  <input id="username" name="username" autocomplete="username" required autofocus>
  <label for="password">Password</label>
  <input id="password" name="password" type="password" autocomplete="current-password" required>
  <button type="submit">Sign in</button>
</form>
</body>
</html>`;
}
