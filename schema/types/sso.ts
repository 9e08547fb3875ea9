// Single sign-on (OpenID Connect): providers (admins manage them; anyone lists names and login URLs) and the
// sign-in flow's three steps, which the REST and web facades run: start, complete (the callback), collect the JWT.
import type { ProviderView } from "../../src/auth/sso/providers.ts";
import type { SsoCollected, SsoCompleted, SsoStarted } from "../../src/auth/sso/sso-service.ts";
import { builder } from "../builder.ts";
import { UserRef } from "./user.ts";

const SsoProvider = builder.objectRef<ProviderView>("SsoProvider").implement({
  description: "An OpenID Connect provider as administrators see it (the client secret is never shown).",
  fields: (t) => ({
    id: t.exposeInt("id"),
    name: t.exposeString("name", { description: "The <idp_name> of `sso/oidc/login/<idp_name>/`." }),
    displayName: t.exposeString("displayName"),
    organization: t.exposeString("organization", { nullable: true, description: "Slug; null for a site-wide provider." }),
    issuer: t.exposeString("issuer"),
    clientId: t.exposeString("clientId"),
    allowedDomains: t.exposeStringList("allowedDomains", { description: "E-mail domains admitted; empty admits any." }),
    loginUrl: t.string({ resolve: (p) => `/sso/oidc/login/${p.name}/` }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

const SsoProviderLink = builder.objectRef<ProviderView>("SsoProviderLink").implement({
  description: "A sign-in button: what the sign-in page shows for a configured provider.",
  fields: (t) => ({
    name: t.exposeString("name"),
    displayName: t.exposeString("displayName"),
    loginUrl: t.string({ description: "Relative; add `?next=<path>` to come back there.", resolve: (p) => `/sso/oidc/login/${p.name}/` }),
    organization: t.exposeString("organization", { nullable: true }),
  }),
});

const SsoProviderInput = builder.inputType("SsoProviderInput", {
  fields: (t) => ({
    name: t.string({ required: true }),
    displayName: t.string(),
    organization: t.string({ description: "Organization slug; absent for a site-wide provider." }),
    issuer: t.string({ required: true, description: "Issuer URL; its /.well-known/openid-configuration is read." }),
    clientId: t.string({ required: true }),
    clientSecret: t.string({ required: true, description: "Stored encrypted with a key derived from the JWT secret." }),
    allowedDomains: t.stringList({ description: "Admit only verified e-mails in these domains." }),
  }),
});

const SsoProviderUpdate = builder.inputType("SsoProviderUpdate", {
  fields: (t) => ({
    displayName: t.string(),
    issuer: t.string(),
    clientId: t.string(),
    clientSecret: t.string(),
    allowedDomains: t.stringList(),
  }),
});

const SsoClientType = builder.enumType("SsoClientType", {
  values: { BROWSER: { value: "browser" }, PYGRAPHISTRY: { value: "pygraphistry" } } as const,
});

const SsoStart = builder.objectRef<SsoStarted>("SsoStart").implement({
  fields: (t) => ({
    state: t.exposeString("state", { description: "Collect the JWT with it at `/sso/oidc/jwt/<state>/`." }),
    authUrl: t.exposeString("authUrl", { description: "The provider's authorization URL, for the browser." }),
  }),
});

const SsoCompletion = builder.objectRef<SsoCompleted>("SsoCompletion").implement({
  description: "A finished sign-in: for a browser, a session (the web facade sets its cookie) and where to go next.",
  fields: (t) => ({
    clientType: t.field({ type: SsoClientType, resolve: (r) => r.clientType }),
    next: t.exposeString("next"),
    token: t.string({
      nullable: true,
      description: "The browser session token; null for a notebook's sign-in.",
      resolve: (r) => r.session?.token ?? null,
    }),
    expiresAt: t.field({ type: "DateTime", nullable: true, resolve: (r) => r.session?.expiresAt ?? null }),
    user: t.field({ type: UserRef, resolve: (r, _args, ctx) => ctx.services.users.get(r.userId) }),
  }),
});

const SsoActiveOrganization = builder.objectRef<{ slug: string; isFound: boolean; isMember: boolean }>("SsoActiveOrganization").implement({
  fields: (t) => ({ slug: t.exposeString("slug"), isFound: t.exposeBoolean("isFound"), isMember: t.exposeBoolean("isMember") }),
});

const SsoToken = builder.objectRef<SsoCollected>("SsoToken").implement({
  description: "PENDING while the browser is at the provider; then OK with the JWT, answered once.",
  fields: (t) => ({
    status: t.exposeString("status"),
    token: t.string({ nullable: true, resolve: (r) => (r.status === "OK" ? r.token : null) }),
    expiresAt: t.field({
      type: "DateTime",
      nullable: true,
      resolve: (r) => (r.status === "OK" ? new Date(r.claims.expiresAt * 1000) : null),
    }),
    activeOrganization: t.field({
      type: SsoActiveOrganization,
      nullable: true,
      resolve: (r) => (r.status === "OK" ? (r.activeOrganization ?? null) : null),
    }),
    user: t.field({
      type: UserRef,
      nullable: true,
      resolve: (r, _args, ctx) => (r.status === "OK" ? ctx.services.users.get(r.userId) : null),
    }),
  }),
});

builder.queryFields((t) => ({
  ssoProviders: t.field({
    type: [SsoProviderLink],
    description: "The configured single sign-on providers, for the sign-in page. No authentication needed.",
    resolve: (_root, _args, ctx) => ctx.services.sso.providers.list(),
  }),
  ssoProviderSettings: t.field({
    type: [SsoProvider],
    description:
      "The settings but the secret of the SSO providers the caller manages: every one for site admins, their organizations' for organization owners and admins.",
    resolve: async (_root, _args, ctx) => ctx.services.sso.admins.settings(await ctx.requireViewer()),
  }),
}));

builder.mutationFields((t) => ({
  createSsoProvider: t.field({
    type: SsoProvider,
    description:
      "Adds an OpenID Connect provider: site-wide (site admins) or for an organization (site admins, and that organization's owners and admins).",
    args: { input: t.arg({ type: SsoProviderInput, required: true }) },
    resolve: async (_root, { input }, ctx) => {
      return ctx.services.sso.admins.create(await ctx.requireViewer(), {
        name: input.name,
        displayName: input.displayName ?? undefined,
        organization: input.organization ?? undefined,
        issuer: input.issuer,
        clientId: input.clientId,
        clientSecret: input.clientSecret,
        allowedDomains: input.allowedDomains ?? undefined,
      });
    },
  }),
  updateSsoProvider: t.field({
    type: SsoProvider,
    description: "Changes a provider's settings; absent fields stay (site admins; an organization's owners and admins for its providers).",
    args: { name: t.arg.string({ required: true }), input: t.arg({ type: SsoProviderUpdate, required: true }) },
    resolve: async (_root, { name, input }, ctx) => {
      return ctx.services.sso.admins.update(await ctx.requireViewer(), name, {
        displayName: input.displayName ?? undefined,
        issuer: input.issuer ?? undefined,
        clientId: input.clientId ?? undefined,
        clientSecret: input.clientSecret ?? undefined,
        allowedDomains: input.allowedDomains ?? undefined,
      });
    },
  }),
  deleteSsoProvider: t.boolean({
    description:
      "Removes a provider; accounts and their links to the issuer's subjects stay (site admins; an organization's owners and admins for its providers).",
    args: { name: t.arg.string({ required: true }) },
    resolve: async (_root, { name }, ctx) => ctx.services.sso.admins.remove(await ctx.requireViewer(), name),
  }),
  startSsoLogin: t.field({
    type: SsoStart,
    description: "Begins a sign-in: a fresh state, nonce and PKCE verifier, and the provider's authorization URL.",
    args: {
      provider: t.arg.string({ description: "The provider's name; absent, the organization's (or the site's) only one." }),
      organization: t.arg.string(),
      clientType: t.arg({ type: SsoClientType, required: true }),
      next: t.arg.string({ description: "Same-site path the browser returns to." }),
      origin: t.arg.string({ required: true, description: "This service's origin as the client sees it (PUBLIC_URL wins)." }),
    },
    resolve: (_root, args, ctx) =>
      ctx.services.sso.start({
        provider: args.provider ?? undefined,
        organization: args.organization ?? undefined,
        clientType: args.clientType,
        next: args.next ?? undefined,
        origin: args.origin,
      }),
  }),
  completeSsoLogin: t.field({
    type: SsoCompletion,
    description: "The provider's redirect back (its query string): checks state, nonce and PKCE, links the account.",
    args: { query: t.arg.string({ required: true }), browserState: t.arg.string() },
    resolve: (_root, args, ctx) => ctx.services.sso.complete({ query: args.query, browserState: args.browserState ?? undefined }),
  }),
  collectSsoToken: t.field({
    type: SsoToken,
    description: "The JWT of a finished sign-in, once; PENDING before the browser finishes.",
    args: { state: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.sso.collect(args.state),
  }),
}));
