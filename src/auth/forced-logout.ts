// Forced logout (spec 5.6, `api/v2/logout-user/<username>/`): ends a user's JWTs, browser sessions, single-use
// links and the grants they gave, and live-session presence, on every gateway instance at once.
import { randomUUID } from "node:crypto";
import { AppError } from "../errors/app-error.ts";
import type { Db } from "../store/prisma.ts";
import type { PubSub } from "../store/pubsub.ts";
import type { Authenticator } from "./authenticator.ts";
import type { BrowserSessions } from "./browser-sessions.ts";
import type { RevocationMarks } from "./revocation-marks.ts";
import type { SingleUseLinks } from "./single-use/links.ts";
import type { Viewer } from "./viewer.ts";

/** The longest a logout waits for its own message to come back through the pub/sub. */
const ECHO_WAIT_MS = 2000;
/** After the echo: time for the same message on other connections (another instance in this process) to be read. */
const SETTLE_MS = 25;

export type ForcedLogout = ReturnType<typeof createForcedLogout>;

export function createForcedLogout(deps: {
  db: Db;
  authenticator: Authenticator;
  browserSessions: BrowserSessions;
  links: SingleUseLinks;
  pubsub: PubSub;
  /** With Redis: the marks every instance reads when checking a JWT (src/auth/revocation-marks.ts). */
  revocations?: RevocationMarks | undefined;
  /** Closes the user's owner-page subscriptions on this instance (src/sessions/viz-sessions.ts). */
  endPresence(userId: number): Promise<void>;
}) {
  const { db, authenticator, pubsub } = deps;

  /** An administrator's forced logout (the REST route and GraphQL). */
  async function logoutUser(admin: Viewer, username: string): Promise<{ id: number; username: string }> {
    if (!admin.isAdmin || admin.grant) throw new AppError("FORBIDDEN", "Administrator rights are required.");
    return logout(username);
  }

  /** The forced logout itself (the operator's command line calls it directly). */
  async function logout(username: string): Promise<{ id: number; username: string }> {
    const user = await db.user.findUnique({ where: { username }, select: { id: true, username: true } });
    if (!user) throw new AppError("NOT_FOUND", `no user named ${username}`);
    // JWTs carry their issue time in whole seconds: every token issued up to this second is refused.
    const validAfter = new Date((Math.floor(Date.now() / 1000) + 1) * 1000);
    await db.user.update({ where: { id: user.id }, data: { tokensValidAfter: validAfter } });
    await deps.revocations?.mark(user.id, validAfter.getTime() / 1000);
    await deps.browserSessions.invalidateUser(user.id);
    await deps.links.revokeUser(user.id);
    await db.vizSession.updateMany({ where: { ownerId: user.id }, data: { ownerSeenAt: null } });
    authenticator.forget({ userId: user.id });
    await announce(user.id);
    return user;
  }

  /** Logouts published by this instance, waiting to come back through the pub/sub. */
  const waiting = new Map<string, () => void>();

  /**
   * Tells every instance to drop its cached state for this user (REDIS_URL: through Redis), and answers once the
   * message came back to this instance: Redis has then handed it to every subscriber, so a request made after the
   * logout's answer finds it applied (waits at most ECHO_WAIT_MS should the pub/sub be slow).
   */
  async function announce(userId: number): Promise<void> {
    const nonce = randomUUID();
    const echoed = new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ECHO_WAIT_MS);
      waiting.set(nonce, () => {
        clearTimeout(timer);
        resolve();
      });
    });
    pubsub.publish("users:loggedOut", { userId, nonce });
    await echoed;
    waiting.delete(nonce);
    // The other subscribers got it in the same write from Redis; let their sockets be read before answering.
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  }

  /** Drops cached principals of users logged out on any instance, until the returned function is called. */
  function listen(): () => void {
    const events = pubsub.subscribe("users:loggedOut");
    void (async () => {
      for await (const event of events) {
        authenticator.forget({ userId: event.userId });
        await deps.endPresence(event.userId).catch(() => {});
        waiting.get(event.nonce)?.();
      }
    })();
    return () => void events.return?.();
  }

  return { logoutUser, logout, listen };
}
