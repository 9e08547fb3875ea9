// Test harness for graph.html: builds the page with Vite's JS API into a fresh folder, from the repository's config.
// A build is kept under node_modules/.cache/graph-page/<hash of its inputs> and copied for each caller: the browser
// suites (about twenty files) would otherwise each build the same page, 1-4 s apiece on this machine.
import { createHash } from "node:crypto";
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";

export const REPO_ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const CACHE = join(REPO_ROOT, "node_modules/.cache/graph-page");
/** What a build reads besides node_modules' packages (whose versions package-lock.json pins). */
const INPUTS = ["web", "vite.config.ts", "scripts/cosmos-shaders.ts", "package-lock.json"];
const DONE = ".built";

function hashInputs(): string {
  const hash = createHash("sha256");
  const add = (path: string) => {
    if (!existsSync(path)) return;
    const name = relative(REPO_ROOT, path);
    if (name === "web/dist" || name.endsWith("node_modules")) return;
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path).sort()) add(join(path, entry));
      return;
    }
    hash.update(`${name}\0`).update(readFileSync(path)).update("\0");
  };
  for (const input of INPUTS) add(join(REPO_ROOT, input));
  return hash.digest("hex").slice(0, 24);
}

/** The kept build of the current inputs, built first if there is none (another process may be building it too). */
async function keptBuild(): Promise<string> {
  const kept = join(CACHE, hashInputs());
  if (existsSync(join(kept, DONE))) return kept;
  mkdirSync(CACHE, { recursive: true });
  const staged = await mkdtemp(join(CACHE, "building-"));
  await build({
    configFile: join(REPO_ROOT, "vite.config.ts"),
    logLevel: "warn",
    build: { outDir: staged, emptyOutDir: true, sourcemap: false },
  });
  writeFileSync(join(staged, DONE), "");
  try {
    renameSync(staged, kept);
  } catch {
    // Another process put the same build there first.
    rmSync(staged, { recursive: true, force: true });
  }
  // Builds of older inputs go (not the ones being built).
  for (const entry of readdirSync(CACHE))
    if (!entry.startsWith("building-") && join(CACHE, entry) !== kept) rmSync(join(CACHE, entry), { recursive: true, force: true });
  return kept;
}

/** Builds web/graph.html as `vite build` would, into a temporary folder unless told where; answers the folder. */
export async function buildPage(into?: string): Promise<string> {
  const outDir = into ?? (await mkdtemp(join(tmpdir(), "graph-page-")));
  const kept = await keptBuild();
  rmSync(outDir, { recursive: true, force: true });
  cpSync(kept, outDir, { recursive: true, filter: (source) => !source.endsWith(`/${DONE}`) });
  return outDir;
}

/**
 * Builds the page into web/dist, which the gateway serves, without ever emptying it: each file of the kept build is
 * copied in whole and renamed into place, so test files building at once never take files from each other's pages.
 */
export async function buildGatewayPage(): Promise<void> {
  copyInto(await keptBuild(), join(REPO_ROOT, "web/dist"));
}

function copyInto(from: string, to: string): void {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    const target = join(to, entry.name);
    if (entry.isDirectory()) {
      copyInto(source, target);
      continue;
    }
    if (entry.name === DONE) continue;
    const staged = `${target}.${process.pid}.part`;
    copyFileSync(source, staged);
    renameSync(staged, target);
  }
}
