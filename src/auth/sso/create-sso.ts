// Wires single sign-on: the secret box (key from the JWT secret), provider records, the OIDC client and the flow.
import type { Db } from "../../store/prisma.ts";
import type { BrowserSessions } from "../browser-sessions.ts";
import type { TokenIssuer } from "../tokens.ts";
import { createOidcClient } from "./oidc-client.ts";
import { createProviderAdmins } from "./provider-admins.ts";
import { createSsoProviders } from "./providers.ts";
import { createSecretBox } from "./secret-box.ts";
import { createSsoService } from "./sso-service.ts";

export function createSso(deps: {
  db: Db;
  jwtSecret: Uint8Array;
  tokens: TokenIssuer;
  browserSessions: BrowserSessions;
  publicUrl: string | undefined;
}) {
  const providers = createSsoProviders({ db: deps.db, box: createSecretBox(deps.jwtSecret) });
  const service = createSsoService({ ...deps, providers, oidc: createOidcClient() });
  return { ...service, admins: createProviderAdmins({ db: deps.db, providers }) };
}
