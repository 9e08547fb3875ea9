// `npm run build:native`: builds the OpenCL probe addon in kernels/native against this Node's headers.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

// With --optional (as postinstall runs it) a failed build only warns: the service then reports no OpenCL.
const optional = process.argv.includes("--optional");
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const nodeGyp = createRequire(import.meta.url).resolve("node-gyp/bin/node-gyp.js");

// Node from the registry package (or /usr) carries its headers next to the binary: no download.
const candidates = [path.resolve(process.execPath, "../.."), process.env.npm_config_nodedir, "/usr"];
const nodedir = candidates.find((dir) => dir && existsSync(path.join(dir, "include/node/node_api.h")));
try {
  if (!nodedir) throw new Error("no Node headers found next to this Node binary; set npm_config_nodedir");
  execFileSync(process.execPath, [nodeGyp, "rebuild", `--nodedir=${nodedir}`], {
    cwd: path.join(root, "kernels/native"),
    stdio: optional ? "pipe" : "inherit",
  });
} catch (error) {
  if (!optional) throw error;
  console.warn(
    `kernels/native: OpenCL probe not built (${(error as Error).message.split("\n")[0]}); health checks will report no OpenCL context`,
  );
}
