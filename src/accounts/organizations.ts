// Organizations and memberships, addressed by slug as clients send `org_name`.
import { AppError } from "../errors/app-error.ts";
import type { Db } from "../store/prisma.ts";

const SLUG = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

/** The slug, or INVALID_INPUT naming `field`. */
export function checkedSlug(slug: string, field = "slug"): string {
  if (!SLUG.test(slug))
    throw new AppError("INVALID_INPUT", "organization name must be 1-64 letters, digits, - or _", { details: { field } });
  return slug;
}

/** Adds the user to the organization (made when missing); the first member of an organization is its owner. */
export async function ensureMembership(db: Db, userId: number, slug: string, role: "member" | "admin") {
  checkedSlug(slug, "org");
  const org = await db.organization.upsert({ where: { slug }, update: {}, create: { slug, name: slug } });
  const hasOwner = await db.membership.findFirst({ where: { organizationId: org.id, role: "owner" }, select: { id: true } });
  await db.membership.upsert({
    where: { userId_organizationId: { userId, organizationId: org.id } },
    update: {},
    create: { userId, organizationId: org.id, role: hasOwner ? role : "owner" },
  });
  return org;
}

/** The organization a user may act in, or FORBIDDEN; unknown and not-a-member read the same. */
export async function requireMembership(db: Db, userId: number, slug: string) {
  const membership = await db.membership.findFirst({
    where: { userId, organization: { slug } },
    include: { organization: true },
  });
  if (!membership) {
    throw new AppError("FORBIDDEN", `not a member of organization "${slug}"`, { details: { field: "org_name" } });
  }
  return membership.organization;
}

export function organizationsOf(db: Db, userId: number) {
  return db.organization.findMany({ where: { memberships: { some: { userId } } }, orderBy: { slug: "asc" } });
}
