// The route pattern a request matched (`/api/v2/files/:id`), never its path: the label of metrics (a bounded set)
// and of access log lines (a path may carry a secret: an SSO state, a single-use token).
import { PatternRouter } from "hono/router/pattern-router";
import { REST_ROUTES } from "../../facades/rest/routes/index.ts";

/** Routes of the gateway itself (gateway.ts), matched before the REST table. */
const OWN: readonly [RegExp, string][] = [
  [/^\/graphql$/, "/graphql"],
  [/^\/mcp\/?$/, "/mcp"],
  [/^\/metrics$/, "/metrics"],
  [/^\/login$/, "/login"],
  [/^\/logout$/, "/logout"],
  [/^\/magic-login\/$/, "/magic-login/"],
  [/^\/account(\/|$)/, "/account/*"],
  [/^\/sso\/oidc\/callback\/$/, "/sso/oidc/callback/"],
  [/^\/graph\/graph\.html$/, "/graph/graph.html"],
  [/^\/graph\/data\//, "/graph/data/*"],
  [/^\/graph\//, "/graph/*"],
  [/^\/graphiql\//, "/graphiql/*"],
];

export type RoutePattern = (method: string, pathname: string) => string;

/** A matcher over the gateway's routes and the REST route table; anything else is `static` or `unmatched`. */
export function createRoutePattern(routes: readonly { methods: readonly string[]; path: string }[] = REST_ROUTES): RoutePattern {
  const router = new PatternRouter<string>();
  for (const route of routes) for (const method of route.methods) router.add(method, route.path, route.path);
  return (method, pathname) => {
    for (const [test, name] of OWN) if (test.test(pathname)) return name;
    let found: string | undefined;
    try {
      found = router.match(method === "HEAD" ? "GET" : method, pathname)[0][0]?.[0];
    } catch {
      found = undefined; // a path the router cannot read (bad percent-encoding)
    }
    if (found !== undefined) return found;
    return /^\/[A-Za-z0-9._-]*\.(html|js|css|svg|png|ico|json|map|woff2?)$/.test(pathname) || pathname === "/" ? "static" : "unmatched";
  };
}
