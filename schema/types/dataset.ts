// Dataset: bindings, encodings and materialized node/edge tables (spec 2.3-2.6), with create, delete and direct table upload.
import type { DatasetRecord } from "../../src/datasets/dataset-records.ts";
import type { TableSchema } from "../../src/ingest/table-files.ts";
import { builder } from "../builder.ts";
import { defined, pageArgs } from "../inputs.ts";
import { TableSchemaRef } from "./file.ts";

const encodingsOf = (e: DatasetRecord["nodeEncodings"]) => ({ bindings: e.bindings, ...(e.complex ? { complex: e.complex } : {}) });

const DatasetTables = builder.objectRef<DatasetRecord["tablesSchemas"]>("DatasetTables").implement({
  fields: (t) => ({
    nodes: t.field({ type: TableSchemaRef, nullable: true, resolve: (s) => s.nodes ?? null }),
    edges: t.field({ type: TableSchemaRef, nullable: true, resolve: (s) => s.edges ?? null }),
  }),
});

export const DatasetRef = builder.objectRef<DatasetRecord>("Dataset").implement({
  fields: (t) => ({
    id: t.exposeID("id", { description: "The dataset_id of the REST routes and graph.html." }),
    name: t.exposeString("name"),
    description: t.exposeString("description"),
    author: t.exposeInt("authorId"),
    nodeCount: t.exposeInt("nodeCount", { nullable: true }),
    edgeCount: t.exposeInt("edgeCount", { nullable: true }),
    agentName: t.exposeString("agentName", { nullable: true }),
    agentVersion: t.exposeString("agentVersion", { nullable: true }),
    nodeFiles: t.field({ type: "JSON", resolve: (d) => d.nodeFiles }),
    edgeFiles: t.field({ type: "JSON", resolve: (d) => d.edgeFiles }),
    edgeHypergraphTransform: t.field({ type: "JSON", resolve: (d) => d.edgeHypergraphTransform }),
    nodeEncodings: t.field({ type: "JSON", description: "{bindings, complex}", resolve: (d) => encodingsOf(d.nodeEncodings) }),
    edgeEncodings: t.field({ type: "JSON", description: "{bindings, complex}", resolve: (d) => encodingsOf(d.edgeEncodings) }),
    fieldFilters: t.field({
      type: "JSON",
      description: "The validated field-filter encodings of both axes (spec 2.6), ready for the page to apply.",
      resolve: (d) => [...(d.nodeEncodings.fieldFilters ?? []), ...(d.edgeEncodings.fieldFilters ?? [])],
    }),
    metadata: t.field({ type: "JSON", resolve: (d) => d.metadata }),
    compute: t.field({ type: "JSON", nullable: true, resolve: (d) => d.compute ?? null }),
    layout: t.field({ type: "JSON", nullable: true, resolve: (d) => d.layout ?? null }),
    tables: t.field({
      type: DatasetTables,
      description: "Schemas of the materialized node and edge tables.",
      resolve: (d) => d.tablesSchemas,
    }),
    dataVersion: t.exposeString("dataVersion", {
      nullable: true,
      description: "Opaque version of the materialized tables: it changes whenever they are rebuilt or a compute stores new columns.",
    }),
    report: t.exposeString("report", { description: "What building the tables repaired (dropped rows, added nodes), with counts." }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

const DatasetPage = builder.objectRef<{ count: number; items: DatasetRecord[] }>("DatasetPage").implement({
  fields: (t) => ({
    count: t.exposeInt("count"),
    items: t.field({ type: [DatasetRef], resolve: (page) => page.items }),
  }),
});

const CreateDatasetInput = builder.inputType("CreateDatasetInput", {
  fields: (t) => ({
    name: t.string({ required: true }),
    description: t.string(),
    orgName: t.string(),
    metadata: t.field({ type: "JSON", required: true }),
    nodeEncodings: t.field({ type: "JSON", required: true }),
    edgeEncodings: t.field({ type: "JSON", required: true }),
    nodeFiles: t.field({ type: ["JSON"], description: "File ids, or [file_id, table_index]." }),
    edgeFiles: t.field({ type: ["JSON"] }),
    edgeHypergraphTransform: t.field({ type: ["JSON"] }),
    agentName: t.string(),
    agentVersion: t.string(),
    compute: t.field({ type: "JSON" }),
    layout: t.field({ type: "JSON" }),
  }),
});

const DatasetAxis = builder.enumType("DatasetAxis", { values: ["nodes", "edges"] as const });

const TableUpload = builder.objectRef<{ dataset: DatasetRecord; table: TableSchema; seconds: number }>("DatasetTableUpload").implement({
  fields: (t) => ({
    dataset: t.field({ type: DatasetRef, resolve: (r) => r.dataset }),
    table: t.field({ type: TableSchemaRef, resolve: (r) => r.table }),
    seconds: t.exposeFloat("seconds", { description: "Time spent receiving and parsing." }),
  }),
});

builder.queryFields((t) => ({
  datasets: t.field({
    type: DatasetPage,
    args: { limit: t.arg.int({ defaultValue: 100 }), offset: t.arg.int({ defaultValue: 0 }) },
    resolve: async (_root, args, ctx) => ctx.services.datasets.list(await ctx.requireViewer(), pageArgs(args.limit, args.offset)),
  }),
  dataset: t.field({
    type: DatasetRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => ctx.services.datasets.get(await ctx.requireViewer(), String(args.id)),
  }),
}));

builder.mutationFields((t) => ({
  createDataset: t.field({
    type: DatasetRef,
    description: "Creates a dataset and builds its tables from the given files (or none yet, for direct uploads).",
    args: { input: t.arg({ type: CreateDatasetInput, required: true }) },
    resolve: async (_root, args, ctx) => {
      const { metadata, nodeEncodings, edgeEncodings } = args.input;
      return ctx.services.datasets.create(await ctx.requireViewer(), { ...defined(args.input), metadata, nodeEncodings, edgeEncodings });
    },
  }),
  deleteDataset: t.boolean({
    description: "Deletes the dataset and its own tables; the files it was made from stay.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => ctx.services.datasets.remove(await ctx.requireViewer(), String(args.id)),
  }),
  uploadDatasetTable: t.field({
    type: TableUpload,
    description: "Posts a nodes or edges table straight into a dataset (spec 4.3) and rebuilds it.",
    args: {
      id: t.arg.id({ required: true }),
      axis: t.arg({ type: DatasetAxis, required: true }),
      format: t.arg.string({ required: true, description: "json, csv, parquet, orc or arrow." }),
      options: t.arg({ type: "JSON", description: "Reader options as spec 4.3's query parameters (text values)." }),
      data: t.arg({ type: "Upload", required: true }),
    },
    resolve: async (_root, args, ctx) =>
      ctx.services.datasets.uploadTable(
        await ctx.requireViewer(),
        String(args.id),
        args.axis,
        args.format,
        (args.options ?? {}) as Record<string, string>,
        args.data,
      ),
  }),
}));
