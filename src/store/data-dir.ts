// DATA_DIR holds the database (SQLite), the JWT secret and every uploaded table: readable by the service's user
// only. Files made from here on are private (umask 077, inherited by the parser processes), and a data folder
// made before this rule, or by hand, is closed at start (the folder 0700, the files at its top 0600).
import { chmod, mkdir, readdir, stat } from "node:fs/promises";
import path from "node:path";

/** Sets the process umask to 077 and closes DATA_DIR to other users. Runs before anything is written there. */
export async function secureDataDir(dataDir: string): Promise<void> {
  try {
    process.umask(0o077);
  } catch {
    // a runtime without umask (Deno without --allow-sys): the modes below still apply
  }
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await chmod(dataDir, 0o700);
  for (const entry of await readdir(dataDir, { withFileTypes: true })) {
    const target = path.join(dataDir, entry.name);
    if (entry.isFile()) {
      if (((await stat(target)).mode & 0o077) !== 0) await chmod(target, 0o600);
    } else if (entry.isDirectory()) {
      await chmod(target, 0o700);
    }
  }
}
