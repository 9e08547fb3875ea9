// Who manages which SSO providers: site admins (and the command line) every provider; owners and admins of an
// organization that organization's providers (with https issuers); nobody else any. The records are providers.ts's.
import type { Actor } from "../../accounts/memberships.ts";
import { MANAGING_ROLES, roleIn } from "../../accounts/roles.ts";
import { AppError } from "../../errors/app-error.ts";
import type { Db } from "../../store/prisma.ts";
import {
  checkIssuer,
  issuerIsInsecure,
  type ProviderInput,
  type ProviderUpdate,
  type ProviderView,
  type SsoProviders,
} from "./providers.ts";

const isSiteWide = (actor: Actor) => "site" in actor || actor.isAdmin;

export type ProviderAdmins = ReturnType<typeof createProviderAdmins>;

export function createProviderAdmins(deps: { db: Db; providers: SsoProviders }) {
  const { db, providers } = deps;

  /** Slugs of the organizations the actor owns or administers. */
  async function managedSlugs(userId: number): Promise<string[]> {
    const rows = await db.membership.findMany({
      where: { userId, role: { in: [...MANAGING_ROLES] } },
      select: { organization: { select: { slug: true } } },
    });
    return rows.map((row) => row.organization.slug);
  }

  /** FORBIDDEN unless the actor may manage the providers of `organization` (null: the site-wide ones). */
  async function requireManager(actor: Actor, organization: string | null): Promise<void> {
    if (isSiteWide(actor)) return;
    if (organization === null) throw new AppError("FORBIDDEN", "Only site administrators manage site-wide SSO providers.");
    const org = await db.organization.findUnique({ where: { slug: organization }, select: { id: true } });
    const role = org && "userId" in actor ? await roleIn(db, actor.userId, org.id) : undefined;
    if (role === undefined || !MANAGING_ROLES.includes(role)) {
      throw new AppError("FORBIDDEN", `Only owners and admins of organization "${organization}" manage its SSO providers.`, {
        details: { field: "organization" },
      });
    }
  }

  /**
   * Organization admins point providers at https issuers only: the exception for http on this machine (a provider
   * run beside the service) would let them make the service fetch from its own loopback services.
   */
  function checkIssuerFor(actor: Actor, issuer: string | undefined): void {
    if (issuer === undefined || isSiteWide(actor)) return;
    if (issuerIsInsecure(checkIssuer(issuer))) {
      throw new AppError("INVALID_INPUT", "issuer must be an https URL (http on localhost is for site administrators)", {
        details: { field: "issuer" },
      });
    }
  }

  async function organizationOf(name: string): Promise<string | null> {
    const row = await db.ssoProvider.findUnique({ where: { name }, select: { organization: { select: { slug: true } } } });
    if (!row) throw new AppError("NOT_FOUND", `no SSO provider "${name}"`);
    return row.organization?.slug ?? null;
  }

  async function create(actor: Actor, input: ProviderInput): Promise<ProviderView> {
    await requireManager(actor, input.organization === undefined || input.organization === "" ? null : input.organization);
    checkIssuerFor(actor, input.issuer);
    return providers.create(input);
  }

  async function update(actor: Actor, name: string, input: ProviderUpdate): Promise<ProviderView> {
    await requireManager(actor, await organizationOf(name));
    checkIssuerFor(actor, input.issuer);
    return providers.update(name, input);
  }

  async function remove(actor: Actor, name: string): Promise<boolean> {
    await requireManager(actor, await organizationOf(name));
    return providers.remove(name);
  }

  /** The settings of the providers the actor manages: all for site admins, else those of its organizations. */
  async function settings(actor: Actor): Promise<ProviderView[]> {
    const all = await providers.list();
    if (isSiteWide(actor)) return all;
    const slugs = "userId" in actor ? await managedSlugs(actor.userId) : [];
    if (slugs.length === 0)
      throw new AppError("FORBIDDEN", "Only site administrators and organization owners and admins manage SSO providers.");
    return all.filter((provider) => provider.organization !== null && slugs.includes(provider.organization));
  }

  return { create, update, remove, settings };
}
