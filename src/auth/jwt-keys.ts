// JWT signing keys that rotate without signing anyone out: a keyring file under DATA_DIR (`jwt-keys.json`, 0600).
// The newest key signs (its id in the JWT header's `kid`); a key replaced by a rotation still verifies for
// JWT_KEY_GRACE_SECONDS, then is dropped. Tokens without a `kid` (signed before the first rotation, or before keys
// had ids) verify with the legacy secret (JWT_SECRET or DATA_DIR/jwt-secret), which also signs until the first
// rotation, and counts as replaced then. Instances sharing DATA_DIR see a rotation within a second or two.
import { randomBytes } from "node:crypto";
import { mkdir, open, readFile, rename, stat, unlink, writeFile } from "node:fs/promises";
import path from "node:path";

export const KEYRING_FILE = "jwt-keys.json";

type StoredKey = { kid: string; secret: string; createdAt: number; retiredAt?: number };
type Keyring = { legacyRetiredAt?: number; keys: StoredKey[] };

export type JwtKeyInfo = { kid: string; createdAt: Date; retiredAt: Date | undefined; verifiesUntil: Date | undefined };

export type JwtKeys = {
  /** The key that signs now: a keyring key with its id, or the legacy secret (no id) before the first rotation. */
  signing(): Promise<{ kid: string | undefined; secret: Uint8Array }>;
  /** The secret that verifies a token with this header `kid` (none: the legacy secret), if it still may. */
  verifying(kid: string | undefined): Promise<Uint8Array | undefined>;
  /** Adds a new signing key; the one before verifies for the grace period. Returns the new key's id. */
  rotate(): Promise<string>;
  /** Rotates when the signing key is older than `days` (or is the legacy secret); the new id, if it rotated. */
  rotateIfOlderThan(days: number): Promise<string | undefined>;
  list(): Promise<JwtKeyInfo[]>;
};

export type JwtKeysOptions = {
  dataDir: string;
  legacySecret: Uint8Array;
  graceSeconds: number;
  /** Seconds since the epoch (tests move it). */
  now?: () => number;
};

const RELOAD_CHECK_MS = 1000;
const encoder = new TextEncoder();

export function createJwtKeys(options: JwtKeysOptions): JwtKeys {
  const file = path.join(options.dataDir, KEYRING_FILE);
  const lockFile = `${file}.lock`;
  const now = options.now ?? (() => Date.now() / 1000);
  let cached: Keyring = { keys: [] };
  let cachedVersion = "";
  let checkedAt = Number.NEGATIVE_INFINITY;

  async function readKeyring(): Promise<Keyring> {
    try {
      const parsed = JSON.parse(await readFile(file, "utf8")) as Keyring;
      if (!Array.isArray(parsed.keys)) throw new Error("no keys array");
      return parsed;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return { keys: [] };
      throw new Error(`${file} is unreadable (${(error as Error).message}); restore it from a backup or delete it`);
    }
  }

  /** The keyring as on disk, read again when the file changed (checked at most once a second unless forced). */
  async function current(force = false): Promise<Keyring> {
    if (!force && performance.now() - checkedAt < RELOAD_CHECK_MS) return cached;
    checkedAt = performance.now();
    // A rotation renames a new file into place: a new inode, whatever the clock's resolution.
    const version = await stat(file).then(
      (s) => `${s.ino}:${s.mtimeMs}:${s.size}`,
      () => "none",
    );
    if (version !== cachedVersion) {
      cached = await readKeyring();
      cachedVersion = version;
    }
    return cached;
  }

  const usable = (retiredAt: number | undefined) => retiredAt === undefined || now() <= retiredAt + options.graceSeconds;

  async function withLock<T>(work: () => Promise<T>): Promise<T> {
    await mkdir(options.dataDir, { recursive: true });
    for (let attempt = 0; ; attempt += 1) {
      try {
        const handle = await open(lockFile, "wx", 0o600);
        await handle.close();
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        // A lock left by a killed process: older than 30 s.
        const age = await stat(lockFile).then(
          (s) => Date.now() - s.mtimeMs,
          () => 0,
        );
        if (age > 30_000) await unlink(lockFile).catch(() => {});
        if (attempt > 300) throw new Error(`${lockFile} is held; remove it if no rotation is running`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    try {
      return await work();
    } finally {
      await unlink(lockFile).catch(() => {});
    }
  }

  async function rotateLocked(): Promise<string> {
    const ring = await readKeyring();
    const at = now();
    const kid = `k${Math.floor(at).toString(36)}${randomBytes(6).toString("base64url")}`;
    const keys = ring.keys
      .map((key) => (key.retiredAt === undefined ? { ...key, retiredAt: at } : key))
      .filter((key) => usable(key.retiredAt));
    keys.push({ kid, secret: randomBytes(48).toString("base64url"), createdAt: at });
    const next: Keyring = { legacyRetiredAt: ring.legacyRetiredAt ?? at, keys };
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, `${JSON.stringify(next, null, 1)}\n`, { mode: 0o600 });
    await rename(temporary, file);
    await current(true);
    return kid;
  }

  return {
    async signing() {
      const ring = await current();
      const newest = ring.keys.findLast((key) => key.retiredAt === undefined);
      return newest ? { kid: newest.kid, secret: encoder.encode(newest.secret) } : { kid: undefined, secret: options.legacySecret };
    },
    async verifying(kid) {
      let ring = await current();
      if (kid === undefined) return usable(ring.legacyRetiredAt) ? options.legacySecret : undefined;
      let key = ring.keys.find((k) => k.kid === kid);
      // A key another instance just added.
      if (key === undefined) {
        ring = await current(true);
        key = ring.keys.find((k) => k.kid === kid);
      }
      return key !== undefined && usable(key.retiredAt) ? encoder.encode(key.secret) : undefined;
    },
    rotate: () => withLock(rotateLocked),
    rotateIfOlderThan: (days) =>
      withLock(async () => {
        const ring = await readKeyring();
        const newest = ring.keys.findLast((key) => key.retiredAt === undefined);
        if (newest !== undefined && now() - newest.createdAt < days * 86_400) return undefined;
        return rotateLocked();
      }),
    async list() {
      const ring = await current(true);
      const date = (seconds: number | undefined) => (seconds === undefined ? undefined : new Date(seconds * 1000));
      return ring.keys.map((key) => ({
        kid: key.kid,
        createdAt: new Date(key.createdAt * 1000),
        retiredAt: date(key.retiredAt),
        verifiesUntil: date(key.retiredAt === undefined ? undefined : key.retiredAt + options.graceSeconds),
      }));
    },
  };
}
