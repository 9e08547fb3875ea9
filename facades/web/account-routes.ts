// The account page's routes: GET /account shows it; its forms POST here (create and revoke a personal key, an
// admin's single-use link), each run as the signed-in browser's GraphQL operation. A form POST counts only when the
// browser says it comes from this site (Sec-Fetch-Site or Origin): another site cannot drive these forms.
import type { Context, Hono } from "hono";
import { APP_ERROR_CODES, type AppErrorCode } from "../../src/errors/app-error.ts";
import type { Execute } from "../execute.ts";
import { sameOrigin } from "../same-origin.ts";
import { ACCOUNT, type AccountData, CREATE_KEY, REVOKE_KEY } from "./account-operations.ts";
import { type AccountView, accountPage, DATASETS_PER_PAGE } from "./account-page.ts";
import { asJson } from "./json-request.ts";
import { escapeHtml, pageFrame } from "./page-html.ts";
import { singleUseUrl } from "./single-use-link.ts";

type Env = { Bindings: { clientAddress: string } };
type Result = Awaited<ReturnType<Execute>>;

const NOTICES: Record<string, string> = { "key-revoked": "Key revoked: it no longer signs requests in." };

const html = (body: string, status = 200) =>
  new Response(body, { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });

const codeOf = (result: Result) => result.errors?.[0]?.extensions?.code as AppErrorCode | undefined;
const statusOf = (code: AppErrorCode | undefined) => (code && APP_ERROR_CODES[code]) || 500;

function offsetOf(value: string | undefined): number {
  const n = Number(value ?? 0);
  return Number.isInteger(n) && n > 0 ? n : 0;
}

/** The link as its recipient opens it: on PUBLIC_URL when set (it keeps a path prefix), else on this request's origin. */
function absolute(path: string, request: Request, publicUrl: string | undefined): string {
  return publicUrl === undefined ? new URL(path, request.url).href : `${publicUrl}${path}`;
}

export function addAccountRoutes(app: Hono<Env>, execute: Execute, publicUrl: string | undefined): void {
  const run = (c: Context<Env>, document: string, variables: Record<string, unknown> = {}) =>
    execute({ document, variables, request: asJson(c.req.raw), clientAddress: c.env.clientAddress });

  /** The page for the signed-in browser; a redirect to sign-in without one. */
  async function render(c: Context<Env>, view: Omit<AccountView, "account">, status = 200): Promise<Response> {
    const result = await run(c, ACCOUNT, { limit: DATASETS_PER_PAGE, offset: view.offset });
    const code = codeOf(result);
    if (code === "UNAUTHENTICATED" || code === "TOKEN_EXPIRED") return c.redirect("/login?next=%2Faccount", 303);
    if (result.errors?.length || !result.data) {
      const message = result.errors?.[0]?.message ?? "no data";
      return html(
        pageFrame("Account", `<main><p class="error" role="alert">The account page failed: ${escapeHtml(message)}</p></main>`),
        statusOf(code),
      );
    }
    return html(accountPage({ ...view, account: result.data as AccountData }), status);
  }

  const refused = () =>
    html(
      pageFrame(
        "Refused",
        '<main><p class="error" role="alert">Refused: this form must be sent from the account page of this site.</p></main>',
      ),
      403,
    );

  const form = async (c: Context<Env>) => {
    const body = await c.req.parseBody();
    return (name: string) => (typeof body[name] === "string" ? (body[name] as string).trim() : "");
  };

  app.get("/account", (c) => {
    const notice = NOTICES[c.req.query("notice") ?? ""];
    return render(c, { offset: offsetOf(c.req.query("offset")), notice });
  });

  app.post("/account/keys", async (c) => {
    if (!sameOrigin(c.req.raw)) return refused();
    const field = await form(c);
    const result = await run(c, CREATE_KEY, { name: field("name") });
    const created = (result.data as { createPersonalKey?: { key: { id: string; name: string }; credential: string } } | null)
      ?.createPersonalKey;
    if (!created) {
      const code = codeOf(result);
      if (code === "UNAUTHENTICATED") return c.redirect("/login?next=%2Faccount", 303);
      return render(c, { offset: 0, error: `The key was not created: ${result.errors?.[0]?.message ?? "unknown error"}` }, statusOf(code));
    }
    return render(c, { offset: 0, created: { id: created.key.id, name: created.key.name, credential: created.credential } });
  });

  app.post("/account/keys/revoke", async (c) => {
    if (!sameOrigin(c.req.raw)) return refused();
    const field = await form(c);
    const id = field("id");
    if (!id) return render(c, { offset: 0, error: "Which key? The form sent no key id." }, 400);
    const result = await run(c, REVOKE_KEY, { id });
    const code = codeOf(result);
    if (code === "UNAUTHENTICATED") return c.redirect("/login?next=%2Faccount", 303);
    if (result.errors?.length)
      return render(c, { offset: 0, error: `The key was not revoked: ${result.errors[0]?.message}` }, statusOf(code));
    return c.redirect("/account?notice=key-revoked", 303);
  });

  app.post("/account/single-use-link", async (c) => {
    if (!sameOrigin(c.req.raw)) return refused();
    const field = await form(c);
    const username = field("username");
    const datasetId = field("dataset_id");
    if (!username || !datasetId)
      return render(c, { offset: 0, singleUse: { username, datasetId, error: "Both a username and a dataset ID are needed." } }, 400);
    const outcome = await singleUseUrl((document, variables) => run(c, document, variables), username, datasetId);
    if (outcome.code === "UNAUTHENTICATED") return c.redirect("/login?next=%2Faccount", 303);
    if ("error" in outcome)
      return render(c, { offset: 0, singleUse: { username, datasetId, error: outcome.error } }, statusOf(outcome.code));
    return render(c, { offset: 0, singleUse: { username, datasetId, url: absolute(outcome.url, c.req.raw, publicUrl) } });
  });
}
