// The single sign-on flow: start (state, nonce, PKCE; redirect to the provider), complete (the browser's callback:
// code exchange, account, browser session) and collect (the JWT for a state, once).
import { timingSafeEqual } from "node:crypto";
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeHexLowerCase } from "@oslojs/encoding";
import { AppError } from "../../errors/app-error.ts";
import { safeNext } from "../../http/safe-next.ts";
import type { Db } from "../../store/prisma.ts";
import type { BrowserSessions } from "../browser-sessions.ts";
import type { TokenClaims, TokenIssuer } from "../tokens.ts";
import { accountFor } from "./accounts.ts";
import type { OidcClient } from "./oidc-client.ts";
import type { SsoProviders } from "./providers.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

export type SsoClientType = "browser" | "pygraphistry";

export type SsoStarted = { state: string; authUrl: string };

export type SsoCompleted = {
  clientType: SsoClientType;
  next: string;
  userId: number;
  /** The browser session, for browser sign-ins only: a notebook's sign-in hands its JWT to the notebook alone. */
  session: { token: string; expiresAt: Date } | undefined;
};

export type SsoCollected =
  | { status: "PENDING" }
  | {
      status: "OK";
      token: string;
      claims: TokenClaims;
      userId: number;
      activeOrganization: { slug: string; isFound: boolean; isMember: boolean } | undefined;
    };

/** Where the provider sends the browser back to (the redirect URI registered at the provider). */
export const CALLBACK_PATH = "/sso/oidc/callback/";

const hashOf = (state: string) => encodeHexLowerCase(sha256(new TextEncoder().encode(state)));

function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

export type SsoService = ReturnType<typeof createSsoService>;

export function createSsoService(deps: {
  db: Db;
  providers: SsoProviders;
  oidc: OidcClient;
  tokens: TokenIssuer;
  browserSessions: BrowserSessions;
  /** PUBLIC_URL; absent, the callback URL is built on the origin the login request came to. */
  publicUrl: string | undefined;
  /** How long a sign-in may take, from the redirect to collecting its JWT. */
  stateTtlSeconds?: number;
  now?: () => number;
}) {
  const { db, providers, oidc, tokens, browserSessions } = deps;
  const now = deps.now ?? Date.now;
  const ttlMs = (deps.stateTtlSeconds ?? 600) * 1000;

  async function start(input: {
    provider?: string | undefined;
    organization?: string | undefined;
    clientType: SsoClientType;
    next?: string | undefined;
    origin: string;
  }): Promise<SsoStarted> {
    const provider = await providers.resolve({ name: input.provider, organization: input.organization });
    const base = (deps.publicUrl ?? input.origin).replace(/\/$/, "");
    const redirectUri = `${base}${CALLBACK_PATH}`;
    const begun = await oidc.begin(provider, redirectUri);
    // Records are kept a day past their expiry (for clear "expired" answers), then purged.
    await db.ssoLogin.deleteMany({ where: { expiresAt: { lt: new Date(now() - DAY_MS) } } });
    await db.ssoLogin.create({
      data: {
        id: hashOf(begun.state),
        providerId: provider.id,
        codeVerifier: begun.codeVerifier,
        nonce: begun.nonce,
        redirectUri,
        clientType: input.clientType,
        next: safeNext(input.next),
        expiresAt: new Date(now() + ttlMs),
      },
    });
    return { state: begun.state, authUrl: begun.authUrl };
  }

  /**
   * The provider's redirect back: `query` is the callback's query string; `browserState` the state cookie set when
   * this browser started the sign-in (required for browser sign-ins, which a notebook's auth_url is not).
   */
  async function complete(input: { query: string; browserState?: string | undefined }): Promise<SsoCompleted> {
    const params = new URLSearchParams(input.query);
    const state = params.get("state");
    if (!state) throw new AppError("INVALID_INPUT", "the callback carries no state", { details: { field: "state" } });
    const id = hashOf(state);
    const login = await db.ssoLogin.findUnique({ where: { id } });
    if (!login) throw new AppError("INVALID_INPUT", "unknown sign-in state; start the sign-in again", { details: { field: "state" } });
    if (login.clientType === "browser" && !(input.browserState !== undefined && sameText(input.browserState, state))) {
      throw new AppError("FORBIDDEN", "this sign-in was not started in this browser; start it again", {
        details: { field: "state", reason: "state_mismatch" },
      });
    }
    if (login.status !== "pending") {
      throw new AppError("CONFLICT", "this sign-in state was already used; start the sign-in again", {
        details: { field: "state", reason: "replayed" },
      });
    }
    if (login.expiresAt.getTime() <= now()) {
      throw new AppError("TOKEN_EXPIRED", "this sign-in took too long and expired; start it again", {
        details: { field: "state", reason: "expired" },
      });
    }
    // Claimed once: of two callbacks with one state, only one goes on.
    const claimed = await db.ssoLogin.updateMany({ where: { id, status: "pending" }, data: { status: "exchanging" } });
    if (claimed.count !== 1) {
      throw new AppError("CONFLICT", "this sign-in state was already used; start the sign-in again", {
        details: { field: "state", reason: "replayed" },
      });
    }
    try {
      const provider = await providers.byId(login.providerId);
      const callbackUrl = new URL(login.redirectUri);
      callbackUrl.search = params.toString();
      const claims = await oidc.finish(provider, callbackUrl, { state, nonce: login.nonce, codeVerifier: login.codeVerifier });
      const user = await accountFor(db, provider, claims);
      const session = login.clientType === "browser" ? await browserSessions.create(user.id) : undefined;
      await db.ssoLogin.update({ where: { id }, data: { status: "done", userId: user.id } });
      return { clientType: login.clientType as SsoClientType, next: login.next, userId: user.id, session };
    } catch (error) {
      await db.ssoLogin.update({ where: { id }, data: { status: "failed" } }).catch(() => {});
      throw error;
    }
  }

  /** The JWT of a finished sign-in, answered once; PENDING while the browser is still at the provider. */
  async function collect(state: string): Promise<SsoCollected> {
    const id = hashOf(state);
    const login = await db.ssoLogin.findUnique({ where: { id }, include: { provider: { include: { organization: true } } } });
    if (!login) throw new AppError("NOT_FOUND", "unknown sign-in state");
    if (login.status === "collected") {
      throw new AppError("CONFLICT", "the token of this sign-in was already collected", { details: { reason: "replayed" } });
    }
    if (login.status === "failed") throw new AppError("UNAUTHENTICATED", "this sign-in failed; start it again");
    if (login.expiresAt.getTime() <= now()) {
      throw new AppError("TOKEN_EXPIRED", "this sign-in expired; start it again", { details: { reason: "expired" } });
    }
    if (login.status !== "done" || login.userId === null) return { status: "PENDING" };
    const taken = await db.ssoLogin.updateMany({ where: { id, status: "done" }, data: { status: "collected" } });
    if (taken.count !== 1) {
      throw new AppError("CONFLICT", "the token of this sign-in was already collected", { details: { reason: "replayed" } });
    }
    const user = await db.user.findUnique({ where: { id: login.userId } });
    if (!user?.isActive) throw new AppError("UNAUTHENTICATED", "this account is no longer active");
    const slug = login.provider.organization?.slug;
    const { token, claims } = await tokens.issue({
      userId: user.id,
      username: user.username,
      loginAt: Math.floor(now() / 1000),
      keyId: undefined,
      org: slug,
    });
    const activeOrganization = slug === undefined ? undefined : { slug, isFound: true, isMember: true };
    return { status: "OK", token, claims, userId: user.id, activeOrganization };
  }

  return { start, complete, collect, providers };
}
