// User: the signed-in account (`me`) and, for admins, user administration.
import { organizationsOf } from "../../src/accounts/organizations.ts";
import { readOnce, type Viewer } from "../../src/auth/viewer.ts";
import { AppError } from "../../src/errors/app-error.ts";
import { builder } from "../builder.ts";
import { defined, pageArgs } from "../inputs.ts";
import { OrganizationRef } from "./organization.ts";
import { PersonalKeyRef } from "./personal-key.ts";

export const UserRef = builder.prismaObject("User", {
  fields: (t) => ({
    id: t.exposeInt("id"),
    username: t.exposeString("username"),
    name: t.exposeString("name"),
    email: t.exposeString("email"),
    isAdmin: t.exposeBoolean("isAdmin"),
    isActive: t.exposeBoolean("isActive"),
    assistantEnabled: t.exposeBoolean("assistantEnabled", {
      description: "Whether the assistant tool endpoint (/mcp) serves this account.",
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    organizations: t.field({
      type: [OrganizationRef],
      resolve: (user, _args, ctx) => organizationsOf(ctx.services.db, user.id),
    }),
    personalKeys: t.field({
      type: [PersonalKeyRef],
      description: "Visible to the user and to admins.",
      resolve: async (user, _args, ctx) => {
        const viewer = await ctx.requireViewer();
        if (viewer.userId !== user.id && !viewer.isAdmin) throw new AppError("FORBIDDEN", "not your keys");
        return ctx.services.keys.list(user.id);
      },
    }),
  }),
});

const UserPage = builder.objectRef<{ count: number; items: unknown[] }>("UserPage").implement({
  fields: (t) => ({
    count: t.exposeInt("count"),
    items: t.field({ type: [UserRef], resolve: (page) => page.items as never }),
  }),
});

const CreateUserInput = builder.inputType("CreateUserInput", {
  fields: (t) => ({
    username: t.string({ required: true }),
    password: t.string(),
    email: t.string(),
    name: t.string(),
    isAdmin: t.boolean(),
    org: t.string({ description: "Organization slug to add the user to (created if missing)." }),
  }),
});

const UpdateUserInput = builder.inputType("UpdateUserInput", {
  fields: (t) => ({
    email: t.string(),
    name: t.string(),
    password: t.string({ description: "Setting it ends every token issued so far." }),
    isAdmin: t.boolean(),
    isActive: t.boolean({ description: "false disables the account and ends its tokens." }),
    assistantEnabled: t.boolean({ description: "false turns the assistant tool endpoint (/mcp) off for this account." }),
  }),
});

/** The authenticated principal, from the credential's check alone (no read of the account). */
const CallerRef = builder.objectRef<Viewer>("Caller").implement({
  description:
    "Who is calling, as authenticated: account state is cached up to AUTH_CACHE_SECONDS (a change made on this instance applies at once).",
  fields: (t) => ({
    id: t.int({ resolve: (v) => v.userId }),
    username: t.exposeString("username"),
    isAdmin: t.exposeBoolean("isAdmin"),
    assistantEnabled: t.exposeBoolean("assistantEnabled", { description: "Whether the tool endpoint (/mcp) is on for this account." }),
    grantDatasetId: t.id({
      nullable: true,
      description: "For a single-use link's session or its grant token: the one dataset it reaches; null otherwise.",
      resolve: (v) => v.grant?.datasetId ?? null,
    }),
  }),
});

builder.queryFields((t) => ({
  caller: t.field({
    type: CallerRef,
    nullable: true,
    description: "The authenticated caller without a read of the account (see me for the account record); null without credentials.",
    resolve: (_root, _args, ctx) => ctx.viewer(),
  }),
  me: t.field({
    type: UserRef,
    nullable: true,
    description: "The signed-in user, or null without credentials.",
    resolve: async (_root, _args, ctx) => {
      const viewer = await ctx.viewer();
      return viewer ? readOnce(viewer, "me", () => ctx.services.users.get(viewer.userId)) : null;
    },
  }),
  user: t.field({
    type: UserRef,
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await ctx.requireAdmin();
      return ctx.services.users.get(args.id);
    },
  }),
  users: t.field({
    type: UserPage,
    args: { limit: t.arg.int({ defaultValue: 50 }), offset: t.arg.int({ defaultValue: 0 }) },
    resolve: async (_root, args, ctx) => {
      await ctx.requireAdmin();
      return ctx.services.users.list(pageArgs(args.limit, args.offset));
    },
  }),
}));

builder.mutationFields((t) => ({
  createUser: t.field({
    type: UserRef,
    args: { input: t.arg({ type: CreateUserInput, required: true }) },
    resolve: async (_root, args, ctx) => {
      await ctx.requireAdmin();
      return ctx.services.users.create(defined(args.input));
    },
  }),
  updateUser: t.field({
    type: UserRef,
    args: { id: t.arg.int({ required: true }), input: t.arg({ type: UpdateUserInput, required: true }) },
    resolve: async (_root, args, ctx) => {
      await ctx.requireAdmin();
      return ctx.services.users.update(args.id, defined(args.input));
    },
  }),
  deleteUser: t.boolean({
    args: { id: t.arg.int({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const viewer = await ctx.requireAdmin();
      if (viewer.userId === args.id) throw new AppError("CONFLICT", "administrators cannot delete themselves");
      return ctx.services.users.remove(args.id);
    },
  }),
}));
