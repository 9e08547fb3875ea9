// Files (spec 2.2, 3.2, 4.2): records, uploads streamed to the blob store, parsing, access by owner or organization.
import { randomBytes, randomUUID } from "node:crypto";
import { requireMembership } from "../accounts/organizations.ts";
import { mayChangeRecord } from "../accounts/roles.ts";
import type { Viewer } from "../auth/viewer.ts";
import { AppError, isAppError } from "../errors/app-error.ts";
import type { DecompressLimits } from "../ingest/decompress.ts";
import { type Compression, checkNameAgainstCompression, type FileType, isCompression, isFileType } from "../ingest/formats.ts";
import { type Growth, parseAsItArrives } from "../ingest/growing-file.ts";
import { growingFrom, type ParseRequest, type ParseTimings, parseUpload } from "../ingest/parse.ts";
import type { TableSchema } from "../ingest/table-files.ts";
import { validateParserOptions } from "../ingest/validate-options.ts";
import type { BlobStore } from "../store/blobs.ts";
import type { Db } from "../store/prisma.ts";
import { errorsOf, type FileRecord, toFileRecord } from "./file-records.ts";

export type CreateFileInput = {
  fileType: unknown;
  orgName?: string | undefined;
  name?: string | undefined;
  description?: string | undefined;
  fileCompression?: unknown;
  parserOptions?: unknown;
  sqlTransforms?: unknown;
  agentName?: string | undefined;
  agentVersion?: string | undefined;
};

export type UpdateFileInput = Partial<Pick<CreateFileInput, "fileType" | "fileCompression" | "parserOptions" | "name" | "description">>;

/** An upload body: a Blob or File, or anything else that can stream its bytes once (`chunks` is faster where offered). */
export type UploadBody = { stream(): ReadableStream<Uint8Array>; chunks?: () => AsyncIterable<Uint8Array> };

export type FileServiceOptions = {
  db: Db;
  blobs: BlobStore;
  maxUploadBytes: number;
  decompress: DecompressLimits;
  /** See ParseRequest.csvChunkBytes. */
  csvChunkBytes?: number;
  /**
   * PARSE_WHILE_RECEIVING (default on): a CSV upload read with default settings starts parsing once two chunks of it
   * are stored, chunk by chunk as the rest arrives (growing-file.ts), instead of after the whole upload.
   */
  parseWhileReceiving?: boolean;
  /** KEEP_PARQUET_UPLOADS: a plain Parquet upload is kept as its table (see ParseRequest.keepParquet). */
  keepParquet?: boolean;
  /** Parses an upload (the server's parser process, parse-sandbox.ts); in this process when absent. */
  parse?: (request: ParseRequest, timings?: ParseTimings) => Promise<TableSchema[]>;
  /** Told how long each stage of an upload took, in milliseconds (logged at debug level). */
  onTimings?: (timings: Record<string, number | string>) => void;
};

const invalid = (message: string, field: string) => new AppError("INVALID_INPUT", message, { details: { field } });

function checkedSettings(fileType: unknown, compression: unknown, name: string, parserOptions: unknown) {
  if (!isFileType(fileType)) throw invalid("file_type must be one of arrow, csv, json, orc, parquet, xls, xlsx", "file_type");
  const fileCompression = compression ?? "";
  if (!isCompression(fileCompression)) throw invalid("file_compression must be one of '', gzip, bz2, zip, xz", "file_compression");
  const agreement = checkNameAgainstCompression(name, fileCompression);
  if (!agreement.ok) throw invalid(agreement.message, "file_compression");
  return { fileType, fileCompression, parserOptions: validateParserOptions(fileType, fileCompression, parserOptions) };
}

export type FileService = ReturnType<typeof createFileService>;

export function createFileService(options: FileServiceOptions) {
  const { db, blobs } = options;

  /** Files the viewer may see: their own and their organizations'. */
  const visibleTo = (viewer: Viewer) => ({
    OR: [{ authorId: viewer.userId }, { organization: { memberships: { some: { userId: viewer.userId } } } }],
  });

  async function row(viewer: Viewer, id: string) {
    // Site admins reach every file by id (lists stay their own and their organizations').
    const found = await db.file.findFirst({ where: viewer.isAdmin ? { id } : { id, ...visibleTo(viewer) } });
    // Someone else's file reads exactly like a missing one.
    if (!found) throw new AppError("NOT_FOUND", `no file with id ${id}`);
    return found;
  }

  /** A file the viewer may change or delete: its author's, or one in an organization they own or administer. */
  async function changeable(viewer: Viewer, id: string) {
    const found = await row(viewer, id);
    if (!(await mayChangeRecord(db, viewer, found)))
      throw new AppError("FORBIDDEN", "only the file's author or an admin of its organization may change or delete it");
    return found;
  }

  async function create(viewer: Viewer, input: CreateFileInput): Promise<FileRecord> {
    const name = input.name ?? "";
    const settings = checkedSettings(input.fileType, input.fileCompression, name, input.parserOptions);
    const org = input.orgName ? await requireMembership(db, viewer.userId, input.orgName) : undefined;
    const created = await db.file.create({
      data: {
        id: randomUUID().replaceAll("-", ""),
        authorId: viewer.userId,
        organizationId: org?.id ?? null,
        name,
        description: input.description ?? "",
        fileType: settings.fileType,
        fileCompression: settings.fileCompression,
        parserOptions: JSON.stringify(settings.parserOptions),
        sqlTransforms: input.sqlTransforms === undefined || input.sqlTransforms === null ? null : JSON.stringify(input.sqlTransforms),
        agentName: input.agentName ?? "",
        agentVersion: input.agentVersion ?? "",
      },
    });
    return toFileRecord(created);
  }

  async function list(viewer: Viewer, page: { limit: number; offset: number }) {
    const where = visibleTo(viewer);
    const [count, rows] = await Promise.all([
      db.file.count({ where }),
      db.file.findMany({ where, orderBy: [{ createdAt: "desc" }, { id: "asc" }], take: page.limit, skip: page.offset }),
    ]);
    return { count, items: rows.map(toFileRecord) };
  }

  const get = async (viewer: Viewer, id: string) => toFileRecord(await row(viewer, id));

  type FileRow = Awaited<ReturnType<typeof row>>;
  type FileData = Partial<
    Pick<
      FileRow,
      | "name"
      | "description"
      | "fileType"
      | "fileCompression"
      | "parserOptions"
      | "dataVersion"
      | "isUploaded"
      | "isValid"
      | "errors"
      | "bytesCount"
      | "tablesSchemas"
    >
  >;

  /**
   * Parses the raw data of `version` (a new folder, marked as being written) into its tables and switches the record
   * to the outcome. A parse that fails on the data is recorded (`erase`: the data goes too; otherwise the raw data
   * stays in `version` for a PATCH to parse again). Any other failure (the database or the parser process gone)
   * removes `version` and leaves the record and its current version as they were.
   * `settings`: fields written in the same update (a PATCH's new parser settings).
   * `onto`: switch only if the record still holds that version (a PATCH); otherwise the last upload wins.
   */
  async function parseVersion(
    file: FileRow,
    version: string,
    arriving: number | Growth,
    erase: boolean,
    switching: { settings?: FileData; onto?: string | null },
    timings: ParseTimings = {},
  ): Promise<FileRecord> {
    const scratch = await blobs.scratch();
    const tablesDir = blobs.pathOf("files", file.id, version, "tables");
    let parsed = 0;
    let outcome: FileData;
    // `arriving`: the upload's size, or the upload still arriving (then parsed as it comes; see upload).
    const growth = typeof arriving === "number" ? undefined : arriving;
    const size = async () => (growth ? await growth.complete : (arriving as number));
    try {
      try {
        const started = performance.now();
        const parse = (request: ParseRequest) => (options.parse ?? parseUpload)(request, timings);
        const schemas = await parseAsItArrives(
          parse,
          {
            rawPath: blobs.pathOf("files", file.id, version, "raw"),
            fileType: file.fileType as FileType,
            compression: file.fileCompression as Compression,
            parserOptions: JSON.parse(file.parserOptions) as Record<string, unknown>,
            tableName: file.name || file.id,
            tablesDir,
            scratch,
            limits: options.decompress,
            csvChunkBytes: options.csvChunkBytes,
            // KEEP_PARQUET_UPLOADS: a plain Parquet upload kept as its table (parse.ts keepParquet); readers go
            // through table-files.ts. Off by default: the upload is faster, but a dataset built from the file then
            // decodes it again and writes the Arrow table itself (upload + dataset measured slower, README).
            keepParquet: options.keepParquet ?? false,
          },
          growth,
        );
        const bytes = await size();
        parsed = performance.now();
        timings.parseMs = parsed - started;
        outcome = {
          dataVersion: version,
          isUploaded: true,
          isValid: true,
          errors: "{}",
          bytesCount: BigInt(bytes),
          tablesSchemas: JSON.stringify(schemas),
        };
      } catch (error) {
        // A failed upload (growth) is thrown from here: nothing is recorded.
        const bytes = await size();
        if (!isAppError(error) || !["PARSE_FAILED", "INVALID_INPUT", "PAYLOAD_TOO_LARGE"].includes(error.code)) throw error;
        await blobs.remove(erase ? ["files", file.id, version] : ["files", file.id, version, "tables"]);
        const errors = JSON.stringify(errorsOf(error.code, error.message, error.details));
        outcome = erase
          ? { dataVersion: null, isUploaded: false, isValid: false, errors, bytesCount: null, tablesSchemas: "[]" }
          : { dataVersion: version, isUploaded: true, isValid: false, errors, bytesCount: BigInt(bytes), tablesSchemas: "[]" };
      }
      const result = await switchTo(file.id, { ...switching.settings, ...outcome }, switching.onto);
      // Referenced now: a marker left by a failure here is only dropped by the sweep.
      if (outcome.dataVersion) await blobs.settle(["files", file.id, version]).catch(() => {});
      return result;
    } catch (error) {
      await blobs.remove(["files", file.id, version]);
      throw error;
    } finally {
      if (parsed) timings.recordMs = performance.now() - parsed;
      await blobs.remove(["tmp", scratch.split(/[\\/]/).pop() ?? ""]);
    }
  }

  /**
   * Writes the new state, then drops the data version it replaced: readers never see a half-written file, and of
   * uploads racing on one file the last to finish wins with no version of the others left behind. With `onto`
   * (a PATCH), only while the record still holds that version; else CONFLICT.
   */
  async function switchTo(id: string, data: FileData, onto?: string | null): Promise<FileRecord> {
    for (let attempt = 0; attempt < 20; attempt += 1) {
      const current = await db.file.findUnique({ where: { id } });
      if (!current) throw new AppError("NOT_FOUND", `no file with id ${id}`);
      if (onto !== undefined && current.dataVersion !== onto)
        throw new AppError("CONFLICT", `file ${id} received new data meanwhile; send the change again`);
      const { count } = await db.file.updateMany({ where: { id, dataVersion: current.dataVersion }, data });
      if (count === 0) continue;
      if (current.dataVersion && current.dataVersion !== data.dataVersion) await blobs.remove(["files", id, current.dataVersion]);
      const updated = await db.file.findUnique({ where: { id } });
      // A later upload may already have replaced this one: answer what this request recorded.
      return toFileRecord(updated && updated.dataVersion === data.dataVersion ? updated : ({ ...current, ...data } as FileRow));
    }
    throw new AppError("CONFLICT", `file ${id} is changing too often; send the upload again`);
  }

  const newVersion = () => `${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;

  async function upload(viewer: Viewer, id: string, body: UploadBody, erase: boolean): Promise<FileRecord> {
    const looked = performance.now();
    const file = await changeable(viewer, id);
    const version = newVersion();
    const started = performance.now();
    // Streamed to disk into a folder of its own, marked as being written (a SIGKILL leaves it to the startup sweep);
    // a failure or an oversize body leaves the previous state untouched.
    await blobs.claim(["files", id, version]);
    const timings: ParseTimings = { lookupMs: started - looked };
    let received = 0;
    const arrival = receive(file, ["files", id, version, "raw"], body);
    const stored = arrival.stored.then(
      ({ bytes }) => {
        received = performance.now();
        timings.receiveMs = received - started;
        return bytes;
      },
      async (error: unknown) => {
        await blobs.remove(["files", id, version]);
        throw error;
      },
    );
    // Large enough to parse as it arrives (two chunks in before the end): parsed now; otherwise once stored.
    const early = await Promise.race([arrival.large.then(() => true), stored.then(() => false)]);
    const result = await parseVersion(file, version, early ? { complete: stored } : await stored, erase, {}, timings);
    timings.afterReceiveMs = performance.now() - received;
    options.onTimings?.({
      file_id: id,
      bytes: await stored,
      early: early ? 1 : 0,
      ...Object.fromEntries(Object.entries(timings).map(([stage, ms]) => [stage, Math.round(ms)])),
    });
    return result;
  }

  /**
   * Streams an upload into the version's raw file. `large` resolves once more than two CSV chunks have come in, for an
   * upload that is parsed as it arrives (PARSE_WHILE_RECEIVING: CSV read with default settings); it is written in
   * place then (its folder is claimed: nothing reads it before it is settled), so the parser can read it as it grows.
   */
  function receive(file: FileRow, parts: string[], body: UploadBody) {
    const from =
      options.parseWhileReceiving === false
        ? undefined
        : growingFrom({
            fileType: file.fileType as FileType,
            compression: file.fileCompression as Compression,
            parserOptions: JSON.parse(file.parserOptions) as Record<string, unknown>,
            csvChunkBytes: options.csvChunkBytes,
          });
    let reached = () => {};
    const large = new Promise<void>((resolve) => {
      reached = resolve;
    });
    const stored = blobs.writeStream(
      parts,
      body.chunks?.() ?? body.stream(),
      options.maxUploadBytes,
      from === undefined ? {} : { inPlace: true, onBytes: (bytes) => bytes > from && reached() },
    );
    return { stored, large };
  }

  async function update(viewer: Viewer, id: string, input: UpdateFileInput): Promise<FileRecord> {
    const file = await changeable(viewer, id);
    const name = input.name ?? file.name;
    const checked = checkedSettings(
      input.fileType ?? file.fileType,
      input.fileCompression ?? file.fileCompression,
      name,
      input.parserOptions === undefined ? JSON.parse(file.parserOptions) : input.parserOptions,
    );
    const settings = {
      name,
      description: input.description ?? file.description,
      fileType: checked.fileType,
      fileCompression: checked.fileCompression,
      parserOptions: JSON.stringify(checked.parserOptions),
    };
    // Kept data is parsed again with the new settings; it is never erased by a PATCH.
    const kept = file.dataVersion;
    if (!kept || !(await blobs.exists(["files", id, kept, "raw"])))
      return toFileRecord(await db.file.update({ where: { id }, data: settings }));
    // Into a new version that shares the raw bytes: the current one stays whole until the record switches, and the
    // settings change with the outcome in one update (a failure changes neither).
    const version = newVersion();
    await blobs.claim(["files", id, version]);
    try {
      await blobs.share(["files", id, kept, "raw"], ["files", id, version, "raw"]);
    } catch (error) {
      await blobs.remove(["files", id, version]);
      throw error;
    }
    const bytes = file.bytesCount === null ? 0 : Number(file.bytesCount);
    return parseVersion({ ...file, ...settings }, version, bytes, false, { settings, onto: kept });
  }

  async function remove(viewer: Viewer, id: string): Promise<boolean> {
    await changeable(viewer, id);
    await db.file.delete({ where: { id } });
    await blobs.remove(["files", id]);
    return true;
  }

  /** Path of table n of a valid file, for datasets. */
  async function tablePath(viewer: Viewer, id: string, index: number): Promise<{ path: string; file: FileRecord }> {
    const file = toFileRecord(await row(viewer, id));
    if (!file.isValid || !file.dataVersion)
      throw new AppError("INVALID_INPUT", `file ${id} has no valid data`, { details: { file_id: id } });
    if (!Number.isInteger(index) || index < 0 || index >= file.tablesSchemas.length) {
      throw new AppError("INVALID_INPUT", `file ${id} has no table ${index} (it has ${file.tablesSchemas.length})`, {
        details: { file_id: id },
      });
    }
    return { path: blobs.pathOf("files", id, file.dataVersion, "tables", `${index}.arrow`), file };
  }

  return { create, list, get, upload, update, remove, tablePath };
}
