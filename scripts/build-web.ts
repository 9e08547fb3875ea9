// `npm run build:web`: builds the browser page (web/graph.html) with Vite into web/dist.
// With --optional (as postinstall runs it) a missing Vite (production installs) only warns.
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const optional = process.argv.includes("--optional");

if (!existsSync(path.join(root, "node_modules/vite"))) {
  const message = "vite is not installed (a production install?): the page is not built; graph.html will say so";
  if (!optional) throw new Error(message);
  console.warn(message);
} else {
  const { build } = await import("vite");
  await build({ configFile: path.join(root, "vite.config.ts"), logLevel: "warn" });
  console.log("built web/dist");
}
