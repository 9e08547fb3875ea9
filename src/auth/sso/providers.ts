// SSO provider records: site-wide or per organization; admins manage them, anyone may list names and login URLs.
import { AppError } from "../../errors/app-error.ts";
import type { Db } from "../../store/prisma.ts";
import type { SecretBox } from "./secret-box.ts";

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const DOMAIN = /^(?=.{1,253}$)[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/;

export type ProviderInput = {
  name: string;
  displayName?: string | undefined;
  organization?: string | undefined;
  issuer: string;
  clientId: string;
  clientSecret: string;
  allowedDomains?: readonly string[] | undefined;
};

export type ProviderUpdate = Partial<Omit<ProviderInput, "name" | "organization">>;

/** A provider as admins see it: everything but the secret. */
export type ProviderView = {
  id: number;
  name: string;
  displayName: string;
  organization: string | null;
  issuer: string;
  clientId: string;
  allowedDomains: string[];
  createdAt: Date;
  updatedAt: Date;
};

/** A provider with its secret decrypted, for the sign-in flow only. */
export type ProviderSecrets = ProviderView & { clientSecret: string };

type Row = {
  id: number;
  name: string;
  displayName: string;
  issuer: string;
  clientId: string;
  clientSecretEnc: string;
  allowedDomains: string;
  createdAt: Date;
  updatedAt: Date;
  organization: { slug: string } | null;
};

const invalid = (field: string, message: string) => new AppError("INVALID_INPUT", message, { details: { field } });

const isLoopback = (host: string) => host === "localhost" || host === "127.0.0.1" || host === "[::1]";

/** An issuer must be https, or http on this machine (a provider run beside the service). */
export function checkIssuer(value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw invalid("issuer", "issuer must be an absolute URL");
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && isLoopback(url.hostname))) {
    throw invalid("issuer", "issuer must be an https URL (http only for localhost)");
  }
  if (url.search || url.hash) throw invalid("issuer", "issuer takes no query or fragment");
  return url.href.replace(/\/$/, "");
}

export const issuerIsInsecure = (issuer: string) => new URL(issuer).protocol === "http:";

function checkDomains(domains: readonly string[] | undefined): string[] {
  const out = (domains ?? []).map((d) => d.trim().toLowerCase().replace(/^@/, "")).filter((d) => d !== "");
  const bad = out.find((d) => !DOMAIN.test(d));
  if (bad !== undefined) throw invalid("allowedDomains", `"${bad}" is not a domain name`);
  return [...new Set(out)];
}

function text(field: string, value: string | undefined, max = 1000): string | undefined {
  if (value === undefined) return undefined;
  const trimmed = value.trim();
  if (trimmed === "" || trimmed.length > max) throw invalid(field, `${field} must be 1-${max} characters`);
  return trimmed;
}

function view(row: Row): ProviderView {
  return {
    id: row.id,
    name: row.name,
    displayName: row.displayName || row.name,
    organization: row.organization?.slug ?? null,
    issuer: row.issuer,
    clientId: row.clientId,
    allowedDomains: JSON.parse(row.allowedDomains) as string[],
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export type SsoProviders = ReturnType<typeof createSsoProviders>;

export function createSsoProviders(deps: { db: Db; box: SecretBox }) {
  const { db, box } = deps;
  const include = { organization: { select: { slug: true } } } as const;

  async function create(input: ProviderInput): Promise<ProviderView> {
    if (!NAME.test(input.name)) throw invalid("name", "name must be 1-64 letters, digits, - or _");
    const issuer = checkIssuer(input.issuer);
    const clientId = text("clientId", input.clientId) as string;
    const clientSecret = text("clientSecret", input.clientSecret) as string;
    const allowedDomains = checkDomains(input.allowedDomains);
    let organizationId: number | null = null;
    if (input.organization !== undefined && input.organization !== "") {
      const org = await db.organization.findUnique({ where: { slug: input.organization }, select: { id: true } });
      if (!org) throw new AppError("NOT_FOUND", `no organization "${input.organization}"`, { details: { field: "organization" } });
      organizationId = org.id;
    }
    if (await db.ssoProvider.findUnique({ where: { name: input.name }, select: { id: true } })) {
      throw new AppError("CONFLICT", `an SSO provider named "${input.name}" exists`, { details: { field: "name" } });
    }
    const row = await db.ssoProvider.create({
      data: {
        name: input.name,
        displayName: text("displayName", input.displayName, 200) ?? "",
        organizationId,
        issuer,
        clientId,
        clientSecretEnc: box.seal(clientSecret),
        allowedDomains: JSON.stringify(allowedDomains),
      },
      include,
    });
    return view(row);
  }

  async function rowByName(name: string): Promise<Row> {
    const row = await db.ssoProvider.findUnique({ where: { name }, include });
    if (!row) throw new AppError("NOT_FOUND", `no SSO provider "${name}"`);
    return row;
  }

  async function update(name: string, input: ProviderUpdate): Promise<ProviderView> {
    await rowByName(name);
    const clientSecret = text("clientSecret", input.clientSecret);
    const row = await db.ssoProvider.update({
      where: { name },
      data: {
        ...(input.displayName !== undefined ? { displayName: input.displayName.trim() } : {}),
        ...(input.issuer !== undefined ? { issuer: checkIssuer(input.issuer) } : {}),
        ...(input.clientId !== undefined ? { clientId: text("clientId", input.clientId) as string } : {}),
        ...(clientSecret !== undefined ? { clientSecretEnc: box.seal(clientSecret) } : {}),
        ...(input.allowedDomains !== undefined ? { allowedDomains: JSON.stringify(checkDomains(input.allowedDomains)) } : {}),
      },
      include,
    });
    return view(row);
  }

  async function remove(name: string): Promise<boolean> {
    await rowByName(name);
    await db.ssoProvider.delete({ where: { name } });
    return true;
  }

  async function list(): Promise<ProviderView[]> {
    const rows = await db.ssoProvider.findMany({ include, orderBy: { name: "asc" } });
    return rows.map(view);
  }

  async function withSecret(row: Row): Promise<ProviderSecrets> {
    return { ...view(row), clientSecret: box.open(row.clientSecretEnc) };
  }

  /**
   * The provider a login route names: by name (optionally checked against the organization in the path), or the
   * organization's only provider, or the only site-wide one.
   */
  async function resolve(input: { name?: string | undefined; organization?: string | undefined }): Promise<ProviderSecrets> {
    const { name, organization } = input;
    if (name !== undefined && name !== "") {
      const row = await rowByName(name);
      if (organization !== undefined && row.organization?.slug !== organization) {
        throw new AppError("NOT_FOUND", `no SSO provider "${name}" in organization "${organization}"`);
      }
      return withSecret(row);
    }
    const rows = await db.ssoProvider.findMany({
      where: organization !== undefined ? { organization: { slug: organization } } : { organizationId: null },
      include,
      orderBy: { id: "asc" },
      take: 2,
    });
    const where = organization !== undefined ? `organization "${organization}"` : "this site (site-wide)";
    if (rows.length === 0) throw new AppError("NOT_FOUND", `no SSO provider is configured for ${where}`);
    if (rows.length > 1) {
      throw new AppError("INVALID_INPUT", `${where} has several SSO providers; name one in the path (.../sso/oidc/login/<idp_name>/)`);
    }
    return withSecret(rows[0] as Row);
  }

  async function byId(id: number): Promise<ProviderSecrets> {
    const row = await db.ssoProvider.findUnique({ where: { id }, include });
    if (!row) throw new AppError("NOT_FOUND", "the SSO provider of this sign-in was removed");
    return withSecret(row);
  }

  return { create, update, remove, list, resolve, byId };
}
