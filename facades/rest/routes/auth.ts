// Token routes (spec 4.1) and the client aliases for them.
import { EXCHANGE_KEY, LOGIN, REFRESH, SWITCH_ORG, VERIFY } from "../operations.ts";
import type { RestRoute, RouteInput } from "../route-types.ts";

type AuthData = {
  token: string;
  pk: number;
  user: { id: number; username: string; name: string; email: string };
  activeOrganization: { slug: string; isFound: boolean; isMember: boolean } | null;
};

/** The login answer of spec 2.1: token, pk and user, plus the active organization when one was asked for. */
function authBody(data: AuthData) {
  return {
    token: data.token,
    pk: data.pk,
    user: { name: data.user.name, username: data.user.username, email: data.user.email, id: data.user.id },
    ...(data.activeOrganization
      ? {
          active_organization: {
            slug: data.activeOrganization.slug,
            is_found: data.activeOrganization.isFound,
            is_member: data.activeOrganization.isMember,
          },
        }
      : {}),
  };
}

const orgName = (input: RouteInput) => {
  const value = input.body.org_name ?? input.query.get("org_name");
  return typeof value === "string" && value !== "" ? value : null;
};

const login: Omit<RestRoute, "path"> = {
  methods: ["POST"],
  anonymous: true,
  body: { schema: "login-body", required: true },
  document: LOGIN,
  variables: (input) => ({ username: input.body.username, password: input.body.password, orgName: orgName(input) }),
  shape: (data) => ({ body: authBody(data.login) }),
};

const refresh: Omit<RestRoute, "path"> = {
  methods: ["POST"],
  anonymous: true,
  body: { schema: "token-body", required: true },
  document: REFRESH,
  variables: (input) => ({ token: input.body.token }),
  shape: (data) => ({
    body: {
      token: data.refreshToken.token,
      expires_at: data.refreshToken.expiresAt,
      refreshable_until: data.refreshToken.refreshableUntil,
    },
  }),
};

export const AUTH_ROUTES: readonly RestRoute[] = [
  { path: "/api-token-auth/", ...login },
  { path: "/api/v2/auth/token/generate", ...login },
  { path: "/api-token-refresh/", ...refresh },
  { path: "/api/v2/auth/token/refresh", ...refresh },
  {
    path: "/api-token-verify/",
    methods: ["POST"],
    anonymous: true,
    body: { schema: "token-body", required: true },
    document: VERIFY,
    variables: (input) => ({ token: input.body.token }),
    shape: (data, input) => ({
      body: {
        token: input.body.token,
        valid: true,
        expires_at: data.verifyToken.expiresAt,
        refreshable_until: data.verifyToken.refreshableUntil,
      },
    }),
  },
  {
    path: "/api/v2/auth/pkey/jwt/",
    // pygraphistry uses GET (with a JSON body), the JS client POST.
    methods: ["POST", "GET"],
    body: { schema: "org-body", required: false },
    document: EXCHANGE_KEY,
    variables: (input) => ({ orgName: orgName(input) }),
    shape: (data) => ({ body: authBody(data.exchangePersonalKey) }),
  },
  {
    path: "/api/v2/o/:slug/switch/",
    methods: ["POST"],
    body: { schema: "org-body", required: false },
    document: SWITCH_ORG,
    variables: (input) => ({ slug: input.params.slug }),
    shape: (data) => ({ body: { status: "OK", ...authBody(data.switchOrganization) } }),
  },
];
