// The "Assistant token" control of a page opened by a single-use link: a button in the top bar (only for such a
// session: GraphQL caller.grantDatasetId is set) that asks POST /api/v2/auth/grant-token/ (the browser's cookie) for
// a read-only token over the grant's dataset, and shows it with a copy button and when it expires.
import { requestGraphQL } from "./graphql-client.ts";
import "./assistant-token.css";

const CALLER = "query AssistantTokenCaller { caller { grantDatasetId } }";

type GrantToken = { token: string; expires_at: string; dataset_id: string };

export type AssistantToken = { readonly button: HTMLButtonElement; readonly panel: HTMLElement };

/** Adds the control to `host` when the caller is a single-use session; resolves undefined otherwise (or on failure). */
export async function attachAssistantToken(host: HTMLElement | null): Promise<AssistantToken | undefined> {
  if (!host) return undefined;
  const answer = await requestGraphQL<{ caller: { grantDatasetId: string | null } | null }>(CALLER, {}).catch(() => undefined);
  if (!answer?.caller?.grantDatasetId) return undefined;
  return createAssistantToken(host);
}

export function createAssistantToken(host: HTMLElement): AssistantToken {
  const button = document.createElement("button");
  button.id = "assistant-token-toggle";
  button.type = "button";
  button.className = "button";
  button.textContent = "Assistant token";
  button.title = "A read-only token for an AI assistant over this dataset, for as long as this link's session lasts";
  button.setAttribute("aria-expanded", "false");
  button.setAttribute("aria-controls", "assistant-token");
  host.append(button);

  const panel = document.createElement("section");
  panel.id = "assistant-token";
  panel.className = "assistant-token";
  panel.setAttribute("aria-label", "Assistant token");
  panel.hidden = true;
  const intro = document.createElement("p");
  intro.textContent = "Give this read-only token to an assistant (Authorization: Bearer …). It reaches this dataset only.";
  const field = document.createElement("input");
  field.id = "assistant-token-value";
  field.readOnly = true;
  field.spellcheck = false;
  field.setAttribute("aria-label", "Read-only token");
  const copy = document.createElement("button");
  copy.id = "assistant-token-copy";
  copy.type = "button";
  copy.className = "button";
  copy.textContent = "Copy";
  copy.disabled = true;
  const row = document.createElement("div");
  row.className = "assistant-token-row";
  row.append(field, copy);
  const expiry = document.createElement("p");
  expiry.id = "assistant-token-expiry";
  const message = document.createElement("p");
  message.id = "assistant-token-message";
  message.setAttribute("role", "status");
  message.setAttribute("aria-live", "polite");
  panel.append(intro, row, expiry, message);
  document.body.append(panel);

  let issued: GrantToken | undefined;
  const issue = async () => {
    message.textContent = "Asking for a token…";
    try {
      const response = await fetch("/api/v2/auth/grant-token/", {
        method: "POST",
        credentials: "same-origin",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: "{}",
      });
      const body = (await response.json().catch(() => undefined)) as (Partial<GrantToken> & { message?: string }) | undefined;
      if (!response.ok || typeof body?.token !== "string" || typeof body.expires_at !== "string") {
        throw new Error(body?.message ?? `the server answered ${response.status}`);
      }
      issued = { token: body.token, expires_at: body.expires_at, dataset_id: String(body.dataset_id ?? "") };
      field.value = issued.token;
      copy.disabled = false;
      const ends = new Date(issued.expires_at);
      expiry.textContent = `Expires ${ends.toLocaleString()}`;
      expiry.dataset.expiresAt = ends.toISOString();
      message.textContent = "";
    } catch (error) {
      message.textContent = `No token: ${error instanceof Error ? error.message : String(error)}`;
    }
  };

  button.addEventListener("click", () => {
    panel.hidden = !panel.hidden;
    button.setAttribute("aria-expanded", String(!panel.hidden));
    // One token per page: asked for the first time the panel opens (or again after a failure).
    if (!panel.hidden && !issued) void issue();
  });
  copy.addEventListener("click", async () => {
    if (!issued) return;
    try {
      await navigator.clipboard.writeText(issued.token);
      message.textContent = "Token copied";
    } catch {
      // Outside a secure context (a gateway on plain HTTP) the Clipboard API is refused: the older copy command.
      field.focus();
      field.select();
      message.textContent = document.execCommand("copy") ? "Token copied" : "Copy the token by hand (it is selected)";
    }
  });
  return { button, panel };
}
