// VizSession: live visualization sessions (spec 2.7, 4.5), their change stream, their live layout job, and dataset
// sharing.
import type { VizSession } from "../../prisma/generated/sqlite/client.ts";
import { LAYOUT_STATES } from "../../src/sessions/layout-frame.ts";
import { LAYOUT_ACTIONS, type SessionLayout } from "../../src/sessions/layout-jobs.ts";
import { ownerPresentAt, sharedState, type VizSessionEvent } from "../../src/sessions/viz-sessions.ts";
import { builder } from "../builder.ts";
import { DatasetRef } from "./dataset.ts";

type Revision = { session: VizSession; number: number };

const VizRevision = builder.objectRef<Revision>("VizRevision").implement({
  description: "A state of a session; it starts as the dataset and moves on with every change.",
  fields: (t) => ({
    id: t.string({ resolve: (r) => `${r.session.id}.${r.number}` }),
    number: t.int({ resolve: (r) => r.number }),
    // The session was reached through an access check on its dataset.
    dataset: t.field({ type: DatasetRef, resolve: (r, _args, ctx) => ctx.services.datasets.getForSession(r.session.datasetId) }),
  }),
});

const SessionLayoutState = builder.enumType("SessionLayoutState", { values: LAYOUT_STATES });
const SessionLayoutAction = builder.enumType("SessionLayoutAction", {
  values: LAYOUT_ACTIONS,
  description:
    "START (layout: {libraries, alg, params, directed}; default cuGraph force_atlas2; answers the running job when one runs), " +
    "PAUSE, RESUME, SET_PARAMS (layout: {params} with the layout's live parameters only), STOP.",
});

const SessionLayoutRef = builder.objectRef<SessionLayout>("SessionLayout").implement({
  description:
    "A session's live server layout. Its positions stream as binary frames on the WebSocket " +
    "/graph/data/<sessionId>/layout/stream; PAUSE, STOP and DONE store them as the session's layout (DONE also as the dataset's default).",
  fields: (t) => ({
    state: t.field({ type: SessionLayoutState, resolve: (j) => j.state }),
    library: t.exposeString("library"),
    algorithm: t.exposeString("algorithm"),
    params: t.field({ type: "JSON", description: "The current parameters, defaults filled.", resolve: (j) => j.params }),
    iteration: t.exposeInt("iteration", { description: "Iterations done so far." }),
    maxIter: t.exposeInt("maxIter", { description: "Iterations it runs to (0: until stopped)." }),
    nodeCount: t.exposeInt("nodeCount"),
    error: t.exposeString("error", { nullable: true }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

export const VizSessionRef = builder.objectRef<VizSession>("VizSession").implement({
  fields: (t) => ({
    id: t.exposeID("id", { description: "The session_id of graph.html and the tool endpoint." }),
    revision: t.field({ type: VizRevision, resolve: (s) => ({ session: s, number: s.revisionNumber }) }),
    dataset: t.field({ type: DatasetRef, resolve: (s, _args, ctx) => ctx.services.datasets.getForSession(s.datasetId) }),
    ownerId: t.exposeInt("ownerId"),
    isOwner: t.boolean({ resolve: async (s, _args, ctx) => (await ctx.viewer())?.userId === s.ownerId }),
    ownerAvailable: t.boolean({
      description: "Whether the owner's page is connected (the tool endpoint answers 410 when not).",
      // The record was read in this operation: its last-seen time is current enough.
      resolve: (s) => ownerPresentAt(s.ownerSeenAt),
    }),
    hasLayout: t.boolean({ resolve: (s) => s.layoutVersion !== null }),
    layoutJob: t.field({
      type: SessionLayoutRef,
      nullable: true,
      description: "The session's live server layout (null when none was ever started).",
      resolve: (s, _args, ctx) => ctx.services.layouts.get(s.id),
    }),
    filters: t.field({
      type: "JSON",
      nullable: true,
      description: "The session's shared filters (setSessionFilters; null when never set).",
      resolve: (s) => sharedState(s.filters) as never,
    }),
    encodings: t.field({
      type: "JSON",
      nullable: true,
      description: "The session's shared encodings (setSessionEncodings; null when never set).",
      resolve: (s) => sharedState(s.encodings) as never,
    }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
  }),
});

export const VizSessionEventRef = builder.objectRef<VizSessionEvent & { session: VizSession }>("VizSessionEvent").implement({
  fields: (t) => ({
    kind: t.exposeString("kind", {
      description:
        "REVISION, LAYOUT, COLLECTIONS, LAYOUT_JOB (the live layout job changed: refetch layoutJob), FILTERS or ENCODINGS (refetch filters / encodings), " +
        "RESYNC (changes may have been missed, during a Redis outage or before a resubscription with `since`: read the whole session again).",
    }),
    revision: t.field({ type: VizRevision, resolve: (e) => ({ session: e.session, number: e.revisionNumber }) }),
  }),
});

builder.queryFields((t) => ({
  vizSession: t.field({
    type: VizSessionRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => ctx.services.sessions.get(await ctx.requireViewer(), String(args.id)),
  }),
  vizSessions: t.field({
    type: [VizSessionRef],
    description: "The caller's own sessions; administrators see all unless `mine` is true.",
    args: { mine: t.arg.boolean({ defaultValue: false }) },
    resolve: async (_root, args, ctx) => ctx.services.sessions.list(await ctx.requireViewer(), { mine: args.mine ?? false }),
  }),
}));

builder.mutationFields((t) => ({
  openVizSession: t.field({
    type: VizSessionRef,
    description: "What opening graph.html?dataset=<id> does: a new live session owned by the caller.",
    args: { datasetId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => ctx.services.sessions.open(await ctx.requireViewer(), String(args.datasetId)),
  }),
  controlSessionLayout: t.field({
    type: SessionLayoutRef,
    description:
      "Starts, pauses, resumes, changes the live parameters of, or stops the session's server layout. Any viewer of the session may.",
    args: {
      sessionId: t.arg.id({ required: true }),
      action: t.arg({ type: SessionLayoutAction, required: true }),
      layout: t.arg({ type: "JSON" }),
    },
    resolve: async (_root, args, ctx) =>
      ctx.services.layouts.control(await ctx.requireViewer(), String(args.sessionId), args.action, args.layout ?? undefined),
  }),
  setSessionFilters: t.field({
    type: VizSessionRef,
    description: "Replaces the session's shared filters (a list of objects, at most 64 KiB of JSON). Any viewer of the session may.",
    args: { sessionId: t.arg.id({ required: true }), filters: t.arg({ type: "JSON", required: true }) },
    resolve: async (_root, args, ctx) =>
      ctx.services.sessions.setShared(await ctx.requireViewer(), String(args.sessionId), "filters", args.filters),
  }),
  setSessionEncodings: t.field({
    type: VizSessionRef,
    description: "Replaces the session's shared encodings (an object, at most 64 KiB of JSON). Any viewer of the session may.",
    args: { sessionId: t.arg.id({ required: true }), encodings: t.arg({ type: "JSON", required: true }) },
    resolve: async (_root, args, ctx) =>
      ctx.services.sessions.setShared(await ctx.requireViewer(), String(args.sessionId), "encodings", args.encodings),
  }),
  shareDataset: t.field({
    type: "String",
    description: "Sets who may open the dataset: private, organization or public. Returns the mode.",
    args: { datasetId: t.arg.id({ required: true }), mode: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) =>
      (await ctx.services.sessions.share(await ctx.requireViewer(), String(args.datasetId), args.mode)).sharingMode,
  }),
}));

builder.subscriptionFields((t) => ({
  vizSessionChanged: t.field({
    type: VizSessionEventRef,
    description:
      "Changes of one session, from any viewer or gateway instance. The owner's subscription also marks them present. " +
      "Events lost to a Redis outage are made up for by one RESYNC event once Redis is back.",
    args: {
      id: t.arg.id({ required: true }),
      since: t.arg.int({
        description:
          "The last revision number this client saw (a resubscribing client): when the session is past it, the first event is RESYNC.",
      }),
    },
    subscribe: async (_root, args, ctx) => {
      const viewer = await ctx.requireViewer();
      const session = await ctx.services.sessions.get(viewer, String(args.id));
      const events = ctx.services.sessionChanges.subscribe(session.id, args.since ?? session.revisionNumber);
      if (session.ownerId !== viewer.userId) return events;
      return ctx.services.sessions.ownerPresence(viewer, session.id, events);
    },
    resolve: async (event, _args, ctx) => ({
      ...event,
      session: await ctx.services.sessions.getAt(await ctx.requireViewer(), event.sessionId, event.revisionNumber),
    }),
  }),
}));
