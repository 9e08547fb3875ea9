// Builds the REST facade from the route table: read body, run the operation, shape the answer.
import { Hono } from "hono";
import { asDatabaseUnavailable } from "../../src/errors/unavailable.ts";
import type { Execute } from "../execute.ts";
import { readObjectBody } from "./body.ts";
import { errorResponse, fromGraphQLErrors, RestError } from "./errors.ts";
import type { RestRoute, RouteInput } from "./route-types.ts";
import { REST_ROUTES } from "./routes/index.ts";
import { validateBody } from "./validate.ts";

export type RestEnv = {
  Bindings: {
    clientAddress: string;
    /** The body straight from the socket, when the runtime offers it (see ServerEnv.requestBody). */
    requestBody?: () => AsyncIterable<Uint8Array>;
  };
};

export type RestFacadeOptions = {
  execute: Execute;
  maxJsonBodyBytes: number;
  onUnexpected?: (error: unknown) => void;
  /** Public base URL (PUBLIC_URL); absent, links are built from the request's own URL. */
  publicUrl?: string | undefined;
  /** GFQL_MAX_ROWS: the rows per table the remote GFQL route answers at most (default 10,000). */
  gfqlMaxRows?: number;
  routes?: readonly RestRoute[];
};

function publicUrlOf(request: Request, base: string | undefined): URL {
  const url = new URL(request.url);
  if (base === undefined) return url;
  // Keeps a path prefix of PUBLIC_URL (a service mounted below / behind a proxy).
  return new URL(`${base}${url.pathname}${url.search}`);
}

const CALLER = "query RestCaller { caller { __typename } }";

/** Throws the 401 (UNAUTHENTICATED, TOKEN_EXPIRED) of a request that carries no valid credential. */
async function requireCaller(execute: Execute, request: Request, clientAddress: string): Promise<void> {
  const result = await execute({ document: CALLER, request, clientAddress });
  if (result.errors?.length) {
    const error = fromGraphQLErrors(result.errors);
    if (error.code === "UNAUTHENTICATED" || error.code === "TOKEN_EXPIRED") throw error;
    return;
  }
  if ((result.data as { caller?: unknown } | null | undefined)?.caller === null) {
    throw new RestError("UNAUTHENTICATED", "Authentication credentials were not provided.");
  }
}

export function createRestFacade(options: RestFacadeOptions): Hono<RestEnv> {
  const routes = options.routes ?? REST_ROUTES;
  const app = new Hono<RestEnv>({ strict: true });
  /** Each request's own error body, for routes whose clients read one (RestRoute.errorBody). */
  const errorShapes = new WeakMap<Request, Parameters<typeof errorResponse>[3]>();

  for (const route of routes) {
    app.on([...route.methods], route.path, async (c) => {
      const url = publicUrlOf(c.req.raw, options.publicUrl);
      const input: RouteInput = {
        params: c.req.param() as Record<string, string>,
        query: url.searchParams,
        body: {},
        url,
        gfqlMaxRows: options.gfqlMaxRows ?? 10_000,
      };
      const errorBody = route.errorBody;
      if (errorBody) errorShapes.set(c.req.raw, (error) => errorBody(error, input));
      if (route.rawBody) {
        const request = c.req.raw;
        const direct = c.env.requestBody;
        input.upload = {
          stream: () => request.body ?? new ReadableStream<Uint8Array>({ start: (controller) => controller.close() }),
          ...(direct ? { chunks: direct } : {}),
        };
      }
      if (route.body) {
        const { schema, required } = route.body;
        try {
          input.body = await readObjectBody(c.req.raw, { maxBytes: options.maxJsonBodyBytes, required }, c.env.requestBody);
          validateBody(schema, input.body);
        } catch (error) {
          // Authentication first: a caller without a valid credential hears that, not the body's rules.
          if (!route.anonymous && error instanceof RestError) await requireCaller(options.execute, c.req.raw, c.env.clientAddress);
          throw error;
        }
      }
      const result = await options.execute({
        document: route.document,
        variables: route.variables(input),
        request: c.req.raw,
        clientAddress: c.env.clientAddress,
      });
      if (result.errors?.length) throw fromGraphQLErrors(result.errors);
      const shaped = route.shape(result.data, input);
      const status = shaped.status ?? 200;
      if (status === 204) return c.body(null, 204);
      if (shaped.bytes) return c.body(shaped.bytes as Uint8Array<ArrayBuffer>, status as 200, shaped.headers);
      return c.json(shaped.body ?? {}, status as 200, shaped.headers);
    });
  }

  // A known path with another method: 405 with Allow (the JS client's pkey fallback keys on it).
  const allowed = new Map<string, Set<string>>();
  for (const route of routes) {
    const set = allowed.get(route.path) ?? new Set<string>();
    for (const method of route.methods) set.add(method);
    allowed.set(route.path, set);
  }
  for (const [path, methods] of allowed) {
    const allow = [...methods].join(", ");
    app.all(path, () => {
      const response = errorResponse("METHOD_NOT_ALLOWED", `method not allowed here; use ${allow}`, { allow: [...methods] });
      response.headers.set("allow", allow);
      return response;
    });
  }

  app.notFound((c) => {
    const path = new URL(c.req.url).pathname;
    const twin = path.endsWith("/") ? path.slice(0, -1) : `${path}/`;
    const hint = routes.some((r) => r.path === twin) ? { did_you_mean: twin } : undefined;
    return errorResponse("NOT_FOUND", hint ? `no route ${path}; did you mean ${twin}?` : `no route ${path}`, hint);
  });

  app.onError((error, c) => {
    const shape = errorShapes.get(c.req.raw);
    if (error instanceof RestError) return errorResponse(error.code, error.message, error.details, shape);
    const unavailable = asDatabaseUnavailable(error);
    if (unavailable) return errorResponse(unavailable.code, unavailable.message, unavailable.details, shape);
    options.onUnexpected?.(error);
    return errorResponse("INTERNAL", "Unexpected error.", undefined, shape);
  });

  return app;
}
