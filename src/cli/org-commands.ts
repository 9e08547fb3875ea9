// Operator commands for organizations: create one with its owner, list, show members, set roles, remove members.
// The command line acts as a site admin (it holds the database).
import { createMembershipService } from "../accounts/memberships.ts";
import { AppError } from "../errors/app-error.ts";
import type { Db } from "../store/prisma.ts";

export const ORG_USAGE = `  npm run cli -- org create --org SLUG --username OWNER [--name N]
  npm run cli -- org list
  npm run cli -- org members --org SLUG
  npm run cli -- org set-role --org SLUG --username U --role owner|admin|member   (adds U when not a member)
  npm run cli -- org remove --org SLUG --username U   (an organization keeps at least one owner)`;

export type OrgFlags = { org?: string | undefined; username?: string | undefined; name?: string | undefined; role?: string | undefined };

function required(value: string | undefined, flag: string): string {
  if (!value) throw new AppError("INVALID_INPUT", `--${flag} is required`);
  return value;
}

export async function runOrgCommand(db: Db, verb: string, flags: OrgFlags): Promise<void> {
  const service = createMembershipService(db);
  const site = { site: true } as const;
  switch (verb) {
    case "create": {
      const owner = required(flags.username, "username");
      const org = await service.createOrganization(site, { slug: required(flags.org, "org"), name: flags.name, owner });
      console.log(`organization ${org.slug} created, owned by ${owner}`);
      return;
    }
    case "list": {
      const orgs = await db.organization.findMany({ orderBy: { slug: "asc" }, include: { _count: { select: { memberships: true } } } });
      for (const org of orgs) console.log([org.slug, org.name, `${org._count.memberships} members`].join("\t"));
      return;
    }
    case "members": {
      for (const m of await service.members(site, required(flags.org, "org"))) console.log([m.username, m.role].join("\t"));
      return;
    }
    case "set-role": {
      const saved = await service.setMember(site, required(flags.org, "org"), required(flags.username, "username"), flags.role);
      console.log(`${saved.username} is ${saved.role} of ${flags.org}`);
      return;
    }
    case "remove": {
      await service.removeMember(site, required(flags.org, "org"), required(flags.username, "username"));
      console.log(`${flags.username} removed from ${flags.org}`);
      return;
    }
    default:
      throw new AppError("INVALID_INPUT", `unknown command "org ${verb}"\n${ORG_USAGE}`);
  }
}
