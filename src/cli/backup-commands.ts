// `npm run cli -- backup <file>` / `restore <file>`: the database and DATA_DIR in one archive (src/store/backup.ts).
import type { Config } from "../config/config.ts";
import { BackupError, backup, restore } from "../store/backup.ts";

export const BACKUP_USAGE = `  npm run cli -- backup <file.tar.gz>    (the database and DATA_DIR: blobs, JWT secret and keys; the service may run)
  npm run cli -- restore <file.tar.gz>   (onto an empty DATA_DIR and an empty database; then start the service)`;

export async function runBackupCommand(command: "backup" | "restore", file: string, config: Config): Promise<number> {
  try {
    if (command === "backup") {
      const made = await backup(config, file);
      console.log(
        `backup of the ${made.provider} database (${made.migrations.length} migrations) and ${config.dataDir} written to ${file}`,
      );
    } else {
      const restored = await restore(config, file);
      console.log(
        `restored the ${restored.provider} database and DATA_DIR from ${file} (made ${restored.createdAt}); start the service to apply newer migrations`,
      );
    }
    return 0;
  } catch (error) {
    if (!(error instanceof BackupError)) throw error;
    console.error(`error: ${error.message}`);
    return 1;
  }
}
