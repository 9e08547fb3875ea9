// Single sign-on routes (spec 4.1 (c)): the login redirects, pygraphistry's JSON variant, and collecting the JWT.
import { ssoStateCookie } from "../../web/sso-state-cookie.ts";
import type { RestRoute, RouteInput } from "../route-types.ts";

const START = `mutation StartSsoLogin($provider: String, $organization: String, $clientType: SsoClientType!, $next: String, $origin: String!) {
  startSsoLogin(provider: $provider, organization: $organization, clientType: $clientType, next: $next, origin: $origin) { state authUrl } }`;

const COLLECT = `mutation CollectSsoToken($state: String!) {
  collectSsoToken(state: $state) { status token activeOrganization { slug isFound isMember } } }`;

const field = (input: RouteInput, name: string): string | null => {
  const value = input.body[name] ?? input.query.get(name);
  return typeof value === "string" && value !== "" ? value : null;
};

/** pygraphistry posts `client-type=pygraphistry` and wants JSON back; anything else is a browser to redirect. */
const isPygraphistry = (input: RouteInput) => field(input, "client-type") === "pygraphistry";

/** The routes pygraphistry calls: `api/v2/g/sso/...`, `api/v2/o/...`, the JWT collection, and its POSTs anywhere. */
const speaksPygraphistry = (input: RouteInput) => /^\/api\/v2\/(g|o)\//.test(input.url.pathname) || isPygraphistry(input);

/** pygraphistry's failure shape: it reads `status` and shows `message` (../shared/reference/graphistry-clients.md). */
const pygraphistryError = (error: { code: string; message: string; details?: Record<string, unknown> }) => ({
  status: "ERR",
  message: error.message,
  error,
});

const login: Omit<RestRoute, "path"> = {
  methods: ["GET", "POST"],
  anonymous: true,
  body: { schema: "sso-login-body", required: false },
  document: START,
  variables: (input) => ({
    provider: input.params.idp ?? null,
    organization: input.params.org ?? null,
    clientType: isPygraphistry(input) ? "PYGRAPHISTRY" : "BROWSER",
    next: field(input, "next"),
    origin: input.url.origin,
  }),
  shape: (data, input) => {
    const { state, authUrl } = data.startSsoLogin as { state: string; authUrl: string };
    if (isPygraphistry(input)) return { body: { status: "OK", data: { state, auth_url: authUrl } } };
    return {
      status: 302,
      headers: { location: authUrl, "set-cookie": ssoStateCookie(state, input.url.protocol === "https:"), "cache-control": "no-store" },
      body: { status: "OK", data: { state, auth_url: authUrl } },
    };
  },
  errorBody: (error, input) => (speaksPygraphistry(input) ? pygraphistryError(error) : undefined),
};

const collect: Omit<RestRoute, "path"> = {
  methods: ["GET"],
  document: COLLECT,
  variables: (input) => ({ state: input.params.state }),
  shape: (data) => {
    const answer = data.collectSsoToken as {
      status: string;
      token: string | null;
      activeOrganization: { slug: string; isFound: boolean; isMember: boolean } | null;
    };
    if (answer.status !== "OK") {
      return { status: 202, body: { status: "PENDING", message: "the sign-in is not finished yet; ask again", data: {} } };
    }
    const org = answer.activeOrganization;
    return {
      headers: { "cache-control": "no-store" },
      body: {
        status: "OK",
        data: {
          token: answer.token,
          ...(org ? { active_organization: { slug: org.slug, is_found: org.isFound, is_member: org.isMember } } : {}),
        },
      },
    };
  },
  errorBody: (error) => pygraphistryError(error),
};

export const SSO_ROUTES: readonly RestRoute[] = [
  { path: "/api/v2/g/sso/oidc/login", ...login },
  { path: "/api/v2/g/sso/oidc/login/", ...login },
  { path: "/sso/oidc/login/:idp/", ...login },
  { path: "/api/v2/o/:org/sso/oidc/login/", ...login },
  { path: "/api/v2/o/:org/sso/oidc/login/:idp/", ...login },
  { path: "/sso/oidc/jwt/:state/", ...collect },
  { path: "/api/v2/o/sso/oidc/jwt/:state/", ...collect },
];
