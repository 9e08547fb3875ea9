// Vite build of the browser page: web/graph.html -> web/dist, served by the gateway at /graph/graph.html.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { cosmosShaders } from "./scripts/cosmos-shaders.ts";

const webRoot = fileURLToPath(new URL("./web", import.meta.url));
// The dev server forwards the page's server calls to a running gateway (npm start).
const gateway = process.env.GATEWAY_URL ?? "http://127.0.0.1:8000";

export default defineConfig({
  root: webRoot,
  base: "/graph/",
  // web/ also holds the gateway's own static files (index.html); only graph.html is built.
  publicDir: false,
  // cosmos.gl's shaders specialized to the solid circles and links the page draws (scripts/cosmos-shaders.ts).
  plugins: [cosmosShaders()],
  resolve: {
    // cosmos.gl's FPS monitor dependency names an IIFE bundle as its "browser" entry; its ES module is the one to bundle.
    alias: [{ find: /^gl-bench$/, replacement: "gl-bench/dist/gl-bench.module.js" }],
  },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    sourcemap: true,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: { input: { graph: fileURLToPath(new URL("./web/graph.html", import.meta.url)) } },
  },
  server: {
    proxy: {
      "/graphql": { target: gateway, ws: true, changeOrigin: true },
      "/graph/data": { target: gateway, changeOrigin: true },
    },
  },
});
