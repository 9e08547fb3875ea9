// Personal key material: random ids and secrets, stored only as SHA-256 hashes, compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

export type KeyMaterial = { id: string; secret: string; secretHash: string };

export function generateKeyMaterial(): KeyMaterial {
  // Secrets carry 256 bits of randomness, so a fast hash is enough: there is nothing to brute-force.
  const id = randomBytes(12).toString("base64url").replace(/[-_]/g, "x").toUpperCase();
  const secret = randomBytes(32).toString("base64url");
  return { id, secret, secretHash: hashKeySecret(secret) };
}

export function hashKeySecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export function secretMatches(storedHash: string, secret: string): boolean {
  const a = Buffer.from(storedHash, "hex");
  const b = Buffer.from(hashKeySecret(secret), "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}
