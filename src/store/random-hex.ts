// Random hex names (record ids, blob names) drawn from a pool: each crypto.randomBytes call asks the system for its
// own entropy (about 35 µs a call on this machine), so hot paths that name something per call take their bytes from
// a 4 KiB buffer refilled by one call when spent (as crypto.randomUUID keeps a pool of its own).
import { randomFillSync } from "node:crypto";

const POOL_BYTES = 4096;
const pool = Buffer.alloc(POOL_BYTES);
let used = POOL_BYTES;

/** `bytes` random bytes (at most 4096) as 2 * bytes lower-case hex digits; no two callers get the same bytes. */
export function randomHex(bytes: number): string {
  if (!(bytes > 0 && bytes <= POOL_BYTES)) throw new RangeError(`randomHex takes 1 to ${POOL_BYTES} bytes, not ${bytes}`);
  if (used + bytes > POOL_BYTES) {
    randomFillSync(pool);
    used = 0;
  }
  const hex = pool.toString("hex", used, used + bytes);
  used += bytes;
  return hex;
}
