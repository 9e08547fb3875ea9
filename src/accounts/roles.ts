// Organization roles (owner, admin, member) and the rule for who may change or delete an organization's records.
import type { Viewer } from "../auth/viewer.ts";
import type { Db } from "../store/prisma.ts";

export const ROLES = ["owner", "admin", "member"] as const;
export type Role = (typeof ROLES)[number];

/** Roles that manage an organization: its members, their roles, and every record shared in it. */
export const MANAGING_ROLES: readonly Role[] = ["owner", "admin"];

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

/** The viewer's role in an organization, or undefined when not a member. */
export async function roleIn(db: Db, userId: number, organizationId: number): Promise<Role | undefined> {
  const membership = await db.membership.findUnique({
    where: { userId_organizationId: { userId, organizationId } },
    select: { role: true },
  });
  return membership && isRole(membership.role) ? membership.role : membership ? "member" : undefined;
}

/**
 * Who may change or delete a file, dataset or its tables: its author, a site admin, or an owner or admin of the
 * organization it was shared into. Other members read it only.
 */
export async function mayChangeRecord(
  db: Db,
  viewer: Pick<Viewer, "userId" | "isAdmin">,
  record: { authorId: number; organizationId: number | null },
): Promise<boolean> {
  if (viewer.isAdmin || record.authorId === viewer.userId) return true;
  if (record.organizationId === null) return false;
  const role = await roleIn(db, viewer.userId, record.organizationId);
  return role !== undefined && MANAGING_ROLES.includes(role);
}
