// Turns an Authorization header into a Viewer, checking that the user and the key are still live.
import { AppError } from "../errors/app-error.ts";
import type { Db } from "../store/prisma.ts";
import type { BrowserSessions } from "./browser-sessions.ts";
import { type Credential, parseAuthorization } from "./credentials.ts";
import { secretMatches } from "./personal-keys.ts";
import { createTtlCache, type TtlCache } from "./principal-cache.ts";
import type { RevocationMarks } from "./revocation-marks.ts";
import type { TokenClaims, TokenIssuer } from "./tokens.ts";
import type { Viewer } from "./viewer.ts";

const UNKNOWN_KEY_HASH = "0".repeat(64);

type UserState = {
  id: number;
  username: string;
  isAdmin: boolean;
  isActive: boolean;
  assistantEnabled: boolean;
  tokensValidAfter: number;
};
type KeyState = { id: string; userId: number; secretHash: string; revoked: boolean };

export type Authenticator = ReturnType<typeof createAuthenticator>;

export function createAuthenticator(deps: {
  db: Db;
  tokens: TokenIssuer;
  cacheSeconds: number;
  browserSessions: BrowserSessions;
  /** With Redis: forced-logout marks, read past the cache (src/auth/revocation-marks.ts). */
  revocations?: RevocationMarks | undefined;
}) {
  const { db, tokens } = deps;
  const users = createTtlCache<UserState | null>(deps.cacheSeconds * 1000);
  const keys = createTtlCache<KeyState | null>(deps.cacheSeconds * 1000);

  /**
   * Reads under way, by cache and key: calls arriving together when an entry has expired (many clients on one
   * credential) share one database read instead of each making its own.
   */
  const loading = { users: new Map<string, Promise<UserState | null>>(), keys: new Map<string, Promise<KeyState | null>>() };

  function readShared<V>(cache: TtlCache<V>, pending: Map<string, Promise<V>>, key: string, load: () => Promise<V>): V | Promise<V> {
    const cached = cache.get(key);
    if (cached !== undefined) return cached;
    let read = pending.get(key);
    if (!read) {
      const fresh: Promise<V> = load().then((value) => {
        // a change forgotten while this read ran (forget) leaves the cache to the next read
        if (pending.get(key) === fresh) cache.set(key, value);
        return value;
      });
      read = fresh;
      pending.set(key, fresh);
      void fresh.then(
        () => pending.get(key) === fresh && pending.delete(key),
        () => pending.get(key) === fresh && pending.delete(key),
      );
    }
    return read;
  }

  async function userState(id: number): Promise<UserState | null> {
    return readShared(users, loading.users, String(id), async () => {
      const row = await db.user.findUnique({
        where: { id },
        select: { id: true, username: true, isAdmin: true, isActive: true, assistantEnabled: true, tokensValidAfter: true },
      });
      return row ? { ...row, tokensValidAfter: Math.floor(row.tokensValidAfter.getTime() / 1000) } : null;
    });
  }

  async function keyState(id: string): Promise<KeyState | null> {
    return readShared(keys, loading.keys, id, async () => {
      const row = await db.personalKey.findUnique({ where: { id }, select: { id: true, userId: true, secretHash: true, revokedAt: true } });
      return row ? { id: row.id, userId: row.userId, secretHash: row.secretHash, revoked: row.revokedAt !== null } : null;
    });
  }

  /** A live user for these claims, or UNAUTHENTICATED. */
  async function checkClaims(claims: TokenClaims): Promise<UserState> {
    const user = await userState(claims.userId);
    if (!user?.isActive) throw new AppError("UNAUTHENTICATED", "Token is invalid: the account is disabled or gone.");
    if (claims.issuedAt < user.tokensValidAfter) throw new AppError("UNAUTHENTICATED", "Token was revoked; log in again.");
    const marked = await deps.revocations?.validAfter(user.id);
    if (marked !== undefined && claims.issuedAt < marked) throw new AppError("UNAUTHENTICATED", "Token was revoked; log in again.");
    if (claims.keyId !== undefined) {
      const key = await keyState(claims.keyId);
      if (!key || key.revoked) throw new AppError("UNAUTHENTICATED", "Token is invalid: its personal key was revoked.");
    }
    return user;
  }

  /** Checks a key id and secret; the same error for an unknown key, a wrong secret and a revoked key. */
  async function checkKey(keyId: string, secret: string): Promise<{ key: KeyState; user: UserState }> {
    const key = await keyState(keyId);
    const invalid = () => new AppError("UNAUTHENTICATED", "Personal key is invalid or revoked.");
    // Hash and compare even for an unknown id, so timing does not tell the two apart.
    const matches = secretMatches(key?.secretHash ?? UNKNOWN_KEY_HASH, secret);
    if (!key || !matches || key.revoked) throw invalid();
    const user = await userState(key.userId);
    if (!user?.isActive) throw invalid();
    return { key, user };
  }

  /**
   * The viewer of a single-use grant's token: read-only over the grant's dataset, for as long as the grant's browser
   * session lives (read afresh each time: signing out or a forced logout ends the token at once).
   */
  async function grantViewer(user: UserState, grant: { datasetId: string; sessionId: string }): Promise<Viewer> {
    const session = await deps.browserSessions.byId(grant.sessionId);
    if (!session || session.userId !== user.id || session.grantDatasetId !== grant.datasetId) {
      throw new AppError("UNAUTHENTICATED", "Token was revoked: its single-use grant has ended.");
    }
    return {
      userId: user.id,
      username: user.username,
      isAdmin: false,
      assistantEnabled: user.assistantEnabled,
      via: "jwt",
      keyId: undefined,
      loginAt: Math.floor(Date.now() / 1000),
      org: undefined,
      grant: { datasetId: grant.datasetId, readOnly: true },
    };
  }

  async function fromCredential(credential: Credential): Promise<Viewer> {
    if (credential.kind === "jwt") {
      const claims = await tokens.verify(credential.token);
      const user = await checkClaims(claims);
      if (claims.grant) return grantViewer(user, claims.grant);
      return {
        userId: user.id,
        username: user.username,
        isAdmin: user.isAdmin,
        assistantEnabled: user.assistantEnabled,
        via: "jwt",
        keyId: claims.keyId,
        loginAt: claims.loginAt,
        org: claims.org,
      };
    }
    const { key, user } = await checkKey(credential.keyId, credential.secret);
    const loginAt = Math.floor(Date.now() / 1000);
    return {
      userId: user.id,
      username: user.username,
      isAdmin: user.isAdmin,
      assistantEnabled: user.assistantEnabled,
      via: "key",
      keyId: key.id,
      loginAt,
      org: undefined,
    };
  }

  /** The viewer for a header: null when absent, UNAUTHENTICATED when present but not valid. */
  async function authenticate(header: string | null | undefined): Promise<Viewer | null> {
    const parsed = parseAuthorization(header);
    if (!parsed.ok) throw new AppError(parsed.code, parsed.message);
    return parsed.value === undefined ? null : fromCredential(parsed.value);
  }

  /** The viewer of a browser session cookie; null when the token is unknown, expired, or its user disabled. */
  async function authenticateCookie(token: string | undefined): Promise<Viewer | null> {
    if (!token) return null;
    const session = await deps.browserSessions.validate(token);
    if (!session) return null;
    const user = await userState(session.userId);
    if (!user?.isActive) return null;
    const viewer: Viewer = {
      userId: user.id,
      username: user.username,
      isAdmin: user.isAdmin,
      assistantEnabled: user.assistantEnabled,
      via: "cookie",
      keyId: undefined,
      loginAt: Math.floor(Date.now() / 1000),
      org: undefined,
    };
    // A single-use link's session: that one dataset, no administration; the tool endpoint's read tools over it
    // when the account has the assistant feature (facades/mcp/app.ts).
    if (session.grantDatasetId !== undefined) {
      return { ...viewer, isAdmin: false, grant: { datasetId: session.grantDatasetId, readOnly: false } };
    }
    return viewer;
  }

  /** Forget cached state after a local change (key revoked, user disabled) so it applies at once here. */
  function forget(change: { userId?: number; keyId?: string }): void {
    if (change.userId !== undefined) {
      users.delete(String(change.userId));
      loading.users.delete(String(change.userId));
    }
    if (change.keyId !== undefined) {
      keys.delete(change.keyId);
      loading.keys.delete(change.keyId);
    }
  }

  return { authenticate, authenticateCookie, checkClaims, checkKey, forget };
}
