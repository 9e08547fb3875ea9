// Organization: a group of users that can own files and datasets; its members and their roles (owner, admin, member).
import { createMembershipService, type MemberRow } from "../../src/accounts/memberships.ts";
import { ROLES } from "../../src/accounts/roles.ts";
import { builder } from "../builder.ts";

export const OrganizationRef = builder.prismaObject("Organization", {
  fields: (t) => ({
    id: t.exposeInt("id"),
    slug: t.exposeString("slug", { description: "The name clients pass as `org_name`." }),
    name: t.exposeString("name"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    members: t.field({
      type: [OrganizationMember],
      description: "Members and their roles; visible to the organization's members and to site admins.",
      resolve: async (org, _args, ctx) => createMembershipService(ctx.services.db).members(await ctx.requireViewer(), org.slug),
    }),
  }),
});

const OrganizationRole = builder.enumType("OrganizationRole", {
  values: Object.fromEntries(ROLES.map((role) => [role.toUpperCase(), { value: role }])) as Record<
    "OWNER" | "ADMIN" | "MEMBER",
    { value: (typeof ROLES)[number] }
  >,
  description: "owner: manages members and owners; admin: manages members and every shared record; member: reads them.",
});

const OrganizationMember = builder.objectRef<MemberRow>("OrganizationMember").implement({
  fields: (t) => ({
    userId: t.exposeInt("userId"),
    username: t.exposeString("username"),
    role: t.field({ type: OrganizationRole, resolve: (m) => m.role }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

builder.queryFields((t) => ({
  organization: t.prismaField({
    type: OrganizationRef,
    description: "An organization by slug, for its members and site admins.",
    args: { slug: t.arg.string({ required: true }) },
    resolve: async (_query, _root, args, ctx) => {
      const viewer = await ctx.requireViewer();
      const service = createMembershipService(ctx.services.db);
      await service.members(viewer, args.slug);
      return service.organization(args.slug);
    },
  }),
}));

builder.mutationFields((t) => ({
  createOrganization: t.prismaField({
    type: OrganizationRef,
    description: "Creates an organization; its owner is the caller, or `owner` (site admins only).",
    args: {
      slug: t.arg.string({ required: true }),
      name: t.arg.string({ required: false }),
      owner: t.arg.string({ required: false, description: "Username of the owner (site admins)." }),
    },
    resolve: async (_query, _root, args, ctx) =>
      createMembershipService(ctx.services.db).createOrganization(await ctx.requireViewer(), {
        slug: args.slug,
        name: args.name ?? undefined,
        owner: args.owner ?? undefined,
      }),
  }),
  setOrganizationMember: t.field({
    type: OrganizationMember,
    description: "Adds a user to an organization with a role, or changes their role (owners and admins; owners for owners).",
    args: {
      slug: t.arg.string({ required: true }),
      username: t.arg.string({ required: true }),
      role: t.arg({ type: OrganizationRole, required: true }),
    },
    resolve: async (_root, args, ctx) =>
      createMembershipService(ctx.services.db).setMember(await ctx.requireViewer(), args.slug, args.username, args.role),
  }),
  removeOrganizationMember: t.boolean({
    description: "Removes a member (owners and admins; anyone may leave); the last owner stays.",
    args: { slug: t.arg.string({ required: true }), username: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) =>
      createMembershipService(ctx.services.db).removeMember(await ctx.requireViewer(), args.slug, args.username),
  }),
}));
