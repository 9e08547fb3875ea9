// PersonalKey: long-lived API credentials of a user; the secret is shown once, at creation.
import { builder } from "../builder.ts";

export const PersonalKeyRef = builder.prismaObject("PersonalKey", {
  fields: (t) => ({
    id: t.exposeID("id", { description: "The KEY_ID sent before the colon." }),
    name: t.exposeString("name"),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    lastUsedAt: t.expose("lastUsedAt", { type: "DateTime", nullable: true }),
    revokedAt: t.expose("revokedAt", { type: "DateTime", nullable: true }),
    isActive: t.boolean({ resolve: (key) => key.revokedAt === null }),
  }),
});

const NewPersonalKey = builder.objectRef<{ key: { id: string }; secret: string; credential: string }>("NewPersonalKey").implement({
  fields: (t) => ({
    key: t.field({ type: PersonalKeyRef, resolve: (created) => created.key as never }),
    secret: t.exposeString("secret", { description: "KEY_SECRET. Shown only now; only its hash is stored." }),
    credential: t.exposeString("credential", { description: "`KEY_ID:KEY_SECRET`, as sent after `PersonalKey `." }),
  }),
});

const PersonalKeyEvent = builder.objectRef<{ kind: string; keyId: string; userId: number }>("PersonalKeyEvent").implement({
  fields: (t) => ({
    kind: t.exposeString("kind", { description: "CREATED or REVOKED." }),
    keyId: t.exposeID("keyId"),
  }),
});

builder.queryFields((t) => ({
  myPersonalKeys: t.field({
    type: [PersonalKeyRef],
    description: "The signed-in user's personal keys, revoked ones included.",
    resolve: async (_root, _args, ctx) => ctx.services.keys.list((await ctx.requireViewer()).userId),
  }),
}));

builder.mutationFields((t) => ({
  createPersonalKey: t.field({
    type: NewPersonalKey,
    args: { name: t.arg.string({ required: false }) },
    resolve: async (_root, args, ctx) => ctx.services.keys.create((await ctx.requireViewer()).userId, args.name ?? ""),
  }),
  revokePersonalKey: t.field({
    type: PersonalKeyRef,
    description: "Revokes a key of the signed-in user (any key, for admins). Effective at once here, within the auth cache TTL elsewhere.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const viewer = await ctx.requireViewer();
      return ctx.services.keys.revoke(String(args.id), viewer.isAdmin ? undefined : viewer.userId);
    },
  }),
}));

builder.subscriptionFields((t) => ({
  personalKeyEvents: t.field({
    type: PersonalKeyEvent,
    description: "Creation and revocation of the signed-in user's keys, from any gateway instance.",
    subscribe: async (_root, _args, ctx) => ctx.services.pubsub.subscribe("personalKeys:changed", (await ctx.requireViewer()).userId),
    resolve: (event) => event,
  }),
}));
