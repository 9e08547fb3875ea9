// Parses an Authorization header into a JWT or a personal key credential.
import type { Validated } from "../errors/app-error.ts";

export type Credential = { kind: "jwt"; token: string } | { kind: "key"; keyId: string; secret: string };

const JWT_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/;

/**
 * Accepts `Bearer <JWT>`, `PersonalKey <id>:<secret>` and, as the tool endpoint's clients send it,
 * `Bearer <id>:<secret>`. Returns undefined value for an absent header.
 */
export function parseAuthorization(header: string | null | undefined): Validated<Credential | undefined> {
  if (header === null || header === undefined || header.trim() === "") return { ok: true, value: undefined };
  const match = /^\s*(\S+)\s+(\S+)\s*$/.exec(header);
  if (!match) return { ok: false, code: "UNAUTHENTICATED", message: "Authorization header is malformed." };
  const scheme = (match[1] ?? "").toLowerCase();
  const value = match[2] ?? "";
  if (scheme !== "bearer" && scheme !== "personalkey" && scheme !== "jwt") {
    return { ok: false, code: "UNAUTHENTICATED", message: `Unsupported authorization scheme "${match[1]}".` };
  }
  if (scheme !== "personalkey" && JWT_SHAPE.test(value)) return { ok: true, value: { kind: "jwt", token: value } };
  const colon = value.indexOf(":");
  if (scheme !== "jwt" && colon > 0 && colon < value.length - 1) {
    return { ok: true, value: { kind: "key", keyId: value.slice(0, colon), secret: value.slice(colon + 1) } };
  }
  const expected = scheme === "personalkey" ? "<KEY_ID>:<KEY_SECRET>" : "a JWT or <KEY_ID>:<KEY_SECRET>";
  return { ok: false, code: "UNAUTHENTICATED", message: `Authorization credential must be ${expected}.` };
}
