// A JSON-typed POST copy of a browser request, so the session cookie counts for the operation the web routes run
// (see src/server/context.ts: a non-JSON POST could come from another site's form, so its cookie is ignored).
// Only routes that have themselves decided the request is the browser's own may use it.
export function asJson(request: Request): Request {
  const headers = new Headers(request.headers);
  headers.set("content-type", "application/json");
  return new Request(request.url, { method: "POST", headers });
}
