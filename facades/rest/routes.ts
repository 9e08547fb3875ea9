// The REST route table: each path (with the spec's exact trailing slash) -> a GraphQL operation and a shaper.
import { EXCHANGE_KEY, HEALTH, LOGIN, REFRESH, SWITCH_ORG, VERIFY } from "./operations.ts";

export type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

export type RouteInput = {
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
  /** The request's absolute URL as the client sees it (PUBLIC_URL when set), for list envelope links. */
  url: URL;
};

export type Shaped = { status?: number; body?: unknown; headers?: Record<string, string> };

export type RestRoute = {
  methods: readonly Method[];
  path: string;
  /** JSON Schema id (schema/json) the body must satisfy; absent for routes that read no body. */
  body?: { schema: string; required: boolean };
  document: string;
  variables(input: RouteInput): Record<string, unknown>;
  // biome-ignore lint/suspicious/noExplicitAny: the data shape is the document's, checked by tests.
  shape(data: any, input: RouteInput): Shaped;
};

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
  body: { schema: "login-body", required: true },
  document: LOGIN,
  variables: (input) => ({ username: input.body.username, password: input.body.password, orgName: orgName(input) }),
  shape: (data) => ({ body: authBody(data.login) }),
};

const refresh: Omit<RestRoute, "path"> = {
  methods: ["POST"],
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

const HEALTH_ROUTES: [string, string][] = [
  ["/health/", "EXTERNAL_PROXY"],
  ["/healthz", "PROXY"],
  ["/ht/", "CONTENT"],
  ["/vizsvc-gpu/primary/health", "VIZ_PRIMARY"],
  ["/vizsvc-gpu/secondary/cpu/health", "VIZ_CPU"],
  ["/vizsvc-gpu/secondary/gpu/health", "VIZ_GPU"],
  ["/check-workers", "WORKERS"],
  ["/vizsvc-viz/health", "VIZ_WEB"],
  ["/pivot/health", "PIVOT"],
  ["/vizsvc-sessions/health", "SESSIONS"],
];

type HealthData = {
  component: string;
  healthy: boolean;
  checks: { name: string; healthy: boolean; detail: string; latencyMs: number }[];
  workers: { id: string; backend: string; ready: boolean; clContextHealthy: boolean; detail: string; devices: string[] }[] | null;
};

/** 200 when every check passes, else 503 naming the failing parts. */
function healthBody(data: HealthData): Shaped {
  const failing = data.checks.filter((c) => !c.healthy).map((c) => c.name);
  return {
    status: data.healthy ? 200 : 503,
    headers: { "cache-control": "no-store" },
    body: {
      status: data.healthy ? "ok" : "unhealthy",
      component: data.component.toLowerCase(),
      failing,
      checks: Object.fromEntries(data.checks.map((c) => [c.name, { ok: c.healthy, detail: c.detail, latency_ms: c.latencyMs }])),
      ...(data.workers ? { workers: data.workers.map((w) => ({ ...w, devices: w.devices })) } : {}),
    },
  };
}

export const REST_ROUTES: readonly RestRoute[] = [
  { path: "/api-token-auth/", ...login },
  { path: "/api/v2/auth/token/generate", ...login },
  { path: "/api-token-refresh/", ...refresh },
  { path: "/api/v2/auth/token/refresh", ...refresh },
  {
    path: "/api-token-verify/",
    methods: ["POST"],
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
  ...HEALTH_ROUTES.map(
    ([path, component]): RestRoute => ({
      path,
      methods: ["GET"],
      document: HEALTH,
      variables: () => ({ component }),
      shape: (data) => healthBody(data.health),
    }),
  ),
];
