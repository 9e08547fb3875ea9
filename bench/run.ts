// npm run bench: every benchmark in turn, each printing its own table. The GFQL one needs DuckDB installed beside
// the project (npm install --prefix .tools/duckdb @duckdb/node-api) and is skipped, saying so, without it.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const benches = ["ingest.ts", "dataset.ts", "gfql.ts", "mcp.ts", "viz.ts", "compute.ts"];
let failed = 0;
for (const bench of benches) {
  if (bench === "gfql.ts" && !existsSync(".tools/duckdb/node_modules/@duckdb/node-api")) {
    console.log("bench/gfql.ts skipped: npm install --prefix .tools/duckdb @duckdb/node-api first");
    continue;
  }
  console.log(`\n## bench/${bench}`);
  const run = spawnSync(process.execPath, [`bench/${bench}`], { stdio: "inherit" });
  if (run.status !== 0) failed += 1;
}
process.exit(failed > 0 ? 1 : 0);
