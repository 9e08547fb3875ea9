// Single-use login links and forced logout (spec 5.6): admin operations, and the redemption the web facade runs.
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

builder.mutationFields((t) => ({
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
