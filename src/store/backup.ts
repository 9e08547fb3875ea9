// One archive (tar.gz) of everything the service keeps: the database (SQLite: a consistent copy by VACUUM INTO;
// Postgres: pg_dump's custom format) and DATA_DIR (the blob store, the JWT secret and signing keys). A restore goes
// onto an empty DATA_DIR and an empty database; the next start applies any migrations newer than the archive.
import { spawn } from "node:child_process";
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createClient } from "@libsql/client";
import pg from "pg";
import * as tar from "tar";
import type { Config } from "../config/config.ts";
import { secureDataDir } from "./data-dir.ts";

const FORMAT = "graphviz-gateway-backup";
const SQLITE_FILE = "database.sqlite";
const PG_FILE = "database.pgdump";

export type BackupManifest = {
  format: typeof FORMAT;
  version: 1;
  createdAt: string;
  provider: Config["databaseProvider"];
  migrations: string[];
};

export class BackupError extends Error {}

/** The SQLite file of a `file:` URL. */
function sqlitePath(config: Config): string {
  return path.resolve(config.databaseUrl.replace(/^file:(\/\/)?/, "").split("?")[0] ?? "");
}

/** pg_dump / pg_restore reach the database through PG* variables: no password on a command line. */
function pgEnv(url: string): NodeJS.ProcessEnv {
  const u = new URL(url);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PGHOST: u.hostname,
    PGPORT: u.port || "5432",
    PGDATABASE: decodeURIComponent(u.pathname.slice(1)),
  };
  if (u.username) env.PGUSER = decodeURIComponent(u.username);
  if (u.password) env.PGPASSWORD = decodeURIComponent(u.password);
  const sslmode = u.searchParams.get("sslmode");
  if (sslmode) env.PGSSLMODE = sslmode;
  return env;
}

function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-4000);
    });
    child.on("error", (error) =>
      reject(new BackupError(`${command} could not start (${error.message}): install the PostgreSQL client tools`)),
    );
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new BackupError(`${command} failed (exit ${code}): ${stderr.trim()}`))));
  });
}

async function appliedMigrations(config: Config): Promise<string[]> {
  const query = 'SELECT name FROM "_gateway_migrations" ORDER BY name';
  if (config.databaseProvider === "postgres") {
    const client = new pg.Client({ connectionString: config.databaseUrl });
    await client.connect();
    try {
      return (await client.query<{ name: string }>(query)).rows.map((r) => r.name);
    } finally {
      await client.end();
    }
  }
  const client = createClient({ url: config.databaseUrl });
  try {
    return (await client.execute(query)).rows.map((r) => String(r.name));
  } finally {
    client.close();
  }
}

/** Writes the archive to `file`; answers what it holds. */
export async function backup(config: Config, file: string): Promise<BackupManifest> {
  const work = await mkdtemp(path.join(os.tmpdir(), "gw-backup-"));
  try {
    const manifest: BackupManifest = {
      format: FORMAT,
      version: 1,
      createdAt: new Date().toISOString(),
      provider: config.databaseProvider,
      migrations: await appliedMigrations(config),
    };
    let databaseFile: string;
    if (config.databaseProvider === "postgres") {
      databaseFile = PG_FILE;
      await run(
        "pg_dump",
        ["--format=custom", "--no-owner", "--no-privileges", `--file=${path.join(work, PG_FILE)}`],
        pgEnv(config.databaseUrl),
      );
    } else {
      databaseFile = SQLITE_FILE;
      const client = createClient({ url: config.databaseUrl });
      try {
        await client.execute("PRAGMA busy_timeout = 15000");
        // A consistent copy, taken while the service may keep writing.
        await client.execute({ sql: "VACUUM INTO ?", args: [path.join(work, SQLITE_FILE)] });
      } finally {
        client.close();
      }
    }
    await writeFile(path.join(work, "manifest.json"), `${JSON.stringify(manifest, null, 1)}\n`);
    await symlink(path.resolve(config.dataDir), path.join(work, "data"));
    const database = sqlitePath(config);
    const skipped = (entry: string) => {
      const full = path.resolve(work, entry.replace(/^data(\/|$)/, `${path.resolve(config.dataDir)}$1`));
      if (config.databaseProvider === "sqlite" && (full === database || (/-(wal|shm|journal)$/.test(full) && full.startsWith(database))))
        return true;
      return /\.part-[0-9a-f]+$|\.lock$|\.tmp$/.test(entry);
    };
    await mkdir(path.dirname(path.resolve(file)), { recursive: true });
    await tar.c({ gzip: true, file, cwd: work, follow: true, portable: true, filter: (entry) => !skipped(entry) }, [
      "manifest.json",
      databaseFile,
      "data",
    ]);
    return manifest;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function isEmptyDir(dir: string): Promise<boolean> {
  try {
    return (await readdir(dir)).length === 0;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return true;
    throw error;
  }
}

async function postgresIsEmpty(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ n: string }>(
      "SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = current_schema()",
    );
    return Number(rows[0]?.n ?? 0) === 0;
  } finally {
    await client.end();
  }
}

/** Restores the archive onto an empty DATA_DIR and an empty database (refused otherwise, changing nothing). */
export async function restore(config: Config, file: string): Promise<BackupManifest> {
  await stat(file).catch(() => {
    throw new BackupError(`no archive at ${file}`);
  });
  const work = await mkdtemp(path.join(os.tmpdir(), "gw-restore-"));
  try {
    // node-tar keeps entries inside `cwd` (no absolute paths, no ..).
    await tar.x({ file, cwd: work, strict: true }).catch((error: Error) => {
      throw new BackupError(`${file} is not a readable backup archive (${error.message})`);
    });
    const manifest = JSON.parse(await readFile(path.join(work, "manifest.json"), "utf8").catch(() => "{}")) as Partial<BackupManifest>;
    if (manifest.format !== FORMAT || manifest.version !== 1)
      throw new BackupError(`${file} is not a backup made by npm run cli -- backup`);
    if (manifest.provider !== config.databaseProvider) {
      throw new BackupError(`the archive holds a ${manifest.provider} database; this service is configured for ${config.databaseProvider}`);
    }
    const dataDir = path.resolve(config.dataDir);
    const database = sqlitePath(config);
    const sqliteInside = config.databaseProvider === "sqlite" && path.dirname(database) === dataDir;
    const present = (await readdir(dataDir).catch(() => [] as string[])).filter(
      (name) => !(sqliteInside && name === path.basename(database)),
    );
    if (present.length > 0)
      throw new BackupError(`DATA_DIR ${dataDir} is not empty (${present.slice(0, 3).join(", ")}): restore onto an empty one`);
    if (config.databaseProvider === "sqlite") {
      if (
        (await stat(database).then(
          (s) => s.size,
          () => 0,
        )) > 0
      )
        throw new BackupError(`the database ${database} exists: restore onto an empty one`);
    } else if (!(await postgresIsEmpty(config.databaseUrl))) {
      throw new BackupError("the Postgres database has tables: restore onto an empty database");
    }
    await secureDataDir(dataDir);
    if (!(await isEmptyDir(path.join(work, "data")))) await cp(path.join(work, "data"), dataDir, { recursive: true });
    if (config.databaseProvider === "sqlite") {
      await mkdir(path.dirname(database), { recursive: true });
      await cp(path.join(work, SQLITE_FILE), database);
    } else {
      await run(
        "pg_restore",
        [
          "--no-owner",
          "--no-privileges",
          "--exit-on-error",
          `--dbname=${new URL(config.databaseUrl).pathname.slice(1)}`,
          path.join(work, PG_FILE),
        ],
        pgEnv(config.databaseUrl),
      );
    }
    await secureDataDir(dataDir);
    return manifest as BackupManifest;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
