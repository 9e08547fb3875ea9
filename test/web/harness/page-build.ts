// Test harness for graph.html: builds the page with Vite's JS API into a fresh folder, from the repository's config.
import { copyFileSync, mkdirSync, readdirSync, renameSync, rmSync } from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** Builds web/graph.html as `vite build` would, into a temporary folder unless told where; answers the folder. */
export async function buildPage(into?: string): Promise<string> {
  const outDir = into ?? (await mkdtemp(join(tmpdir(), "graph-page-")));
  await build({
    configFile: join(REPO_ROOT, "vite.config.ts"),
    logLevel: "warn",
    build: { outDir, emptyOutDir: true, sourcemap: false },
  });
  return outDir;
}

/**
 * Builds the page into web/dist, which the gateway serves, without ever emptying it: the build goes to a temporary
 * folder and each file is moved in whole, so test files building at once never take files from each other's pages.
 */
export async function buildGatewayPage(): Promise<void> {
  const built = await buildPage();
  moveInto(built, join(REPO_ROOT, "web/dist"));
  rmSync(built, { recursive: true, force: true });
}

function moveInto(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) {
      moveInto(source, target);
      continue;
    }
    const staged = `${target}.${process.pid}.part`;
    copyFileSync(source, staged);
    renameSync(staged, target);
  }
}
