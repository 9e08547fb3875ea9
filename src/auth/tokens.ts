// Issues and verifies the service's JWTs (HS256). Each carries the original login time.
import { randomUUID } from "node:crypto";
import { decodeProtectedHeader, type JWTHeaderParameters, errors as joseErrors, jwtVerify, SignJWT } from "jose";
import { AppError } from "../errors/app-error.ts";
import type { JwtKeys } from "./jwt-keys.ts";

const ISSUER = "graphviz-gateway";

export type TokenClaims = {
  userId: number;
  username: string;
  /** Seconds since the epoch of the password or key login this token descends from. */
  loginAt: number;
  issuedAt: number;
  expiresAt: number;
  /** Personal key the login used, if any: revoking the key ends its tokens too. */
  keyId: string | undefined;
  org: string | undefined;
  /**
   * Set on a single-use grant's token (src/auth/single-use/grant-tokens.ts): the dataset it is held to and the
   * browser session of the grant (its stored id), which must still be live for the token to work.
   */
  grant?: { datasetId: string; sessionId: string } | undefined;
};

/** `keys`: the rotating signing keys (jwt-keys.ts); a bare secret signs and verifies alone (no key id). */
export type TokenIssuerOptions = { keys: JwtKeys | Uint8Array; ttlSeconds: number; refreshWindowSeconds: number };

/** A single secret as a keyring that never rotates. */
function fixedKeys(secret: Uint8Array): Pick<JwtKeys, "signing" | "verifying"> {
  return {
    signing: async () => ({ kid: undefined, secret }),
    verifying: async (kid) => (kid === undefined ? secret : undefined),
  };
}

export type IssueInput = Pick<TokenClaims, "userId" | "username" | "loginAt" | "keyId" | "org">;

/** The grant claim, when well formed; a malformed one is refused rather than read as no grant. */
function grantOf(value: unknown): TokenClaims["grant"] {
  if (value === undefined) return undefined;
  const grant = value as { dataset?: unknown; session?: unknown } | null;
  if (typeof grant?.dataset !== "string" || typeof grant.session !== "string") throw new AppError("UNAUTHENTICATED", "Token is malformed.");
  return { datasetId: grant.dataset, sessionId: grant.session };
}

export type TokenIssuer = ReturnType<typeof createTokenIssuer>;

export function createTokenIssuer(options: TokenIssuerOptions) {
  const { ttlSeconds, refreshWindowSeconds } = options;
  const keys = options.keys instanceof Uint8Array ? fixedKeys(options.keys) : options.keys;

  /** The header and secret of a new token: the current key's id in `kid`, when it has one. */
  async function signingKey(): Promise<{ header: JWTHeaderParameters; secret: Uint8Array }> {
    const { kid, secret } = await keys.signing();
    return { header: kid === undefined ? { alg: "HS256", typ: "JWT" } : { alg: "HS256", typ: "JWT", kid }, secret };
  }

  async function issue(input: IssueInput): Promise<{ token: string; claims: TokenClaims }> {
    const signer = await signingKey();
    const issuedAt = Math.floor(Date.now() / 1000);
    const expiresAt = issuedAt + ttlSeconds;
    const payload: Record<string, unknown> = { username: input.username, auth_time: input.loginAt };
    if (input.keyId !== undefined) payload.kid = input.keyId;
    if (input.org !== undefined) payload.org = input.org;
    const token = await new SignJWT(payload)
      .setProtectedHeader(signer.header)
      .setIssuer(ISSUER)
      .setSubject(String(input.userId))
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .setJti(randomUUID())
      .sign(signer.secret);
    return { token, claims: { ...input, issuedAt, expiresAt } };
  }

  /**
   * A read-only token for a single-use grant: it ends when the grant's browser session ends (`expiresAt`), is never
   * refreshed, and carries the dataset and the session it stands for.
   */
  async function issueGrant(input: {
    userId: number;
    username: string;
    datasetId: string;
    sessionId: string;
    expiresAt: Date;
  }): Promise<{ token: string; claims: TokenClaims }> {
    const signer = await signingKey();
    const issuedAt = Math.floor(Date.now() / 1000);
    const expiresAt = Math.floor(input.expiresAt.getTime() / 1000);
    const token = await new SignJWT({
      username: input.username,
      auth_time: issuedAt,
      grant: { dataset: input.datasetId, session: input.sessionId },
    })
      .setProtectedHeader(signer.header)
      .setIssuer(ISSUER)
      .setSubject(String(input.userId))
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAt)
      .setJti(randomUUID())
      .sign(signer.secret);
    const grant = { datasetId: input.datasetId, sessionId: input.sessionId };
    const claims = {
      userId: input.userId,
      username: input.username,
      loginAt: issuedAt,
      issuedAt,
      expiresAt,
      keyId: undefined,
      org: undefined,
      grant,
    };
    return { token, claims };
  }

  /** Verifies signature, issuer and expiry. Throws UNAUTHENTICATED (or TOKEN_EXPIRED) with a reason. */
  async function verify(token: string): Promise<TokenClaims> {
    try {
      const { kid } = decodeProtectedHeader(token);
      // An unknown key id, or one replaced longer ago than the grace period: as a bad signature.
      const secret = typeof kid === "string" || kid === undefined ? await keys.verifying(kid) : undefined;
      if (secret === undefined) throw new AppError("UNAUTHENTICATED", "Token is invalid.");
      const { payload } = await jwtVerify(token, secret, { issuer: ISSUER, algorithms: ["HS256"] });
      const userId = Number(payload.sub);
      if (!Number.isInteger(userId) || typeof payload.auth_time !== "number" || typeof payload.exp !== "number") {
        throw new AppError("UNAUTHENTICATED", "Token is malformed.");
      }
      return {
        userId,
        username: String(payload.username ?? ""),
        loginAt: payload.auth_time,
        issuedAt: payload.iat ?? 0,
        expiresAt: payload.exp,
        keyId: typeof payload.kid === "string" ? payload.kid : undefined,
        org: typeof payload.org === "string" ? payload.org : undefined,
        grant: grantOf(payload.grant),
      };
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof joseErrors.JWTExpired) throw new AppError("TOKEN_EXPIRED", "Token has expired.");
      throw new AppError("UNAUTHENTICATED", "Token is invalid.");
    }
  }

  /** The instant (seconds) after which a token descending from this login can no longer be refreshed. */
  function refreshableUntil(claims: Pick<TokenClaims, "loginAt">): number {
    return claims.loginAt + refreshWindowSeconds;
  }

  return { issue, issueGrant, verify, refreshableUntil, ttlSeconds };
}
