// Tokens: password login, personal-key exchange, refresh, verify and organization switch.
import type { AuthResult, VerifyResult } from "../../src/auth/auth-service.ts";
import { builder } from "../builder.ts";
import { UserRef } from "./user.ts";

const ActiveOrganization = builder.objectRef<{ slug: string; isFound: boolean; isMember: boolean }>("ActiveOrganization").implement({
  fields: (t) => ({
    slug: t.exposeString("slug"),
    isFound: t.exposeBoolean("isFound"),
    isMember: t.exposeBoolean("isMember"),
  }),
});

const seconds = (s: number) => new Date(s * 1000);

const AuthToken = builder.objectRef<AuthResult>("AuthToken").implement({
  description: "A JWT and what it stands for.",
  fields: (t) => ({
    token: t.exposeString("token"),
    pk: t.int({ description: "The user's id.", resolve: (r) => r.userId }),
    user: t.field({ type: UserRef, resolve: (r, _args, ctx) => ctx.services.users.get(r.userId) }),
    activeOrganization: t.field({ type: ActiveOrganization, nullable: true, resolve: (r) => r.activeOrganization ?? null }),
    expiresAt: t.field({ type: "DateTime", resolve: (r) => seconds(r.claims.expiresAt) }),
    loginAt: t.field({ type: "DateTime", resolve: (r) => seconds(r.claims.loginAt) }),
    refreshableUntil: t.field({ type: "DateTime", resolve: (r, _args, ctx) => seconds(ctx.services.tokens.refreshableUntil(r.claims)) }),
  }),
});

const TokenInfo = builder.objectRef<VerifyResult>("TokenInfo").implement({
  fields: (t) => ({
    valid: t.boolean({ resolve: () => true }),
    userId: t.int({ resolve: (r) => r.claims.userId }),
    username: t.string({ resolve: (r) => r.claims.username }),
    expiresAt: t.field({ type: "DateTime", resolve: (r) => seconds(r.claims.expiresAt) }),
    loginAt: t.field({ type: "DateTime", resolve: (r) => seconds(r.claims.loginAt) }),
    refreshableUntil: t.field({ type: "DateTime", resolve: (r) => seconds(r.refreshableUntil) }),
  }),
});

const ORG_NAME = { required: false, description: "Act in this organization (its slug)." } as const;

builder.mutationFields((t) => ({
  login: t.field({
    type: AuthToken,
    description: "Username and password for a JWT. Failed attempts from one address are slowed down.",
    args: {
      username: t.arg.string({ required: true }),
      password: t.arg.string({ required: true }),
      orgName: t.arg.string(ORG_NAME),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.auth.login({
        username: args.username,
        password: args.password,
        orgName: args.orgName ?? undefined,
        clientAddress: ctx.clientAddress,
      }),
  }),
  exchangePersonalKey: t.field({
    type: AuthToken,
    description: "The caller's `Authorization: PersonalKey <KEY_ID>:<KEY_SECRET>` for a JWT.",
    args: { orgName: t.arg.string(ORG_NAME) },
    resolve: async (_root, args, ctx) => ctx.services.auth.exchangeKey(await ctx.viewer(), args.orgName ?? undefined),
  }),
  refreshToken: t.field({
    type: AuthToken,
    description: "A fresher token, while the given one is valid and within the refresh window of its login.",
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.auth.refresh(args.token),
  }),
  verifyToken: t.field({
    type: TokenInfo,
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.auth.verify(args.token),
  }),
  switchOrganization: t.field({
    type: AuthToken,
    args: { slug: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => ctx.services.auth.switchOrganization(await ctx.requireViewer(), args.slug),
  }),
}));

const BrowserSignIn = builder.objectRef<{ token: string; expiresAt: Date; userId: number }>("BrowserSignIn").implement({
  description: "A browser session; the web facade puts the token in an HTTP-only cookie.",
  fields: (t) => ({
    token: t.exposeString("token"),
    expiresAt: t.expose("expiresAt", { type: "DateTime" }),
    user: t.field({ type: UserRef, resolve: (r, _args, ctx) => ctx.services.users.get(r.userId) }),
  }),
});

builder.mutationFields((t) => ({
  signIn: t.field({
    type: BrowserSignIn,
    description: "Username and password for a browser session (the login page).",
    args: { username: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.services.auth.signIn({ username: args.username, password: args.password, clientAddress: ctx.clientAddress }),
  }),
  signOut: t.boolean({
    description: "Ends the browser session of the cookie this request carries.",
    resolve: async (_root, _args, ctx) => {
      if (ctx.sessionToken) await ctx.services.browserSessions.invalidate(ctx.sessionToken);
      return true;
    },
  }),
}));
