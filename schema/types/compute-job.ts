// ComputeJob: an algorithm run on an existing dataset as a job (issue 14): run, read, list, cancel, and follow its
// progress until it ends; the result becomes the dataset's next table version, which live sessions pick up.
import type { JobEvent } from "../../src/compute/jobs/job-events.ts";
import { asStatus, type JobRow, paramsOf } from "../../src/compute/jobs/job-records.ts";
import { builder } from "../builder.ts";

const ComputeJobStatus = builder.enumType("ComputeJobStatus", {
  values: ["QUEUED", "RUNNING", "SUCCEEDED", "FAILED", "CANCELLED"] as const,
});

export const ComputeJobRef = builder.objectRef<JobRow>("ComputeJob").implement({
  description: "One algorithm run on a dataset: queued, then run by a compute worker (in the gateway or `npm run worker`).",
  fields: (t) => ({
    id: t.exposeID("id"),
    datasetId: t.exposeID("datasetId"),
    label: t.exposeString("label", { description: "The output label: the column (or graph) the result is stored as." }),
    library: t.exposeString("library"),
    alg: t.exposeString("alg"),
    params: t.field({ type: "JSON", description: "The parameters as requested.", resolve: (j) => paramsOf(j) }),
    directed: t.exposeBoolean("directed"),
    status: t.field({ type: ComputeJobStatus, resolve: (j) => asStatus(j.status) }),
    cancelRequested: t.exposeBoolean("cancelRequested"),
    phase: t.exposeString("phase", { nullable: true, description: "What the algorithm last said it was doing." }),
    iteration: t.exposeInt("iteration", { nullable: true }),
    fraction: t.exposeFloat("fraction", { nullable: true, description: "How far it is, from 0 to 1, when the algorithm can tell." }),
    errorCode: t.exposeString("errorCode", { nullable: true, description: "INVALID_INPUT, UNAVAILABLE, INTERNAL... when it failed." }),
    error: t.exposeString("error", { nullable: true }),
    dataVersion: t.exposeString("dataVersion", { nullable: true, description: "The table version it stored." }),
    worker: t.exposeString("workerId", { nullable: true, description: "The process that ran it (host:pid)." }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    startedAt: t.expose("startedAt", { type: "DateTime", nullable: true }),
    finishedAt: t.expose("finishedAt", { type: "DateTime", nullable: true }),
  }),
});

const ComputeJobEventRef = builder.objectRef<JobEvent>("ComputeJobEvent").implement({
  description: "A job's state after one change: status and the progress it reported last.",
  fields: (t) => ({
    jobId: t.exposeID("jobId"),
    status: t.field({ type: ComputeJobStatus, resolve: (e) => e.status }),
    cancelRequested: t.exposeBoolean("cancelRequested"),
    phase: t.exposeString("phase", { nullable: true }),
    iteration: t.exposeInt("iteration", { nullable: true }),
    fraction: t.exposeFloat("fraction", { nullable: true }),
    errorCode: t.exposeString("errorCode", { nullable: true }),
    error: t.exposeString("error", { nullable: true }),
    dataVersion: t.exposeString("dataVersion", { nullable: true }),
  }),
});

const RunComputeJobInput = builder.inputType("RunComputeJobInput", {
  fields: (t) => ({
    datasetId: t.id({ required: true }),
    label: t.string({ description: "The output label (default: the algorithm's name)." }),
    library: t.string({ required: true, description: "igraph or cugraph." }),
    alg: t.string({
      required: true,
      description: "A name of spec 2.9 `compute` under that library, or of `layout` (node columns x, y and, in 3D, z).",
    }),
    params: t.field({ type: "JSON", description: "The library's own parameter names." }),
    directed: t.boolean({ description: "How the graph is read (pygraphistry's `directed`, default true)." }),
  }),
});

builder.queryFields((t) => ({
  computeJob: t.field({
    type: ComputeJobRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => ctx.services.computeJobs.get(await ctx.requireViewer(), String(args.id)),
  }),
  computeJobs: t.field({
    type: [ComputeJobRef],
    description: "A dataset's latest jobs (100 at most), newest first.",
    args: { datasetId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => ctx.services.computeJobs.list(await ctx.requireViewer(), String(args.datasetId)),
  }),
}));

builder.mutationFields((t) => ({
  runComputeJob: t.field({
    type: ComputeJobRef,
    description: "Checks the entry and queues it as a job on the dataset; answers the job at once (QUEUED).",
    args: { input: t.arg({ type: RunComputeJobInput, required: true }) },
    resolve: async (_root, args, ctx) => {
      const { datasetId, ...rest } = args.input;
      return ctx.services.computeJobs.run(await ctx.requireViewer(), { ...rest, datasetId: String(datasetId) });
    },
  }),
  cancelComputeJob: t.field({
    type: ComputeJobRef,
    description: "A queued job never runs; a running one stops between iterations; the dataset keeps its tables.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => ctx.services.computeJobs.cancel(await ctx.requireViewer(), String(args.id)),
  }),
}));

builder.subscriptionFields((t) => ({
  computeJobProgress: t.field({
    type: ComputeJobEventRef,
    description: "The job's state now, then every change (status, phase, iteration, fraction) until it ends.",
    args: { id: t.arg.id({ required: true }) },
    subscribe: async (_root, args, ctx) => ctx.services.computeJobs.progress(await ctx.requireViewer(), String(args.id)),
    resolve: (event) => event,
  }),
}));
