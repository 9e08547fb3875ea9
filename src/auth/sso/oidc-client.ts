// The relying party, through openid-client: discovery (cached), the authorization URL (code + PKCE + state + nonce)
// and the code exchange with its ID token checks. Library errors become AppErrors with the right status.
import * as oidc from "openid-client";
import { AppError } from "../../errors/app-error.ts";
import { issuerIsInsecure, type ProviderSecrets } from "./providers.ts";

const DISCOVERY_TTL_MS = 5 * 60 * 1000;
const TIMEOUT_SECONDS = 10;

export type OidcClaims = { subject: string; email: string; emailVerified: boolean; preferredUsername: string; name: string };

/** Whether an error (or one of its causes) is the provider being unreachable rather than refusing. */
function isUnreachable(error: unknown): boolean {
  for (let e = error as { cause?: unknown; name?: string; code?: string; message?: string } | undefined; e; e = e.cause as never) {
    if (e.name === "TimeoutError" || e.name === "AbortError") return true;
    if (typeof e.code === "string" && /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|UND_ERR_)/.test(e.code)) return true;
    if (e.message === "fetch failed") return true;
    if (e instanceof oidc.ResponseBodyError && e.status >= 500) return true;
  }
  return false;
}

function translate(error: unknown, step: string): AppError {
  if (error instanceof AppError) return error;
  if (isUnreachable(error)) {
    return new AppError("UNAVAILABLE", `the identity provider cannot be reached (${step}); try again later`, { cause: error });
  }
  if (error instanceof oidc.AuthorizationResponseError) {
    return new AppError("UNAUTHENTICATED", `the identity provider refused the sign-in: ${error.error}`, {
      details: { reason: error.error, description: error.error_description },
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new AppError("UNAUTHENTICATED", `the identity provider's answer was refused (${step}): ${message}`, { cause: error });
}

export type OidcClient = ReturnType<typeof createOidcClient>;

export function createOidcClient(now: () => number = Date.now) {
  const cache = new Map<string, { at: number; config: Promise<oidc.Configuration> }>();

  function configurationFor(provider: ProviderSecrets): Promise<oidc.Configuration> {
    const key = `${provider.id}:${provider.updatedAt.getTime()}`;
    const hit = cache.get(key);
    if (hit && now() - hit.at < DISCOVERY_TTL_MS) return hit.config;
    const config = oidc
      .discovery(new URL(provider.issuer), provider.clientId, provider.clientSecret, oidc.ClientSecretPost(provider.clientSecret), {
        timeout: TIMEOUT_SECONDS,
        ...(issuerIsInsecure(provider.issuer) ? { execute: [oidc.allowInsecureRequests] } : {}),
      })
      .then((configuration) => {
        configuration.timeout = TIMEOUT_SECONDS;
        return configuration;
      });
    cache.set(key, { at: now(), config });
    // A failed discovery is not kept: the next sign-in tries again.
    config.catch(() => cache.delete(key));
    return config;
  }

  /** A fresh state, nonce and PKCE verifier, and the provider's authorization URL carrying them. */
  async function begin(provider: ProviderSecrets, redirectUri: string) {
    let config: oidc.Configuration;
    try {
      config = await configurationFor(provider);
    } catch (error) {
      throw translate(error, "discovery");
    }
    const state = oidc.randomState();
    const nonce = oidc.randomNonce();
    const codeVerifier = oidc.randomPKCECodeVerifier();
    const authUrl = oidc.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      response_type: "code",
      scope: "openid email profile",
      state,
      nonce,
      code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: "S256",
    });
    return { state, nonce, codeVerifier, authUrl: authUrl.href };
  }

  /** Exchanges the code of the callback URL; checks state, nonce, PKCE and the ID token; answers its claims. */
  async function finish(
    provider: ProviderSecrets,
    callbackUrl: URL,
    checks: { state: string; nonce: string; codeVerifier: string },
  ): Promise<OidcClaims> {
    try {
      const config = await configurationFor(provider);
      const tokens = await oidc.authorizationCodeGrant(config, callbackUrl, {
        pkceCodeVerifier: checks.codeVerifier,
        expectedState: checks.state,
        expectedNonce: checks.nonce,
        idTokenExpected: true,
      });
      const claims = tokens.claims();
      if (!claims) throw new AppError("UNAUTHENTICATED", "the identity provider sent no ID token");
      let info: Record<string, unknown> = claims;
      if (claims.email === undefined && tokens.access_token) {
        // Some providers put e-mail and profile only in the userinfo answer.
        info = { ...(await oidc.fetchUserInfo(config, tokens.access_token, claims.sub)), ...claims };
      }
      const str = (value: unknown) => (typeof value === "string" ? value : "");
      return {
        subject: claims.sub,
        email: str(info.email).toLowerCase(),
        emailVerified: info.email_verified === true || info.email_verified === "true",
        preferredUsername: str(info.preferred_username),
        name: str(info.name),
      };
    } catch (error) {
      throw translate(error, "code exchange");
    }
  }

  return { begin, finish };
}
