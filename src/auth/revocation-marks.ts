// Forced-logout marks in Redis: "tokens of this user issued before second N are revoked", read by every instance
// when it checks a JWT, so a forced logout holds on all of them at once whatever they have cached. Keys are
// named after a digest of the JWT secret, so deployments (or test runs) sharing one Redis never mark each other's
// users; a mark lives as long as a token does (TOKEN_TTL_SECONDS), after which every token it revoked has expired.
import { createHash } from "node:crypto";
import type { Redis } from "ioredis";

export type RevocationMarks = {
  mark(userId: number, validAfterSeconds: number): Promise<void>;
  /** The mark's second, or undefined when none (or Redis cannot be read: the database state still applies). */
  validAfter(userId: number): Promise<number | undefined>;
};

export function createRevocationMarks(redis: Redis, jwtSecret: Uint8Array, tokenTtlSeconds: number): RevocationMarks {
  const prefix = `gw:logout:${createHash("sha256").update(jwtSecret).digest("hex").slice(0, 16)}:`;
  return {
    async mark(userId, validAfterSeconds) {
      // Redis away: the logout still holds through the database, on other instances within AUTH_CACHE_SECONDS.
      await redis.set(`${prefix}${userId}`, String(validAfterSeconds), "EX", tokenTtlSeconds + 60).catch(() => {});
    },
    async validAfter(userId) {
      const value = await redis.get(`${prefix}${userId}`).catch(() => null);
      return value === null ? undefined : Number(value);
    },
  };
}
