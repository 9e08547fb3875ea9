// Who may open a dataset in the browser: its owner, admins, and those its sharing mode lets in.
import type { Dataset } from "../../prisma/generated/sqlite/client.ts";
import { mayChangeRecord } from "../accounts/roles.ts";
import { grantAllows } from "../auth/single-use/grant.ts";
import type { Viewer } from "../auth/viewer.ts";
import type { Db } from "../store/prisma.ts";

export const SHARING_MODES = ["private", "organization", "public"] as const;
export type SharingMode = (typeof SHARING_MODES)[number];

/**
 * private: the owner (and members of the organization it was uploaded into); organization: also anyone
 * sharing an organization with the owner; public: any signed-in user holding the link.
 */
export async function canViewDataset(
  db: Db,
  viewer: Viewer,
  dataset: Pick<Dataset, "id" | "authorId" | "organizationId" | "sharingMode">,
): Promise<boolean> {
  // A single-use link's session: its one dataset, whoever owns it, and nothing else.
  if (viewer.grant) return grantAllows(viewer, dataset.id);
  if (viewer.isAdmin || dataset.authorId === viewer.userId || dataset.sharingMode === "public") return true;
  if (dataset.organizationId !== null) {
    const member = await db.membership.findFirst({
      where: { userId: viewer.userId, organizationId: dataset.organizationId },
      select: { id: true },
    });
    if (member) return true;
  }
  if (dataset.sharingMode !== "organization") return false;
  const shared = await db.membership.findFirst({
    where: { userId: viewer.userId, organization: { memberships: { some: { userId: dataset.authorId } } } },
    select: { id: true },
  });
  return shared !== null;
}

/**
 * Who may change a dataset's tables (run or cancel compute jobs on it): its author, owners and admins of the
 * organization it was uploaded into, and site admins (src/accounts/roles.ts); its sharing mode and plain
 * membership let others look, not write.
 */
export function canChangeDataset(db: Db, viewer: Viewer, dataset: Pick<Dataset, "authorId" | "organizationId">): Promise<boolean> {
  return mayChangeRecord(db, viewer, dataset);
}
