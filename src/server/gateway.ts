// createGateway(config): one fetch handler serving /graphql, the /mcp tool endpoint, the REST facade and static files.
import path from "node:path";
import type { DocumentNode } from "graphql";
import { createYoga } from "graphql-yoga";
import type { Execute } from "../../facades/execute.ts";
import type { McpFacade } from "../../facades/mcp/app.ts";
import { createRestFacade } from "../../facades/rest/app.ts";
import { createWebFacade } from "../../facades/web/app.ts";
import { schema } from "../../schema/index.ts";
import { clearedSessionCookie, sessionCookie } from "../auth/browser-sessions.ts";
import { useSingleUseScope } from "../auth/single-use/scope-plugin.ts";
import type { Config } from "../config/config.ts";
import { AppError } from "../errors/app-error.ts";
import { createErrorMasker } from "../errors/to-graphql.ts";
import { type ContextInput, createContext } from "./context.ts";
import { GRAPHIQL_ASSETS, graphiqlAssetsDir, renderLocalGraphiQL } from "./graphiql.ts";
import { limitGraphqlBody } from "./graphql-body-limit.ts";
import { useDocumentLimits, useSuggestionsForSignedIn, useVariableDepthLimit } from "./graphql-limits.ts";
import { createLogger, type Logger } from "./logger.ts";
import { createMetrics } from "./metrics.ts";
import { withObservability } from "./observability.ts";
import { createRateLimits, useRateLimits } from "./rate-limits.ts";
import { createRoutePattern } from "./route-pattern.ts";
import { createServices, WEB_ROOT } from "./services.ts";
import { createMountedHandler, createStaticHandler } from "./static.ts";
import { createTableRoutes } from "./table-routes.ts";
import { withWebSecurity } from "./web-security.ts";

export type ServerEnv = {
  /** The peer address as the socket reports it. */
  clientAddress: string;
  /**
   * The request body straight from the server's socket, where the runtime offers it: it carries the
   * body of a GET (which fetch's Request drops; pygraphistry sends one) and streams uploads without
   * the cost of web-stream conversion.
   */
  requestBody?: () => AsyncIterable<Uint8Array>;
};

export type Gateway = Awaited<ReturnType<typeof createGateway>>;

export async function createGateway(config: Config, options: { logger?: Logger } = {}) {
  const logger = options.logger ?? createLogger(config.logLevel);
  const metrics = createMetrics();
  const services = await createServices(config, logger, { onUpload: metrics.onUpload });
  metrics.watchQueues(services.queues);

  const yoga = createYoga<ContextInput>({
    schema,
    graphqlEndpoint: "/graphql",
    context: (initial) => createContext(services, initial),
    maskedErrors: { maskError: createErrorMasker(logger) },
    graphiql: { subscriptionsProtocol: "WS", title: "Graph visualization service" },
    // Its scripts come from this server (/graphiql/), not from a CDN.
    renderGraphiQL: renderLocalGraphiQL,
    landingPage: false,
    logging: false,
    // A single-use link's browser session runs only its dataset page's operations. The limits hold for the facades'
    // operations too: they run through this same envelop.
    plugins: [
      metrics.graphqlPlugin,
      useSingleUseScope(),
      useDocumentLimits(config.graphqlLimits),
      useVariableDepthLimit(config.graphqlLimits.variableDepth),
      useSuggestionsForSignedIn(services),
      useRateLimits(createRateLimits(config.rateLimits, services.redis?.publish)),
    ],
  });

  const parsed = new Map<string, DocumentNode>();
  /** The facades' entry into the core: the same schema, context and error masking as /graphql. */
  const execute: Execute = async ({ document, variables, request, clientAddress, scope }) => {
    // The REST verb is not the GraphQL transport: present the operation as a POST carrying the caller's headers.
    const carrier = request.method === "POST" ? request : new Request(request.url, { method: "POST", headers: request.headers });
    const enveloped = yoga.getEnveloped({ request: carrier, clientAddress, scope });
    let node = parsed.get(document);
    if (!node) {
      const fresh: DocumentNode = enveloped.parse(document);
      const errors = enveloped.validate(enveloped.schema, fresh);
      if (errors.length > 0) throw new AppError("INTERNAL", `facade document is invalid: ${errors[0]?.message}`);
      parsed.set(document, fresh);
      node = fresh;
    }
    const contextValue = await enveloped.contextFactory();
    return (await enveloped.execute({ schema: enveloped.schema, document: node, variableValues: variables ?? {}, contextValue })) as never;
  };

  const rest = createRestFacade({
    execute,
    maxJsonBodyBytes: config.maxJsonBodyBytes,
    publicUrl: config.publicUrl,
    gfqlMaxRows: config.gfqlMaxRows,
    onUnexpected: (error) => logger.error("unexpected REST error", { error: error instanceof Error ? error.stack : String(error) }),
  });
  // The tool endpoint (the MCP SDK, some 28 MiB resident) is loaded on its first request, not at start.
  let mcpFacade: Promise<McpFacade> | undefined;
  const mcp = () =>
    (mcpFacade ??= import("../../facades/mcp/app.ts").then(({ createMcpFacade }) =>
      createMcpFacade({
        execute,
        directory: services.mcpSessions,
        idleMs: config.mcpIdleSeconds * 1000,
        toolTimeoutMs: config.mcpToolTimeoutMs,
        maxSessions: config.mcpMaxSessions,
        maxBodyBytes: config.maxJsonBodyBytes,
        onUnexpected: (error) =>
          logger.error("unexpected tool endpoint error", { error: error instanceof Error ? error.stack : String(error) }),
      }),
    ));
  const serveStatic = createStaticHandler(WEB_ROOT);
  const servePage = createMountedHandler("/graph/", path.join(WEB_ROOT, "dist"));
  const serveGraphiql = createMountedHandler(GRAPHIQL_ASSETS, graphiqlAssetsDir());
  const serveTableData = createTableRoutes(services);
  const web = createWebFacade({
    execute,
    cookieSecure: config.cookieSecure,
    cookie: { set: sessionCookie, clear: clearedSessionCookie },
    servePage: (request) => servePage(new Request(new URL("/graph/graph.html", request.url))),
    singleUseTokenName: config.sesameTokenName,
    publicUrl: config.publicUrl,
  });

  function clientAddressOf(request: Request, env: ServerEnv): string {
    if (!config.trustProxy) return env.clientAddress;
    const forwarded = request.headers.get("x-forwarded-for")?.split(",")[0]?.trim();
    return forwarded || env.clientAddress;
  }

  async function route(request: Request, env: ServerEnv): Promise<Response> {
    const clientAddress = clientAddressOf(request, env);
    const { pathname } = new URL(request.url);
    if (pathname === "/graphql") {
      const limited = await limitGraphqlBody(request, { maxJsonBytes: config.maxJsonBodyBytes, maxUploadBytes: config.maxUploadBytes });
      return limited instanceof Response ? limited : yoga.fetch(limited, { clientAddress });
    }
    if (pathname === "/mcp" || pathname === "/mcp/") return (await mcp()).fetch(request, { clientAddress, requestBody: env.requestBody });
    if (pathname === "/login" || pathname === "/logout" || pathname === "/graph/graph.html" || pathname === "/magic-login/")
      return web.fetch(request, { clientAddress });
    if (pathname === "/account" || pathname.startsWith("/account/")) return web.fetch(request, { clientAddress });
    if (pathname === "/sso/oidc/callback/") return web.fetch(request, { clientAddress });
    if (pathname.startsWith("/graph/data/"))
      return (await serveTableData(request, clientAddress)) ?? rest.fetch(request, { clientAddress });
    if (pathname.startsWith("/graph/")) return (await servePage(request)) ?? rest.fetch(request, { clientAddress });
    if (pathname.startsWith(GRAPHIQL_ASSETS)) return (await serveGraphiql(request)) ?? rest.fetch(request, { clientAddress });
    return (await serveStatic(request)) ?? rest.fetch(request, { clientAddress, requestBody: env.requestBody });
  }

  const secured = withWebSecurity(route, {
    corsOrigins: config.corsOrigins,
    publicUrl: config.publicUrl,
    frameAncestors: config.frameAncestors,
  });
  // Request ids, access log lines, request metrics and /metrics (METRICS_TOKEN) around everything.
  const observed = withObservability(secured, { logger, metrics, routePattern: createRoutePattern(), metricsToken: config.metricsToken });
  const fetch = (request: Request, env: ServerEnv = { clientAddress: "unknown" }): Promise<Response> => observed(request, env);

  async function close(): Promise<void> {
    await (await mcpFacade)?.close();
    await services.close();
  }

  return { fetch, execute, yoga, services, logger, metrics, close };
}
