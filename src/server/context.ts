// The per-operation GraphQL context: services plus a lazily authenticated viewer.
import { sessionTokenFrom } from "../auth/browser-sessions.ts";
import { scopedViewer, type Viewer } from "../auth/viewer.ts";
import { AppError } from "../errors/app-error.ts";
import { noteRequestUser } from "./request-scope.ts";
import type { Services } from "./services.ts";

export type GatewayContext = {
  services: Services;
  clientAddress: string;
  /** The raw Authorization value (HTTP header, or graphql-ws connectionParams). */
  authorization: string | undefined;
  /** The browser session token from the cookie, when the request may use it (see cookieTokenFrom). */
  sessionToken: string | undefined;
  viewer(): Promise<Viewer | null>;
  requireViewer(): Promise<Viewer>;
  requireAdmin(): Promise<Viewer>;
};

export type ContextInput = {
  request?: Request;
  clientAddress?: string;
  connectionParams?: Readonly<Record<string, unknown>>;
  /** Operations run with one scope object share their viewer (see facades/execute.ts). */
  scope?: object;
};

/** The viewer of each scope, authenticated once for all its operations. */
const scopeViewers = new WeakMap<object, Promise<Viewer | null>>();

function authorizationFrom(input: ContextInput): string | undefined {
  const header = input.request?.headers.get("authorization");
  if (header) return header;
  const params = input.connectionParams ?? {};
  const value = params.Authorization ?? params.authorization;
  return typeof value === "string" ? value : undefined;
}

/**
 * The session cookie counts except on a POST that is not JSON: that is the one request another site can
 * make a browser send without a CORS preflight (an HTML form), so it must carry a real credential.
 */
function cookieTokenFrom(input: ContextInput): string | undefined {
  const request = input.request;
  if (!request) return undefined;
  const type = request.headers.get("content-type") ?? "";
  const forgeable = request.method === "POST" && !type.startsWith("application/json");
  return forgeable ? undefined : sessionTokenFrom(request.headers.get("cookie"));
}

export function createContext(services: Services, input: ContextInput): GatewayContext {
  const authorization = authorizationFrom(input);
  const sessionToken = cookieTokenFrom(input);
  let viewer: Promise<Viewer | null> | undefined;
  const authenticate = () =>
    // An explicit credential wins; without one, a signed-in browser's cookie.
    (authorization ? services.authenticator.authenticate(authorization) : services.authenticator.authenticateCookie(sessionToken)).then(
      (found) => {
        noteRequestUser(found?.userId); // for the access log line
        return found;
      },
    );
  const scope = input.scope;
  const getViewer = () => {
    if (viewer === undefined && scope !== undefined) {
      let shared = scopeViewers.get(scope);
      if (shared === undefined) {
        shared = authenticate().then((found) => (found ? scopedViewer(found) : null));
        scopeViewers.set(scope, shared);
      }
      viewer = shared;
    }
    viewer ??= authenticate();
    return viewer;
  };
  const requireViewer = async () => {
    const found = await getViewer();
    if (!found) throw new AppError("UNAUTHENTICATED", "Authentication credentials were not provided.");
    return found;
  };
  return {
    services,
    clientAddress: input.clientAddress ?? "unknown",
    authorization,
    sessionToken,
    viewer: getViewer,
    requireViewer,
    async requireAdmin() {
      const found = await requireViewer();
      if (!found.isAdmin) throw new AppError("FORBIDDEN", "Administrator rights are required.");
      return found;
    },
  };
}
