// `npm run build:native`: builds the OpenCL probe addon in kernels/native against this Node's headers.
import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const nodeGyp = createRequire(import.meta.url).resolve("node-gyp/bin/node-gyp.js");

// Node from the registry package (or /usr) carries its headers next to the binary: no download.
const candidates = [path.resolve(process.execPath, "../.."), process.env.npm_config_nodedir, "/usr"];
const nodedir = candidates.find((dir) => dir && existsSync(path.join(dir, "include/node/node_api.h")));
if (!nodedir) {
  console.error("no Node headers found next to this Node binary; set npm_config_nodedir");
  process.exit(1);
}
execFileSync(process.execPath, [nodeGyp, "rebuild", `--nodedir=${nodedir}`], {
  cwd: path.join(root, "kernels/native"),
  stdio: "inherit",
});
