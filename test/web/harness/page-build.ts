// Test harness for graph.html: builds the page with Vite's JS API into a fresh folder, from the repository's config.
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
