// Single-use login links (spec 5.6): an admin issues one for a user and a dataset; opening it starts a browser
// session limited to that dataset. Tokens are 32 random bytes; only their SHA-256 is stored.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { AppError } from "../../errors/app-error.ts";
import type { Db } from "../../store/prisma.ts";
import type { BrowserSessions } from "../browser-sessions.ts";
import type { Viewer } from "../viewer.ts";

/** A link's record goes 7 days after it was made, used or not (spec 5.6, fixed). */
export const LINK_RECORD_MS = 7 * 24 * 60 * 60 * 1000;
const PURGE_EVERY_MS = 60 * 60 * 1000;

export type SingleUseSettings = { tokenName: string; maxAgeSeconds: number; oneTime: boolean };

const hashOf = (token: string) => createHash("sha256").update(token).digest("hex");

export type SingleUseLinks = ReturnType<typeof createSingleUseLinks>;

export function createSingleUseLinks(deps: { db: Db; browserSessions: BrowserSessions; settings: SingleUseSettings; now?: () => number }) {
  const { db, browserSessions, settings } = deps;
  const now = deps.now ?? Date.now;

  /** A link for `username` to `datasetId`; admins only (a single-use session never is one). */
  async function issue(admin: Viewer, username: string, datasetId: string): Promise<{ path: string; expiresAt: Date }> {
    if (!admin.isAdmin || admin.grant) throw new AppError("FORBIDDEN", "Administrator rights are required.");
    if (username === "") throw new AppError("INVALID_INPUT", "username is required", { details: { field: "username" } });
    if (datasetId === "") throw new AppError("INVALID_INPUT", "dataset_id is required", { details: { field: "dataset_id" } });
    const user = await db.user.findUnique({ where: { username }, select: { id: true, isActive: true } });
    if (!user?.isActive) throw new AppError("NOT_FOUND", `no active user named ${username}`);
    const dataset = await db.dataset.findUnique({ where: { id: datasetId }, select: { id: true } });
    if (!dataset) throw new AppError("NOT_FOUND", `no dataset with id ${datasetId}`);
    const token = randomBytes(32).toString("base64url");
    const expiresAt = new Date(now() + settings.maxAgeSeconds * 1000);
    await db.singleUseLink.create({
      data: { id: hashOf(token), userId: user.id, datasetId, createdById: admin.userId, createdAt: new Date(now()), expiresAt },
    });
    return { path: `/magic-login/?${encodeURIComponent(settings.tokenName)}=${token}`, expiresAt };
  }

  /**
   * Opens a link: a browser session for its user limited to its dataset (ending with the link's record), or
   * FORBIDDEN when the token is unknown, expired, already used (with SESAME_ONE_TIME) or its user disabled.
   */
  async function redeem(token: string): Promise<{ token: string; expiresAt: Date; userId: number; datasetId: string }> {
    const refused = (reason: string) => new AppError("FORBIDDEN", `This login link cannot be used: ${reason}.`, { details: { reason } });
    if (!/^[A-Za-z0-9_-]{43}$/.test(token)) throw refused("it is not a valid link");
    const id = hashOf(token);
    const link = await db.singleUseLink.findUnique({ where: { id } });
    // Looked up by hash; the stored hash is compared again in constant time all the same.
    if (!link || !timingSafeEqual(Buffer.from(link.id, "hex"), Buffer.from(id, "hex"))) throw refused("it is not a valid link");
    if (link.expiresAt.getTime() <= now()) throw refused("it has expired");
    if (settings.oneTime) {
      // Claimed atomically: of two simultaneous openings one wins.
      const claimed = await db.singleUseLink.updateMany({ where: { id, usedAt: null }, data: { usedAt: new Date(now()) } });
      if (claimed.count !== 1) throw refused("it was already used");
    } else if (link.usedAt === null) {
      await db.singleUseLink.updateMany({ where: { id, usedAt: null }, data: { usedAt: new Date(now()) } });
    }
    const user = await db.user.findUnique({ where: { id: link.userId }, select: { isActive: true } });
    if (!user?.isActive) throw refused("its account is disabled");
    const sessionEnd = new Date(link.createdAt.getTime() + LINK_RECORD_MS);
    const session = await browserSessions.create(link.userId, { datasetId: link.datasetId, expiresAt: sessionEnd });
    return { ...session, userId: link.userId, datasetId: link.datasetId };
  }

  /** Ends a user's links (forced logout); their granted browser sessions go with the rest of the user's sessions. */
  async function revokeUser(userId: number): Promise<number> {
    const { count } = await db.singleUseLink.deleteMany({ where: { userId } });
    return count;
  }

  /** Deletes link records older than 7 days and the sessions they opened that have ended. */
  async function purge(): Promise<number> {
    const { count } = await db.singleUseLink.deleteMany({ where: { createdAt: { lt: new Date(now() - LINK_RECORD_MS) } } });
    await db.browserSession.deleteMany({ where: { grantDatasetId: { not: null }, expiresAt: { lte: new Date(now()) } } });
    return count;
  }

  /**
   * Purges now and then every hour until stopped; a failed purge is reported and tried again next hour. Stopping
   * waits for a purge under way, so the database is not closed under it (a short-lived CLI run would otherwise).
   */
  function startPurging(onError: (error: unknown) => void): () => Promise<void> {
    let running: Promise<void> = Promise.resolve();
    const run = () => {
      running = purge().then(() => undefined, onError);
    };
    run();
    const timer = setInterval(run, PURGE_EVERY_MS);
    timer.unref();
    return async () => {
      clearInterval(timer);
      await running;
    };
  }

  return { issue, redeem, revokeUser, purge, startPurging, settings };
}
