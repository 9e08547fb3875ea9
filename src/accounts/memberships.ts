// Organization membership management: create an organization, list, add and remove members, change roles.
// Owners and admins of the organization (and site admins) manage it; only owners (and site admins) make or unmake
// owners; an organization always keeps at least one owner.
import { AppError } from "../errors/app-error.ts";
import type { Db } from "../store/prisma.ts";
import { checkedSlug } from "./organizations.ts";
import { isRole, MANAGING_ROLES, ROLES, type Role, roleIn } from "./roles.ts";

/** Who acts: a signed-in user, or the command line (`site: true`, a site admin without an account). */
export type Actor = { userId: number; isAdmin: boolean } | { site: true };

export type MemberRow = { userId: number; username: string; role: Role; createdAt: Date };

const isSite = (actor: Actor): actor is { site: true } => "site" in actor;

function checkedRole(role: unknown): Role {
  if (!isRole(role)) throw new AppError("INVALID_INPUT", `role must be one of ${ROLES.join(", ")}`, { details: { field: "role" } });
  return role;
}

async function organization(db: Db, slug: string) {
  const org = await db.organization.findUnique({ where: { slug } });
  if (!org) throw new AppError("NOT_FOUND", `no organization "${slug}"`, { details: { field: "org_name" } });
  return org;
}

/** The actor's role there ("owner" for site admins); a non-member gets FORBIDDEN, as an unknown slug reads to them. */
async function actorRole(db: Db, actor: Actor, slug: string): Promise<{ org: { id: number; slug: string }; role: Role }> {
  const notMember = () => new AppError("FORBIDDEN", `not a member of organization "${slug}"`, { details: { field: "org_name" } });
  const org = await db.organization.findUnique({ where: { slug } });
  if (isSite(actor) || actor.isAdmin) {
    if (!org) throw new AppError("NOT_FOUND", `no organization "${slug}"`, { details: { field: "org_name" } });
    return { org, role: "owner" };
  }
  if (!org) throw notMember();
  const role = await roleIn(db, actor.userId, org.id);
  if (!role) throw notMember();
  return { org, role };
}

async function managerRole(db: Db, actor: Actor, slug: string) {
  const found = await actorRole(db, actor, slug);
  if (!MANAGING_ROLES.includes(found.role))
    throw new AppError("FORBIDDEN", `only owners and admins of "${slug}" manage its members`, { details: { field: "org_name" } });
  return found;
}

async function userNamed(db: Db, username: string) {
  const user = await db.user.findUnique({ where: { username }, select: { id: true, username: true } });
  if (!user) throw new AppError("NOT_FOUND", `no user "${username}"`, { details: { field: "username" } });
  return user;
}

/** Runs `change` with the organization's row locked (writers on one organization take turns), then checks owners. */
async function changing<T>(db: Db, org: { id: number; slug: string }, change: (tx: Db) => Promise<T>): Promise<T> {
  const organizationId = org.id;
  return db.$transaction(async (tx) => {
    await tx.organization.update({ where: { id: organizationId }, data: { slug: org.slug } });
    const result = await change(tx as Db);
    const owners = await tx.membership.count({ where: { organizationId, role: "owner" } });
    if (owners === 0) throw new AppError("CONFLICT", "an organization keeps at least one owner", { details: { field: "role" } });
    return result;
  });
}

function toRow(m: { userId: number; role: string; createdAt: Date; user: { username: string } }): MemberRow {
  return { userId: m.userId, username: m.user.username, role: isRole(m.role) ? m.role : "member", createdAt: m.createdAt };
}

export function createMembershipService(db: Db) {
  /** A new organization; a user who creates one is its owner, the command line names the owner. */
  async function createOrganization(actor: Actor, input: { slug: string; name?: string | undefined; owner?: string | undefined }) {
    const slug = checkedSlug(input.slug);
    const ownerId = input.owner !== undefined ? (await userNamed(db, input.owner)).id : isSite(actor) ? undefined : actor.userId;
    if (ownerId === undefined) throw new AppError("INVALID_INPUT", "a new organization needs an owner", { details: { field: "owner" } });
    if (!isSite(actor) && !actor.isAdmin && ownerId !== actor.userId)
      throw new AppError("FORBIDDEN", "only site admins create organizations owned by someone else", { details: { field: "owner" } });
    if (await db.organization.findUnique({ where: { slug }, select: { id: true } }))
      throw new AppError("CONFLICT", `organization "${slug}" already exists`, { details: { field: "slug" } });
    try {
      return await db.organization.create({
        data: { slug, name: input.name ?? slug, memberships: { create: { userId: ownerId, role: "owner" } } },
      });
    } catch (error) {
      if ((error as { code?: string }).code === "P2002")
        throw new AppError("CONFLICT", `organization "${slug}" already exists`, { details: { field: "slug" } });
      throw error;
    }
  }

  /** Members with their roles: any member of the organization, and site admins, may list them. */
  async function members(actor: Actor, slug: string): Promise<MemberRow[]> {
    const { org } = await actorRole(db, actor, slug);
    const rows = await db.membership.findMany({
      where: { organizationId: org.id },
      include: { user: { select: { username: true } } },
      orderBy: { id: "asc" },
    });
    return rows.map(toRow);
  }

  /** Adds a user with a role, or changes the role of a member already there. */
  async function setMember(actor: Actor, slug: string, username: string, role: unknown): Promise<MemberRow> {
    const wanted = checkedRole(role);
    const { org, role: mine } = await managerRole(db, actor, slug);
    const user = await userNamed(db, username);
    return changing(db, org, async (tx) => {
      const current = await tx.membership.findUnique({ where: { userId_organizationId: { userId: user.id, organizationId: org.id } } });
      if (mine !== "owner" && (wanted === "owner" || current?.role === "owner"))
        throw new AppError("FORBIDDEN", "only owners make or unmake owners", { details: { field: "role" } });
      const saved = await tx.membership.upsert({
        where: { userId_organizationId: { userId: user.id, organizationId: org.id } },
        update: { role: wanted },
        create: { userId: user.id, organizationId: org.id, role: wanted },
        include: { user: { select: { username: true } } },
      });
      return toRow(saved);
    });
  }

  /** Removes a member (managers remove others, anyone may leave); the last owner cannot go. */
  async function removeMember(actor: Actor, slug: string, username: string): Promise<boolean> {
    const user = await userNamed(db, username);
    const self = !isSite(actor) && actor.userId === user.id;
    const { org, role: mine } = self ? await actorRole(db, actor, slug) : await managerRole(db, actor, slug);
    return changing(db, org, async (tx) => {
      const current = await tx.membership.findUnique({ where: { userId_organizationId: { userId: user.id, organizationId: org.id } } });
      if (!current) throw new AppError("NOT_FOUND", `"${username}" is not a member of "${slug}"`, { details: { field: "username" } });
      if (!self && mine !== "owner" && current.role === "owner")
        throw new AppError("FORBIDDEN", "only owners remove owners", { details: { field: "username" } });
      await tx.membership.delete({ where: { id: current.id } });
      return true;
    });
  }

  return { createOrganization, members, setMember, removeMember, organization: (slug: string) => organization(db, slug) };
}

export type MembershipService = ReturnType<typeof createMembershipService>;
