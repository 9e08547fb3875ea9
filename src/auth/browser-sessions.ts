// Browser sign-in sessions, after Lucia's guide: a random token in an HTTP-only cookie, only its SHA-256 stored.
import { sha256 } from "@oslojs/crypto/sha2";
import { encodeBase32LowerCaseNoPadding, encodeHexLowerCase } from "@oslojs/encoding";
import type { Db } from "../store/prisma.ts";

const DAY = 24 * 60 * 60 * 1000;
/** A session lives 30 days and is extended when used in its second half. */
const LIFETIME = 30 * DAY;

export const SESSION_COOKIE = "gw_session";

function idOf(token: string): string {
  return encodeHexLowerCase(sha256(new TextEncoder().encode(token)));
}

export type BrowserSessions = ReturnType<typeof createBrowserSessions>;

export function createBrowserSessions(db: Db, now: () => number = Date.now) {
  /**
   * A new session. `grant` (a single-use link's) limits it to one dataset until a fixed end: such a session is
   * never extended.
   */
  async function create(userId: number, grant?: { datasetId: string; expiresAt: Date }): Promise<{ token: string; expiresAt: Date }> {
    const token = encodeBase32LowerCaseNoPadding(crypto.getRandomValues(new Uint8Array(20)));
    const expiresAt = grant?.expiresAt ?? new Date(now() + LIFETIME);
    await db.browserSession.create({ data: { id: idOf(token), userId, expiresAt, grantDatasetId: grant?.datasetId ?? null } });
    return { token, expiresAt };
  }

  /** The user of a live session, extending it when past half its life; null for unknown or expired tokens. */
  async function validate(token: string): Promise<{ userId: number; expiresAt: Date; grantDatasetId?: string } | null> {
    const id = idOf(token);
    const found = await db.browserSession.findUnique({ where: { id } });
    if (!found) return null;
    if (found.expiresAt.getTime() <= now()) {
      await db.browserSession.delete({ where: { id } }).catch(() => {});
      return null;
    }
    if (found.grantDatasetId !== null) return { userId: found.userId, expiresAt: found.expiresAt, grantDatasetId: found.grantDatasetId };
    if (found.expiresAt.getTime() - now() < LIFETIME / 2) {
      const expiresAt = new Date(now() + LIFETIME);
      await db.browserSession.update({ where: { id }, data: { expiresAt } });
      return { userId: found.userId, expiresAt };
    }
    return { userId: found.userId, expiresAt: found.expiresAt };
  }

  /**
   * A live session by its stored id (the SHA-256 of its token), without extending it: what a single-use grant's
   * token checks. Null when gone or expired.
   */
  async function byId(id: string): Promise<{ id: string; userId: number; expiresAt: Date; grantDatasetId: string | null } | null> {
    const found = await db.browserSession.findUnique({ where: { id } });
    if (!found || found.expiresAt.getTime() <= now()) return null;
    return { id: found.id, userId: found.userId, expiresAt: found.expiresAt, grantDatasetId: found.grantDatasetId };
  }

  async function invalidate(token: string): Promise<void> {
    await db.browserSession.deleteMany({ where: { id: idOf(token) } });
  }

  /** Ends every browser session of a user (forced logout). */
  async function invalidateUser(userId: number): Promise<void> {
    await db.browserSession.deleteMany({ where: { userId } });
  }

  return { create, validate, byId, idOf, invalidate, invalidateUser };
}

/** The session token from a Cookie header, if any. */
export function sessionTokenFrom(cookieHeader: string | null | undefined): string | undefined {
  for (const part of (cookieHeader ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === SESSION_COOKIE) return value.join("=") || undefined;
  }
  return undefined;
}

export function sessionCookie(token: string, expiresAt: Date, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; HttpOnly; SameSite=Lax; Path=/; Expires=${expiresAt.toUTCString()}${secure ? "; Secure" : ""}`;
}

export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; HttpOnly; SameSite=Lax; Path=/; Max-Age=0${secure ? "; Secure" : ""}`;
}
