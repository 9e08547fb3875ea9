// The one configuration file that `npm start`, `npm run cli` and `deno task start|cli` all read: `.env` in the
// working directory (npm and deno tasks run from the project root), or the file ENV_FILE names.
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { parseEnv } from "node:util";
import { ConfigError } from "./config-error.ts";

type Env = Record<string, string | undefined>;

export const DEFAULT_ENV_FILE = ".env";

/**
 * The file's variables under the process environment's: a variable set in the environment wins over the file.
 * ENV_FILE="" reads no file; a missing `.env` is no error, a missing file that ENV_FILE names is.
 */
export function withEnvFile(env: Env, cwd: string = process.cwd()): Env {
  const named = env.ENV_FILE;
  if (named === "") return env;
  const file = path.resolve(cwd, named ?? DEFAULT_ENV_FILE);
  if (!existsSync(file)) {
    if (named === undefined) return env;
    throw new ConfigError(`ENV_FILE names ${file}, which does not exist`);
  }
  let values: Record<string, string>;
  try {
    values = parseEnv(readFileSync(file, "utf8")) as Record<string, string>;
  } catch (error) {
    throw new ConfigError(`cannot read ${file}: ${(error as Error).message}`);
  }
  const merged: Env = { ...values };
  for (const [key, value] of Object.entries(env)) if (value !== undefined) merged[key] = value;
  return merged;
}
