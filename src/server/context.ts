// The per-operation GraphQL context: services plus a lazily authenticated viewer.
import type { Viewer } from "../auth/viewer.ts";
import { AppError } from "../errors/app-error.ts";
import type { Services } from "./services.ts";

export type GatewayContext = {
  services: Services;
  clientAddress: string;
  /** The raw Authorization value (HTTP header, or graphql-ws connectionParams). */
  authorization: string | undefined;
  viewer(): Promise<Viewer | null>;
  requireViewer(): Promise<Viewer>;
  requireAdmin(): Promise<Viewer>;
};

export type ContextInput = {
  request?: Request;
  clientAddress?: string;
  connectionParams?: Readonly<Record<string, unknown>>;
};

function authorizationFrom(input: ContextInput): string | undefined {
  const header = input.request?.headers.get("authorization");
  if (header) return header;
  const params = input.connectionParams ?? {};
  const value = params.Authorization ?? params.authorization;
  return typeof value === "string" ? value : undefined;
}

export function createContext(services: Services, input: ContextInput): GatewayContext {
  const authorization = authorizationFrom(input);
  let viewer: Promise<Viewer | null> | undefined;
  const getViewer = () => {
    viewer ??= services.authenticator.authenticate(authorization);
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
    viewer: getViewer,
    requireViewer,
    async requireAdmin() {
      const found = await requireViewer();
      if (!found.isAdmin) throw new AppError("FORBIDDEN", "Administrator rights are required.");
      return found;
    },
  };
}
