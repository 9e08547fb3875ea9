// Reads the committed per-provider SQL migrations (prisma/migrations/<provider>/NNNN_name.sql).
import { createHash } from "node:crypto";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

export type Migration = { name: string; sql: string; checksum: string };

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../prisma/migrations");

export async function readMigrations(provider: "sqlite" | "postgres", root = ROOT): Promise<Migration[]> {
  const dir = path.join(root, provider);
  const names = (await readdir(dir)).filter((name) => /^\d{4}_[a-z0-9_]+\.sql$/.test(name)).sort();
  return Promise.all(
    names.map(async (file) => {
      const sql = await readFile(path.join(dir, file), "utf8");
      return { name: file.replace(/\.sql$/, ""), sql, checksum: createHash("sha256").update(sql).digest("hex") };
    }),
  );
}

/** Migrations not yet applied, in order; refuses a database whose applied history was edited. */
export function pending(all: Migration[], applied: Map<string, string>): Migration[] {
  for (const [name, checksum] of applied) {
    const known = all.find((m) => m.name === name);
    if (known && known.checksum !== checksum) {
      throw new Error(`migration ${name} was changed after it was applied (checksum mismatch)`);
    }
  }
  return all.filter((m) => !applied.has(m.name));
}
