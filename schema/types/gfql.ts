// GFQL queries on a dataset or a live session: true counts, and rows up to a limit.

import { AppError } from "../../src/errors/app-error.ts";
import type { QueryAnswer } from "../../src/gfql/surface/run-query.ts";
import { builder } from "../builder.ts";

const GfqlOutput = builder.enumType("GfqlOutput", { values: ["shape", "nodes", "edges", "all"] as const });
const GfqlFileFormat = builder.enumType("GfqlFileFormat", {
  description: "arrow is an Arrow IPC stream: the way to carry large answers whole and typed.",
  values: ["parquet", "csv", "arrow"] as const,
});

const GfqlStrictness = builder.enumType("GfqlStrictness", {
  description:
    "A filter on a column its table lacks: warn (default) matches nothing and says so in warnings, quiet matches nothing silently, strict refuses the query (E301). An IsNA test on an absent column matches every row. As pygraphistry's strict levels.",
  values: ["strict", "warn", "quiet"] as const,
});

const base64 = (file: Uint8Array | undefined) =>
  file ? Buffer.from(file.buffer, file.byteOffset, file.byteLength).toString("base64") : null;

const GfqlResult = builder.objectRef<QueryAnswer>("GfqlResult").implement({
  description: "What a GFQL query matched: counts are the true totals; rows stop at the limit.",
  fields: (t) => ({
    nodeCount: t.exposeInt("nodeCount"),
    edgeCount: t.exposeInt("edgeCount"),
    warnings: t.stringList({
      description: "What the query warned about: filters on columns the tables lack (see strictness).",
      resolve: (r) => r.warnings ?? [],
    }),
    nodes: t.field({ type: "JSON", nullable: true, resolve: (r) => r.nodes ?? null }),
    edges: t.field({ type: "JSON", nullable: true, resolve: (r) => r.edges ?? null }),
    nodesFile: t.string({
      nullable: true,
      description: "With fileFormat: the node rows as that file, base64.",
      resolve: (r) => base64(r.files?.nodes),
    }),
    edgesFile: t.string({
      nullable: true,
      description: "With fileFormat: the edge rows as that file, base64.",
      resolve: (r) => base64(r.files?.edges),
    }),
    shapeFile: t.string({
      nullable: true,
      description: "With fileFormat and output shape: a kind/rows/cols table as that file, base64.",
      resolve: (r) => base64(r.files?.shape),
    }),
  }),
});

builder.queryFields((t) => ({
  gfql: t.field({
    type: GfqlResult,
    description: "Runs a GFQL query (a chain of operations, a Chain or a Let, as JSON or JSON text) on a dataset or a session.",
    args: {
      datasetId: t.arg.id(),
      sessionId: t.arg.id(),
      query: t.arg({ type: "JSON", required: true }),
      output: t.arg({ type: GfqlOutput, defaultValue: "shape" }),
      limit: t.arg.int({
        defaultValue: 50,
        description: "Most rows per table. null applies the tool endpoint's rule: 50 when the answer projects columns, else 20.",
      }),
      timeoutMs: t.arg.int({ description: "Stops the query after this many milliseconds (never later than the server's limit)." }),
      fileFormat: t.arg({ type: GfqlFileFormat, description: "Also answer the tables as files (nodesFile, edgesFile, shapeFile)." }),
      nodeColumns: t.arg.stringList({ description: "Only these columns of the node rows (and files)." }),
      edgeColumns: t.arg.stringList({ description: "Only these columns of the edge rows (and files)." }),
      strictness: t.arg({ type: GfqlStrictness, description: "Filters on absent columns: warn (default), quiet or strict." }),
    },
    resolve: async (_root, args, ctx) => {
      const viewer = await ctx.requireViewer();
      const request = {
        query: args.query,
        output: args.output ?? "shape",
        limit: args.limit ?? ("auto" as const),
        timeoutMs: args.timeoutMs ?? undefined,
        fileFormat: args.fileFormat ?? undefined,
        nodeColumns: args.nodeColumns ?? undefined,
        edgeColumns: args.edgeColumns ?? undefined,
        strictness: args.strictness ?? undefined,
      };
      if (args.sessionId) return ctx.services.gfql.onSession(viewer, String(args.sessionId), request);
      if (args.datasetId) return ctx.services.gfql.onDataset(viewer, String(args.datasetId), request);
      throw new AppError("INVALID_INPUT", "give datasetId or sessionId", { details: { field: "datasetId" } });
    },
  }),
}));
