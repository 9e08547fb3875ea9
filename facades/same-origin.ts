// Whether a browser says a request comes from a page of this site (Sec-Fetch-Site, else Origin against Host): the
// check before a cookie may drive a form or a tool call, so that another site's page cannot.

/** True when the browser marks the request as sent by a page of this site. */
export function sameOrigin(request: Request): boolean {
  const site = request.headers.get("sec-fetch-site");
  if (site) return site === "same-origin";
  const origin = request.headers.get("origin");
  const host = request.headers.get("host");
  if (!origin || !host) return false;
  try {
    return new URL(origin).host === host;
  } catch {
    return false;
  }
}
