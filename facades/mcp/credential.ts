// The credential a tools/call acts with: its Authorization header (a personal key or a JWT, including a single-use
// grant's read-only token), or else the cookie of a browser a single-use link signed in, taken only from a JSON POST
// the browser marks as sent by this site's own page, so that another site's page cannot drive the tools.
import { sameOrigin } from "../same-origin.ts";

export type CallCredential = {
  /** What identifies the credential for reuse on one transport session. */
  key: string;
  /** The headers the call's operations are run with. */
  headers: Record<string, string>;
  /** A browser's cookie: the facade accepts it only for a single-use grant's session. */
  viaCookie: boolean;
};

export function callCredential(request: Request): CallCredential | undefined {
  const authorization = request.headers.get("authorization");
  if (authorization?.trim()) return { key: `authorization ${authorization}`, headers: { authorization }, viaCookie: false };
  const cookie = request.headers.get("cookie");
  const json = (request.headers.get("content-type") ?? "").toLowerCase().startsWith("application/json");
  if (cookie && json && sameOrigin(request)) return { key: `cookie ${cookie}`, headers: { cookie }, viaCookie: true };
  return undefined;
}
