// Slows down repeated failed logins from one address: free attempts, then growing delays, then 429.
import { AppError } from "../errors/app-error.ts";

export type LoginThrottleOptions = { freeAttempts: number; windowSeconds: number; maxDelayMs: number; blockAfter: number };

type Entry = { failures: number; first: number };

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

export function createLoginThrottle(options: LoginThrottleOptions, now: () => number = Date.now) {
  const entries = new Map<string, Entry>();

  function current(address: string): Entry | undefined {
    const entry = entries.get(address);
    if (entry && now() - entry.first > options.windowSeconds * 1000) {
      entries.delete(address);
      return undefined;
    }
    return entry;
  }

  /** Delay to impose before checking credentials; throws RATE_LIMITED once the address is blocked. */
  function delayFor(address: string): number {
    const entry = current(address);
    if (!entry || entry.failures < options.freeAttempts) return 0;
    if (entry.failures >= options.blockAfter) {
      const retryAfter = Math.ceil((entry.first + options.windowSeconds * 1000 - now()) / 1000);
      throw new AppError("RATE_LIMITED", "Too many failed login attempts from this address; try again later.", {
        details: { retryAfterSeconds: Math.max(1, retryAfter) },
      });
    }
    return Math.min(options.maxDelayMs, 250 * 2 ** (entry.failures - options.freeAttempts));
  }

  function recordFailure(address: string): void {
    const entry = current(address);
    if (entry) entry.failures += 1;
    else entries.set(address, { failures: 1, first: now() });
    if (entries.size > 100_000) entries.delete(entries.keys().next().value as string);
  }

  function recordSuccess(address: string): void {
    entries.delete(address);
  }

  return { delayFor, recordFailure, recordSuccess };
}
