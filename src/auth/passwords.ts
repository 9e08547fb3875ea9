// Password hashing with argon2id, plus a dummy verification so unknown users cost the same time.
import { hash, verify } from "@node-rs/argon2";

const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
const MIN_LENGTH = 8;

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

export function passwordProblem(password: string): string | undefined {
  if (password.length < MIN_LENGTH) return `password must be at least ${MIN_LENGTH} characters`;
  if (password.length > 1024) return "password must be at most 1024 characters";
  return undefined;
}

let dummyHash: Promise<string> | undefined;

/**
 * Verifies a password against a stored hash. With no hash (unknown or passwordless user) it still
 * runs one argon2 verification against a throwaway hash, so timing does not reveal which case it was.
 */
export async function verifyPassword(stored: string | null | undefined, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hash("not-a-real-password-0", OPTIONS);
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}
