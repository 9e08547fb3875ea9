// The cookie that ties a browser sign-in to the browser that started it: the callback must carry the same state.
/** Where the provider sends the browser back to; the same path as src/auth/sso/sso-service.ts CALLBACK_PATH. */
export const CALLBACK_PATH = "/sso/oidc/callback/";

export const SSO_STATE_COOKIE = "gw_sso_state";

export function ssoStateCookie(state: string, secure: boolean, maxAgeSeconds = 600): string {
  return `${SSO_STATE_COOKIE}=${state}; HttpOnly; SameSite=Lax; Path=${CALLBACK_PATH}; Max-Age=${maxAgeSeconds}${secure ? "; Secure" : ""}`;
}

export function clearedSsoStateCookie(secure: boolean): string {
  return `${SSO_STATE_COOKIE}=; HttpOnly; SameSite=Lax; Path=${CALLBACK_PATH}; Max-Age=0${secure ? "; Secure" : ""}`;
}

export function ssoStateFrom(cookieHeader: string | null | undefined): string | undefined {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === SSO_STATE_COOKIE) return value.join("=") || undefined;
  }
  return undefined;
}
