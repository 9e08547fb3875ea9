// Test runner settings: suites under test/, one fork per file, generous timeouts for real services.
import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";

// graphql 16 ships CommonJS (main) and ESM (module) twins with no exports map: Node loads the
// CommonJS one for the libraries, so tests must too, or types from two realms meet.
const graphqlMain = createRequire(import.meta.url).resolve("graphql");

export default defineConfig({
  resolve: { alias: [{ find: /^graphql$/, replacement: graphqlMain }] },
  test: {
    include: ["test/**/*.test.ts"],
    pool: "forks",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
  },
});
