// The JWT signing secret: JWT_SECRET, or one generated once and kept under DATA_DIR.
import { randomBytes } from "node:crypto";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import type { Config } from "../config/config.ts";

const FILE = "jwt-secret";

export async function loadJwtSecret(config: Config): Promise<Uint8Array> {
  if (config.jwtSecret !== undefined) {
    if (config.jwtSecret.length < 32) throw new Error("JWT_SECRET must be at least 32 characters");
    return new TextEncoder().encode(config.jwtSecret);
  }
  const file = path.join(config.dataDir, FILE);
  await mkdir(config.dataDir, { recursive: true });
  try {
    // "wx" creates the file only if absent: of two processes starting at once, one writes, both read the same.
    await writeFile(file, randomBytes(48).toString("base64url"), { flag: "wx", mode: 0o600 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  for (let attempt = 0; ; attempt += 1) {
    const secret = (await readFile(file, "utf8")).trim();
    if (secret.length >= 32) return new TextEncoder().encode(secret);
    // The writer may not have flushed yet.
    if (attempt >= 50) throw new Error(`${file} is empty or too short; delete it or set JWT_SECRET`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
