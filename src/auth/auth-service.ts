// Token flows: password login, personal-key exchange, refresh within the login window, verify.

import { requireMembership } from "../accounts/organizations.ts";
import type { PersonalKeyService } from "../accounts/personal-keys.ts";
import { AppError } from "../errors/app-error.ts";
import type { Db } from "../store/prisma.ts";
import type { Authenticator } from "./authenticator.ts";
import type { BrowserSessions } from "./browser-sessions.ts";
import type { LoginThrottle } from "./login-throttle.ts";
import { verifyPassword } from "./passwords.ts";
import type { TokenClaims, TokenIssuer } from "./tokens.ts";
import type { Viewer } from "./viewer.ts";

export type ActiveOrganization = { slug: string; isFound: boolean; isMember: boolean };

export type AuthResult = {
  token: string;
  claims: TokenClaims;
  userId: number;
  activeOrganization: ActiveOrganization | undefined;
};

export type VerifyResult = { claims: TokenClaims; refreshableUntil: number };

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export type AuthService = ReturnType<typeof createAuthService>;

export function createAuthService(deps: {
  db: Db;
  tokens: TokenIssuer;
  authenticator: Authenticator;
  throttle: LoginThrottle;
  keys: PersonalKeyService;
  browserSessions: BrowserSessions;
}) {
  const { db, tokens, authenticator, throttle } = deps;

  async function withOrg(userId: number, orgName: string | undefined) {
    if (orgName === undefined || orgName === "") return undefined;
    const org = await requireMembership(db, userId, orgName);
    return { slug: org.slug, isFound: true, isMember: true };
  }

  async function issueFor(
    userId: number,
    username: string,
    loginAt: number,
    keyId: string | undefined,
    orgName: string | undefined,
  ): Promise<AuthResult> {
    const activeOrganization = await withOrg(userId, orgName);
    const { token, claims } = await tokens.issue({ userId, username, loginAt, keyId, org: activeOrganization?.slug });
    return { token, claims, userId, activeOrganization };
  }

  /** The user these credentials belong to, or UNAUTHENTICATED; slowed down after repeated failures. */
  async function checkCredentials(input: { username: string; password: string; clientAddress: string }) {
    const delay = throttle.delayFor(input.clientAddress);
    if (delay > 0) await sleep(delay);
    const user = await db.user.findUnique({ where: { username: input.username } });
    // Always one argon2 verification, whether or not the user exists or is active.
    const passwordOk = await verifyPassword(user?.passwordHash, input.password);
    if (!user || !passwordOk || !user.isActive) {
      throttle.recordFailure(input.clientAddress);
      throw new AppError("UNAUTHENTICATED", "Unable to log in with provided credentials.");
    }
    throttle.recordSuccess(input.clientAddress);
    return user;
  }

  async function login(input: { username: string; password: string; orgName?: string | undefined; clientAddress: string }) {
    const user = await checkCredentials(input);
    return issueFor(user.id, user.username, Math.floor(Date.now() / 1000), undefined, input.orgName);
  }

  /** A browser sign-in: a session whose token goes in an HTTP-only cookie. */
  async function signIn(input: { username: string; password: string; clientAddress: string }) {
    const user = await checkCredentials(input);
    return { ...(await deps.browserSessions.create(user.id)), userId: user.id };
  }

  /** Exchanges a personal key (the caller's credential) for a JWT tied to that key. */
  async function exchangeKey(viewer: Viewer | null, orgName: string | undefined) {
    if (viewer?.via !== "key" || viewer.keyId === undefined) {
      throw new AppError("UNAUTHENTICATED", "Send the personal key as `Authorization: PersonalKey <KEY_ID>:<KEY_SECRET>`.");
    }
    void deps.keys.touch(viewer.keyId);
    return issueFor(viewer.userId, viewer.username, Math.floor(Date.now() / 1000), viewer.keyId, orgName);
  }

  async function refresh(token: string) {
    const claims = await tokens.verify(token);
    // A grant's token lasts as long as its grant, and a fresh one would lose its scope.
    if (claims.grant) throw new AppError("FORBIDDEN", "A single-use grant's token is not refreshed; it lasts as long as its grant.");
    if (Date.now() / 1000 > tokens.refreshableUntil(claims)) {
      throw new AppError("TOKEN_EXPIRED", "Token has expired.", {
        details: { reason: "refresh window since login has passed; log in again with full credentials" },
      });
    }
    const user = await authenticator.checkClaims(claims);
    const { token: fresh, claims: freshClaims } = await tokens.issue({ ...claims, userId: user.id, username: user.username });
    return { token: fresh, claims: freshClaims, userId: user.id, activeOrganization: undefined } satisfies AuthResult;
  }

  async function verify(token: string): Promise<VerifyResult> {
    const claims = await tokens.verify(token);
    await authenticator.checkClaims(claims);
    return { claims, refreshableUntil: tokens.refreshableUntil(claims) };
  }

  /** A token for the same login acting in another organization. */
  async function switchOrganization(viewer: Viewer, slug: string) {
    return issueFor(viewer.userId, viewer.username, viewer.loginAt, viewer.keyId, slug);
  }

  return { login, signIn, exchangeKey, refresh, verify, switchOrganization };
}
