// File: uploads parsed into Arrow tables (spec 2.2), with their create, upload, re-parse and delete operations.
import type { FileRecord } from "../../src/files/file-records.ts";
import type { TableSchema } from "../../src/ingest/table-files.ts";
import { builder } from "../builder.ts";
import { defined, pageArgs } from "../inputs.ts";

export const TableSchemaRef = builder.objectRef<TableSchema>("TableSchema").implement({
  description: "One table parsed from a file: a sheet of a workbook, or the whole file otherwise.",
  fields: (t) => ({
    name: t.exposeString("name"),
    numCols: t.exposeInt("num_cols"),
    numRows: t.exposeInt("num_rows"),
    dtypes: t.field({ type: "JSON", description: "Column name to pandas dtype name.", resolve: (s) => s.dtypes }),
  }),
});

export const FileRef = builder.objectRef<FileRecord>("File").implement({
  fields: (t) => ({
    id: t.exposeID("id", { description: "The file_id of the REST routes." }),
    name: t.exposeString("name"),
    description: t.exposeString("description"),
    fileType: t.exposeString("fileType"),
    fileCompression: t.exposeString("fileCompression"),
    parserOptions: t.field({ type: "JSON", resolve: (f) => f.parserOptions }),
    sqlTransforms: t.field({ type: "JSON", nullable: true, resolve: (f) => f.sqlTransforms ?? null }),
    author: t.exposeInt("authorId", { description: "The owner's user id." }),
    agentName: t.exposeString("agentName"),
    agentVersion: t.exposeString("agentVersion"),
    bytesCount: t.float({ nullable: true, resolve: (f) => f.bytesCount }),
    isUploaded: t.exposeBoolean("isUploaded"),
    isValid: t.exposeBoolean("isValid"),
    errors: t.field({ type: "JSON", description: "What went wrong and where; {} when nothing did.", resolve: (f) => f.errors }),
    tablesSchemas: t.field({ type: [TableSchemaRef], resolve: (f) => f.tablesSchemas }),
    createdAt: t.expose("createdAt", { type: "DateTime" }),
    updatedAt: t.expose("updatedAt", { type: "DateTime" }),
  }),
});

const FilePage = builder.objectRef<{ count: number; items: FileRecord[] }>("FilePage").implement({
  fields: (t) => ({
    count: t.exposeInt("count"),
    items: t.field({ type: [FileRef], resolve: (page) => page.items }),
  }),
});

const CreateFileInput = builder.inputType("CreateFileInput", {
  fields: (t) => ({
    fileType: t.string({ required: true, description: "arrow, csv, json, orc, parquet, xls or xlsx." }),
    orgName: t.string(),
    name: t.string(),
    description: t.string(),
    fileCompression: t.string({ description: "'', gzip, bz2, zip or xz; the name's extension must agree." }),
    parserOptions: t.field({ type: "JSON" }),
    sqlTransforms: t.field({ type: "JSON" }),
    agentName: t.string(),
    agentVersion: t.string(),
  }),
});

const UpdateFileInput = builder.inputType("UpdateFileInput", {
  fields: (t) => ({
    fileType: t.string(),
    fileCompression: t.string(),
    parserOptions: t.field({ type: "JSON" }),
    name: t.string(),
    description: t.string(),
  }),
});

builder.queryFields((t) => ({
  files: t.field({
    type: FilePage,
    description: "The caller's files and their organizations' files, newest first.",
    args: { limit: t.arg.int({ defaultValue: 100 }), offset: t.arg.int({ defaultValue: 0 }) },
    resolve: async (_root, args, ctx) => ctx.services.files.list(await ctx.requireViewer(), pageArgs(args.limit, args.offset)),
  }),
  file: t.field({
    type: FileRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => ctx.services.files.get(await ctx.requireViewer(), String(args.id)),
  }),
}));

builder.mutationFields((t) => ({
  createFile: t.field({
    type: FileRef,
    args: { input: t.arg({ type: CreateFileInput, required: true }) },
    resolve: async (_root, args, ctx) => ctx.services.files.create(await ctx.requireViewer(), defined(args.input)),
  }),
  uploadFileData: t.field({
    type: FileRef,
    description:
      "Replaces the file's data and parses it. A parse failure is data, not an error: the file comes back with isValid false and errors filled; with erase (the default) the bytes are deleted, otherwise kept for updateFile to parse again.",
    args: {
      id: t.arg.id({ required: true }),
      data: t.arg({ type: "Upload", required: true }),
      erase: t.arg.boolean({ defaultValue: true }),
    },
    resolve: async (_root, args, ctx) =>
      ctx.services.files.upload(await ctx.requireViewer(), String(args.id), args.data, args.erase ?? true),
  }),
  updateFile: t.field({
    type: FileRef,
    description: "Changes parser settings (and name, description); kept data is parsed again without a new upload.",
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: UpdateFileInput, required: true }) },
    resolve: async (_root, args, ctx) => ctx.services.files.update(await ctx.requireViewer(), String(args.id), defined(args.input)),
  }),
  deleteFile: t.boolean({
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => ctx.services.files.remove(await ctx.requireViewer(), String(args.id)),
  }),
}));
