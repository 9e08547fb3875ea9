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
const PREFIXES = ["/static/"];

/** web/ itself: the landing page and /static/ files. */
export function createStaticHandler(root: string) {
  return createFileHandler(root, (pathname) => {
    if (pathname === "/" || pathname === "/index.html") return "index.html";
    // One icon for every page, also where a browser asks for /favicon.ico unprompted.
    if (pathname === "/favicon.svg" || pathname === "/favicon.ico") return "favicon.svg";
    return PREFIXES.some((p) => pathname.startsWith(p)) ? pathname.slice(1) : undefined;
  });
}

/** A folder served under a URL prefix: /graph/assets/x.js -> <root>/assets/x.js (the built page). */
export function createMountedHandler(prefix: string, root: string) {
  return createFileHandler(root, (pathname) => (pathname.startsWith(prefix) ? pathname.slice(prefix.length) : undefined));
}

function createFileHandler(root: string, relativeOf: (pathname: string) => string | undefined) {
  const base = path.resolve(root);
  return async function serveFile(request: Request): Promise<Response | undefined> {
    if (request.method !== "GET" && request.method !== "HEAD") return undefined;
    const mapped = relativeOf(new URL(request.url).pathname);
    if (mapped === undefined) return undefined;
    let relative: string;
    try {
      relative = decodeURIComponent(mapped);
    } catch {
      return undefined; // not UTF-8 once decoded (/graph/%ff%fe): no file has that name
    }
    if (relative === "" || relative.endsWith("/")) relative += "index.html";
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
