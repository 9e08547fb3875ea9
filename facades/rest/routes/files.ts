// File routes (spec 4.2): create, list, read, upload data, change parser settings, delete.
import { listEnvelope, readPage } from "../envelope.ts";
import { RestError } from "../errors.ts";
import { CREATE_FILE, DELETE_FILE, GET_FILE, LIST_FILES, UPDATE_FILE, UPLOAD_FILE } from "../operations.ts";
import type { RestRoute, RouteInput } from "../route-types.ts";

type FileData = {
  id: string;
  name: string;
  description: string;
  fileType: string;
  fileCompression: string;
  parserOptions: unknown;
  sqlTransforms: unknown;
  author: number;
  agentName: string;
  agentVersion: string;
  bytesCount: number | null;
  isUploaded: boolean;
  isValid: boolean;
  errors: unknown;
  tablesSchemas: { name: string; numCols: number; numRows: number; dtypes: Record<string, string> }[];
  createdAt: string;
  updatedAt: string;
};

/** The File record with the field names of spec 2.2. */
export function fileBody(f: FileData) {
  return {
    file_id: f.id,
    name: f.name,
    description: f.description,
    file_type: f.fileType,
    file_compression: f.fileCompression,
    parser_options: f.parserOptions,
    sql_transforms: f.sqlTransforms,
    author: f.author,
    agent_name: f.agentName,
    agent_version: f.agentVersion,
    bytes_count: f.bytesCount,
    is_uploaded: f.isUploaded,
    is_valid: f.isValid,
    errors: f.errors,
    tables_schemas: f.tablesSchemas.map((t) => ({ name: t.name, num_cols: t.numCols, num_rows: t.numRows, dtypes: t.dtypes })),
    created_at: f.createdAt,
    updated_at: f.updatedAt,
  };
}

function page(input: RouteInput) {
  const read = readPage(input.url);
  if (!read.ok) throw new RestError("INVALID_INPUT", read.message, { field: read.field });
  return read.page;
}

function eraseOf(input: RouteInput): boolean {
  const raw = input.query.get("erase");
  if (raw === null || raw === "") return true;
  if (["true", "1", "yes", "True"].includes(raw)) return true;
  if (["false", "0", "no", "False"].includes(raw)) return false;
  throw new RestError("INVALID_INPUT", "query parameter erase must be true or false", { field: "erase" });
}

const orNull = <T>(value: T | undefined) => (value === undefined ? null : value);

export const FILE_ROUTES: readonly RestRoute[] = [
  {
    path: "/api/v2/files/",
    methods: ["POST"],
    body: { schema: "file-create-body", required: true },
    document: CREATE_FILE,
    variables: ({ body }) => ({
      input: {
        fileType: body.file_type,
        orgName: orNull(body.org_name),
        name: orNull(body.name),
        description: orNull(body.description),
        fileCompression: orNull(body.file_compression),
        parserOptions: orNull(body.parser_options),
        sqlTransforms: orNull(body.sql_transforms),
        agentName: orNull(body.agent_name),
        agentVersion: orNull(body.agent_version),
      },
    }),
    // pygraphistry requires 200 here (not 201); the full record is a superset of the documented answer.
    shape: (data) => ({ body: fileBody(data.createFile) }),
  },
  {
    path: "/api/v2/files/",
    methods: ["GET"],
    document: LIST_FILES,
    variables: (input) => page(input),
    shape: (data, input) => ({ body: listEnvelope(data.files.items.map(fileBody), data.files.count, page(input), input.url) }),
  },
  {
    path: "/api/v2/files/:id",
    methods: ["GET"],
    document: GET_FILE,
    variables: ({ params }) => ({ id: params.id }),
    shape: (data) => ({ body: fileBody(data.file) }),
  },
  {
    path: "/api/v2/files/:id",
    methods: ["DELETE"],
    document: DELETE_FILE,
    variables: ({ params }) => ({ id: params.id }),
    shape: () => ({ status: 204 }),
  },
  {
    path: "/api/v2/upload/files/:id",
    methods: ["POST"],
    rawBody: true,
    document: UPLOAD_FILE,
    variables: (input) => ({ id: input.params.id, data: input.upload, erase: eraseOf(input) }),
    // A parse failure answers 200 with is_valid false and errors: the clients read those flags.
    shape: (data) => ({ body: fileBody(data.uploadFileData) }),
  },
  {
    path: "/api/v2/upload/files/:id/",
    methods: ["PATCH"],
    body: { schema: "file-update-body", required: true },
    document: UPDATE_FILE,
    variables: ({ params, body }) => ({
      id: params.id,
      input: {
        fileType: orNull(body.file_type),
        fileCompression: orNull(body.file_compression),
        parserOptions: orNull(body.parser_options),
        name: orNull(body.name),
        description: orNull(body.description),
      },
    }),
    shape: (data) => ({ body: fileBody(data.updateFile) }),
  },
];
