// Collections of a live session (spec 2.8, 3.6): listed on the session, changed by its owner; every change is
// published on vizSessionChanged with kind COLLECTIONS.
import type { VizCollection } from "../../prisma/generated/sqlite/client.ts";
import { collectionColor, GLOBAL_LAYER } from "../../src/sessions/collections.ts";
import { builder } from "../builder.ts";
import { VizSessionEventRef, VizSessionRef } from "./viz-session.ts";

const CollectionRef = builder.objectRef<VizCollection>("Collection").implement({
  description: "A named set of the session's nodes and edges, chosen by a GFQL query and painted in one color.",
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    description: t.exposeString("description", { nullable: true }),
    position: t.exposeInt("position", { description: "Render order: 0 is painted on top." }),
    color: t.string({ description: "The color it is painted in (#RRGGBB or #RRGGBBAA).", resolve: (c) => collectionColor(c) }),
    nodeColor: t.exposeString("nodeColor", { nullable: true }),
    palette: t.exposeString("palette", { nullable: true }),
    query: t.field({ type: "JSON", description: "The GFQL query that chose the elements.", resolve: (c) => JSON.parse(c.query) }),
    matchCount: t.exposeInt("matchCount", { nullable: true, description: "Nodes plus edges matched; null when unknown (not zero)." }),
    nodeCount: t.exposeInt("nodeCount", { nullable: true }),
    edgeCount: t.exposeInt("edgeCount", { nullable: true }),
    matchesUrl: t.string({
      nullable: true,
      description: "Where the page reads the matched row positions (little-endian uint32: node count, edge count, rows).",
      resolve: (c) => (c.matchBlob ? `/graph/data/${c.sessionId}/collections/${c.id}.u32` : null),
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

const GlobalLayerRef = builder.objectRef<typeof GLOBAL_LAYER>("GlobalLayer").implement({
  description: "The built-in layer under every collection; it cannot be deleted.",
  fields: (t) => ({ id: t.exposeID("id"), name: t.exposeString("name") }),
});

builder.objectField(VizSessionRef, "collections", (t) =>
  t.field({
    type: [CollectionRef],
    description: "In render order: the first is painted on top.",
    resolve: async (s, _args, ctx) => ctx.services.collections.list(await ctx.requireViewer(), s.id),
  }),
);
builder.objectField(VizSessionEventRef, "collections", (t) =>
  t.field({
    type: [CollectionRef],
    nullable: true,
    description: "The session's collections after this change, in render order: a page need not ask again.",
    resolve: async (e, _args, ctx) => ctx.services.collections.listForEvent(await ctx.requireViewer(), e.sessionId, e.revisionNumber),
  }),
);
builder.objectField(VizSessionRef, "globalLayer", (t) => t.field({ type: GlobalLayerRef, resolve: () => GLOBAL_LAYER }));

const CreateCollectionInput = builder.inputType("CreateCollectionInput", {
  fields: (t) => ({
    sessionId: t.id({ required: true }),
    name: t.string({ required: true }),
    query: t.field({ type: "JSON", required: true, description: "GFQL: an array of operations or a Let, as JSON or JSON text." }),
    nodeColor: t.string({ description: "#RRGGBB or #RRGGBBAA; wins over palette." }),
    palette: t.string(),
    description: t.string(),
    timeoutMs: t.int({ description: "Stops the query after this many milliseconds (never later than the server's limit)." }),
  }),
});

const defined = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

builder.mutationFields((t) => ({
  createCollection: t.field({
    type: CollectionRef,
    description: "Adds a collection, or replaces the one with the same name; beyond 10 the oldest is dropped. Owner only.",
    args: { input: t.arg({ type: CreateCollectionInput, required: true }) },
    resolve: async (_root, { input }, ctx) =>
      ctx.services.collections.create(
        await ctx.requireViewer(),
        String(input.sessionId),
        {
          name: input.name,
          query: input.query,
          nodeColor: defined(input.nodeColor),
          palette: defined(input.palette),
          description: defined(input.description),
        },
        { timeoutMs: defined(input.timeoutMs) },
      ),
  }),
  updateCollection: t.field({
    type: CollectionRef,
    description: "Renames or recolors; which elements match never changes. Owner only.",
    args: {
      sessionId: t.arg.id({ required: true }),
      id: t.arg.id({ required: true }),
      name: t.arg.string(),
      nodeColor: t.arg.string(),
      palette: t.arg.string(),
    },
    resolve: async (_root, args, ctx) =>
      ctx.services.collections.update(await ctx.requireViewer(), String(args.sessionId), String(args.id), {
        name: defined(args.name),
        nodeColor: defined(args.nodeColor),
        palette: defined(args.palette),
      }),
  }),
  deleteCollection: t.field({
    type: CollectionRef,
    description: "Removes one collection (not the global layer). Owner only.",
    args: { sessionId: t.arg.id({ required: true }), id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) =>
      ctx.services.collections.remove(await ctx.requireViewer(), String(args.sessionId), String(args.id)),
  }),
  reorderCollections: t.field({
    type: [CollectionRef],
    description: "The listed ids first, the first on top; the others keep their relative order after them. Owner only.",
    args: { sessionId: t.arg.id({ required: true }), order: t.arg.idList({ required: true }) },
    resolve: async (_root, args, ctx) =>
      ctx.services.collections.reorder(await ctx.requireViewer(), String(args.sessionId), args.order.map(String)),
  }),
  resetCollections: t.int({
    description: "Removes every collection; answers how many were removed. Owner only.",
    args: { sessionId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => ctx.services.collections.reset(await ctx.requireViewer(), String(args.sessionId)),
  }),
}));
