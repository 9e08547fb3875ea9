// The account page: who is signed in and sign-out, "Manage API Keys" (create with the secret shown once, list,
// revoke), the datasets the user can open, and for admins the single-use link form. Plain HTML forms: it works
// without scripts and without the graph page.
import type { AccountData, DatasetRow, KeyRow } from "./account-operations.ts";
import { escapeHtml, pageFrame } from "./page-html.ts";

export const DATASETS_PER_PAGE = 25;

export type AccountView = {
  account: AccountData;
  /** The first dataset shown (paging through the list). */
  offset: number;
  /** A key just created: its credential is shown this once. */
  created?: { id: string; name: string; credential: string };
  notice?: string;
  error?: string;
  /** The admin form's outcome and the values to show in it again. */
  singleUse?: { url?: string; error?: string; username: string; datasetId: string };
};

function when(iso: string | null): string {
  if (!iso) return "never";
  return `<time datetime="${escapeHtml(iso)}">${escapeHtml(iso.slice(0, 16).replace("T", " "))} UTC</time>`;
}

function keyRow(key: KeyRow): string {
  const action = key.isActive
    ? `<form method="post" action="/account/keys/revoke">
        <input type="hidden" name="id" value="${escapeHtml(key.id)}">
        <button type="submit" class="danger" aria-label="Revoke key ${escapeHtml(key.name || key.id)}">Revoke</button>
      </form>`
    : "";
  return `<tr data-key-id="${escapeHtml(key.id)}">
    <td>${key.name ? escapeHtml(key.name) : '<span class="muted">(no name)</span>'}</td>
    <td><code>${escapeHtml(key.id)}</code></td>
    <td>${when(key.createdAt)}</td>
    <td>${when(key.lastUsedAt)}</td>
    <td class="key-status">${key.isActive ? "Active" : "Revoked"}</td>
    <td>${action}</td>
  </tr>`;
}

function keysSection(view: AccountView): string {
  const keys = view.account.myPersonalKeys;
  const created = view.created
    ? `<div class="secret" id="new-key" role="status">
        <p>Key <strong>${escapeHtml(view.created.name || view.created.id)}</strong> created. Copy its credential now: it is not shown again.</p>
        <p><output id="new-key-credential" aria-label="New key credential">${escapeHtml(view.created.credential)}</output></p>
        <p class="muted">Send it as <code>Authorization: PersonalKey ${escapeHtml(view.created.credential.split(":")[0] ?? "")}:…</code>
        with any request, or to <code>api/v2/auth/pkey/jwt/</code> for a JWT (pygraphistry: <code>personal_key_id</code> and
        <code>personal_key_secret</code>).</p>
      </div>`
    : "";
  const table = keys.length
    ? `<table id="keys">
        <caption class="muted" style="text-align:left">Secrets are stored hashed and never shown after creation.</caption>
        <thead><tr><th scope="col">Name</th><th scope="col">Key ID</th><th scope="col">Created</th><th scope="col">Last used</th><th scope="col">Status</th><th scope="col"><span class="muted">Action</span></th></tr></thead>
        <tbody>${keys.map(keyRow).join("")}</tbody>
      </table>`
    : '<p id="no-keys" class="muted">You have no API keys yet.</p>';
  return `<section aria-labelledby="keys-title">
    <h2 id="keys-title">Manage API Keys</h2>
    ${created}
    <form method="post" action="/account/keys" class="row">
      <div><label for="key-name">New key name</label><input id="key-name" name="name" maxlength="200" placeholder="e.g. laptop notebook"></div>
      <button type="submit">Create key</button>
    </form>
    ${table}
  </section>`;
}

function datasetRow(dataset: DatasetRow, callerId: number): string {
  const href = `/graph/graph.html?dataset=${encodeURIComponent(dataset.id)}`;
  const count = (n: number | null) => (n === null ? "—" : String(n));
  return `<tr data-dataset-id="${escapeHtml(dataset.id)}">
    <td><a href="${escapeHtml(href)}">${escapeHtml(dataset.name || dataset.id)}</a></td>
    <td><code>${escapeHtml(dataset.id)}</code></td>
    <td>${count(dataset.nodeCount)}</td>
    <td>${count(dataset.edgeCount)}</td>
    <td>${when(dataset.createdAt)}</td>
    <td>${dataset.author === callerId ? "you" : "shared with you"}</td>
  </tr>`;
}

function datasetsSection(view: AccountView): string {
  const { count, items } = view.account.datasets;
  const callerId = view.account.caller.id;
  const from = view.offset;
  const paging = [
    from > 0 ? `<a href="/account?offset=${Math.max(0, from - DATASETS_PER_PAGE)}" rel="prev">Newer</a>` : "",
    from + items.length < count ? `<a href="/account?offset=${from + DATASETS_PER_PAGE}" rel="next">Older</a>` : "",
  ]
    .filter(Boolean)
    .join(" · ");
  const body = items.length
    ? `<table id="datasets">
        <thead><tr><th scope="col">Name</th><th scope="col">Dataset ID</th><th scope="col">Nodes</th><th scope="col">Edges</th><th scope="col">Created</th><th scope="col">Owner</th></tr></thead>
        <tbody>${items.map((dataset) => datasetRow(dataset, callerId)).join("")}</tbody>
      </table>
      <p class="muted">${from + 1}–${from + items.length} of ${count}${paging ? ` · ${paging}` : ""}</p>`
    : `<p id="no-datasets" class="muted">${count === 0 ? "No datasets yet: upload one with pygraphistry or the REST API." : "No more datasets."}${paging ? ` ${paging}` : ""}</p>`;
  return `<section aria-labelledby="datasets-title">
    <h2 id="datasets-title">Datasets</h2>
    <p class="muted">Yours and those shared with you, newest first. Open one to view it in the graph page.</p>
    ${body}
  </section>`;
}

function singleUseSection(view: AccountView): string {
  const state = view.singleUse;
  const outcome = state?.url
    ? `<p role="status">Single-use link for <strong>${escapeHtml(state.username)}</strong>:
        <output id="single-use-url" aria-label="Single-use link"><a href="${escapeHtml(state.url)}">${escapeHtml(state.url)}</a></output></p>`
    : state?.error
      ? `<p id="single-use-error" class="error" role="alert">${escapeHtml(state.error)}</p>`
      : "";
  return `<section aria-labelledby="single-use-title">
    <h2 id="single-use-title">Single-use link</h2>
    <p class="muted">Administrators: a link that signs its opener in as the user, with access to that one dataset only.</p>
    <form method="post" action="/account/single-use-link" class="row">
      <div><label for="single-use-username">Username</label><input id="single-use-username" name="username" required value="${escapeHtml(state?.username ?? "")}"></div>
      <div><label for="single-use-dataset">Dataset ID</label><input id="single-use-dataset" name="dataset_id" required value="${escapeHtml(state?.datasetId ?? "")}"></div>
      <button type="submit">Make link</button>
    </form>
    ${outcome}
  </section>`;
}

export function accountPage(view: AccountView): string {
  const { caller } = view.account;
  const body = `<main>
  <header>
    <h1>Your account</h1>
    <form method="post" action="/logout" class="row">
      <span>Signed in as <strong id="account-username">${escapeHtml(caller.username)}</strong>${caller.isAdmin ? " (administrator)" : ""}</span>
      <button type="submit" class="secondary">Sign out</button>
    </form>
  </header>
  ${view.notice ? `<p id="account-notice" class="notice" role="status">${escapeHtml(view.notice)}</p>` : ""}
  ${view.error ? `<p id="account-error" class="error" role="alert">${escapeHtml(view.error)}</p>` : ""}
  ${keysSection(view)}
  ${datasetsSection(view)}
  ${caller.isAdmin ? singleUseSection(view) : ""}
</main>`;
  return pageFrame("Your account", body);
}
