// Single-use login links and forced logout (spec 5.6): admin operations, and the redemption the web facade runs.
import { createGrantTokens, type GrantToken } from "../../src/auth/single-use/grant-tokens.ts";
import { builder } from "../builder.ts";

const SingleUseUrl = builder.objectRef<{ path: string; expiresAt: Date }>("SingleUseUrl").implement({
  description: "A single-use login link: `path` (`/magic-login/?<SESAME_TOKEN_NAME>=<token>`) on this service's address.",
  fields: (t) => ({
    path: t.exposeString("path"),
    expiresAt: t.expose("expiresAt", { type: "DateTime" }),
  }),
});

const SingleUseSignIn = builder.objectRef<{ token: string; expiresAt: Date; datasetId: string }>("SingleUseSignIn").implement({
  description: "A browser session limited to one dataset; the web facade puts the token in an HTTP-only cookie.",
  fields: (t) => ({
    token: t.exposeString("token"),
    expiresAt: t.expose("expiresAt", { type: "DateTime" }),
    datasetId: t.exposeID("datasetId"),
  }),
});

const GrantTokenRef = builder.objectRef<GrantToken>("GrantToken").implement({
  description:
    "A read-only bearer token for an assistant (the tool endpoint, GraphQL, REST) whose scope is exactly a single-use grant: its dataset, read-only, until the grant ends.",
  fields: (t) => ({
    token: t.exposeString("token", { description: "Send as `Authorization: Bearer <token>`." }),
    expiresAt: t.expose("expiresAt", { type: "DateTime", description: "When the grant (and the token) ends." }),
    datasetId: t.exposeID("datasetId"),
  }),
});

builder.mutationFields((t) => ({
  issueGrantToken: t.field({
    type: GrantTokenRef,
    description:
      "For a browser a single-use link signed in (its cookie, same-site JSON POST): a read-only token over the grant's dataset for an assistant. It ends with the grant, on sign-out and on a forced logout.",
    resolve: async (_root, _args, ctx) =>
      createGrantTokens({ tokens: ctx.services.tokens, browserSessions: ctx.services.browserSessions }).issue(
        await ctx.requireViewer(),
        ctx.sessionToken,
      ),
  }),
  generateSingleUseUrl: t.field({
    type: SingleUseUrl,
    description:
      "Admins: a login link for `username` that opens `datasetId` only; it works once (SESAME_ONE_TIME) within SESAME_MAX_AGE seconds.",
    args: { username: t.arg.string({ required: true }), datasetId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => ctx.services.singleUse.issue(await ctx.requireViewer(), args.username, String(args.datasetId)),
  }),
  redeemSingleUseLink: t.field({
    type: SingleUseSignIn,
    description: "Opens a single-use link's token (what /magic-login/ does): a browser session limited to the link's dataset.",
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => ctx.services.singleUse.redeem(args.token),
  }),
  logoutUser: t.boolean({
    description:
      "Admins: ends the user's tokens, browser sessions, single-use links and their sessions, and live-session presence, on every instance.",
    args: { username: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      await ctx.services.forcedLogout.logoutUser(await ctx.requireViewer(), args.username);
      return true;
    },
  }),
}));
