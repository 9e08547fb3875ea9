// The browser-facing rules around every answer: which other origins may call with credentials (CORS_ORIGINS; the
// service's own origin always), refusal of state-changing requests that another site's page sends, and the security
// headers (nosniff everywhere; a Content-Security-Policy with frame-ancestors on HTML pages).

export type OriginRules = {
  /** Origins other than the service's own that may call with credentials. */
  corsOrigins: readonly string[];
  /** PUBLIC_URL: the service's own origin as users reach it (behind a proxy it may differ from the Host). */
  publicUrl?: string | undefined;
  /** CSP frame-ancestors sources. */
  frameAncestors: string;
};

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The answer's origin classes: none (not a browser's cross-origin call), own, listed, or foreign. */
export type OriginClass = "none" | "own" | "listed" | "foreign";

/** How the request's Origin header relates to this service (Host, PUBLIC_URL) and the allow-list. */
export function classifyOrigin(headers: Headers, rules: Pick<OriginRules, "corsOrigins" | "publicUrl">, requestHost?: string): OriginClass {
  const origin = headers.get("origin");
  if (origin === null) return "none";
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return "foreign"; // "null" (sandboxed frames, file: pages) and anything unreadable
  }
  const host = headers.get("host") ?? requestHost ?? null;
  if (host !== null && url.host === host) return "own";
  if (rules.publicUrl !== undefined && url.origin === new URL(rules.publicUrl).origin) return "own";
  return rules.corsOrigins.includes(url.origin) ? "listed" : "foreign";
}

/** The CSP of the service's HTML pages; GraphiQL's page starts itself with an inline script. */
function contentSecurityPolicy(pathname: string, frameAncestors: string): string {
  const inlineScript = pathname === "/graphql" ? " 'unsafe-inline'" : "";
  return [
    "default-src 'self'",
    `script-src 'self'${inlineScript}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    `frame-ancestors ${frameAncestors}`,
  ].join("; ");
}

function refused(message: string): Response {
  return new Response(JSON.stringify({ error: { code: "ORIGIN_NOT_ALLOWED", message } }), {
    status: 403,
    headers: { "content-type": "application/json; charset=utf-8", "x-content-type-options": "nosniff", vary: "Origin" },
  });
}

function preflight(request: Request, origin: string): Response {
  const headers = new Headers({
    "access-control-allow-origin": origin,
    "access-control-allow-credentials": "true",
    "access-control-allow-methods": "GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS",
    "access-control-max-age": "600",
    vary: "Origin",
  });
  const asked = request.headers.get("access-control-request-headers");
  if (asked) headers.set("access-control-allow-headers", asked);
  return new Response(null, { status: 204, headers });
}

/** Wraps the gateway's handler with the origin rules and the security headers. */
export function withWebSecurity<E>(
  handler: (request: Request, env: E) => Promise<Response>,
  rules: OriginRules,
): (request: Request, env: E) => Promise<Response> {
  return async (request, env) => {
    const kind = classifyOrigin(request.headers, rules, new URL(request.url).host);
    const origin = request.headers.get("origin") ?? "";
    const isPreflight = request.method === "OPTIONS" && request.headers.has("access-control-request-method");
    if (kind === "foreign" && (isPreflight || !SAFE_METHODS.has(request.method))) {
      return refused(`requests from ${origin} are not allowed: add the origin to CORS_ORIGINS to let its pages call this service`);
    }
    if (isPreflight && kind === "listed") return preflight(request, origin);
    const answer = await handler(request, env);
    if (answer.status === 101) return answer; // a WebSocket upgrade (Deno) carries no body headers
    // The answer's own headers where they may be changed (the answer then goes out as it is: a body built as text is
    // written at once, not streamed through a copy); a copy where they are immutable (a fetched Response).
    let headers = answer.headers;
    let copied = false;
    try {
      headers.set("x-content-type-options", "nosniff");
    } catch {
      headers = new Headers(answer.headers);
      copied = true;
    }
    // The handlers' own CORS answers (yoga reflects any origin) give way to the rules here.
    for (const name of [...headers.keys()]) if (name.startsWith("access-control-")) headers.delete(name);
    if (kind === "listed") {
      headers.set("access-control-allow-origin", origin);
      headers.set("access-control-allow-credentials", "true");
    }
    if (kind !== "none") headers.append("vary", "Origin");
    headers.set("x-content-type-options", "nosniff");
    if ((headers.get("content-type") ?? "").startsWith("text/html")) {
      headers.set("content-security-policy", contentSecurityPolicy(new URL(request.url).pathname, rules.frameAncestors));
      headers.set("referrer-policy", "same-origin");
    }
    return copied ? new Response(answer.body, { status: answer.status, statusText: answer.statusText, headers }) : answer;
  };
}

/** Whether a WebSocket upgrade may proceed: no Origin (a program), this service's own, or a listed one. */
export function upgradeAllowed(headers: Headers, rules: Pick<OriginRules, "corsOrigins" | "publicUrl">): boolean {
  return classifyOrigin(headers, rules) !== "foreign";
}
