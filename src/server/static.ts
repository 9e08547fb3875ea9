// Serves the browser app and static assets from web/, refusing anything outside that folder.
import { readFile, stat } from "node:fs/promises";
import path from "node:path";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".ico": "image/x-icon",
  ".wasm": "application/wasm",
  ".map": "application/json",
};

/** URL path prefixes served from web/; everything else falls through to the API. */
const PREFIXES = ["/graph/", "/static/"];

export function createStaticHandler(root: string) {
  const base = path.resolve(root);
  return async function serveStatic(request: Request): Promise<Response | undefined> {
    if (request.method !== "GET" && request.method !== "HEAD") return undefined;
    const { pathname } = new URL(request.url);
    let relative: string;
    if (pathname === "/" || pathname === "/index.html") relative = "index.html";
    else if (PREFIXES.some((p) => pathname.startsWith(p))) relative = decodeURIComponent(pathname.slice(1));
    else return undefined;
    if (relative.endsWith("/")) relative += "index.html";
    const file = path.resolve(base, relative);
    if (file !== base && !file.startsWith(base + path.sep)) return undefined;
    try {
      const info = await stat(file);
      if (!info.isFile()) return undefined;
      const body = request.method === "HEAD" ? null : await readFile(file);
      return new Response(body, {
        headers: {
          "content-type": TYPES[path.extname(file)] ?? "application/octet-stream",
          "content-length": String(info.size),
          "cache-control": "no-cache",
        },
      });
    } catch {
      return undefined;
    }
  };
}
