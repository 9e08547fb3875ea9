// Dataset routes (spec 4.3): create, list, read as pygraphistry does, delete, and direct table uploads.
import { listEnvelope, readPage } from "../envelope.ts";
import { RestError } from "../errors.ts";
import { CREATE_DATASET, DELETE_DATASET, GET_DATASET, LIST_DATASETS, UPLOAD_DATASET_TABLE } from "../operations.ts";
import type { RestRoute, RouteInput } from "../route-types.ts";

type DatasetData = {
  id: string;
  name: string;
  description: string;
  author: number;
  nodeCount: number | null;
  edgeCount: number | null;
  agentName: string | null;
  agentVersion: string | null;
  nodeFiles: unknown[];
  edgeFiles: unknown[];
  edgeHypergraphTransform: unknown[];
  nodeEncodings: { bindings: Record<string, string> };
  edgeEncodings: { bindings: Record<string, string> };
  metadata: Record<string, unknown>;
  compute: unknown;
  layout: unknown;
  report: string;
  createdAt: string;
  updatedAt: string;
};

/** The Dataset record with the field names of spec 2.3. */
function datasetBody(d: DatasetData) {
  return {
    dataset_id: d.id,
    name: d.name,
    slug: null,
    author: d.author,
    node_count: d.nodeCount,
    edge_count: d.edgeCount,
    agent_name: d.agentName,
    agent_version: d.agentVersion,
    uri_tag: "",
    description: d.description,
    image: "",
    created_at: d.createdAt,
    updated_at: d.updatedAt,
    timestamp: d.updatedAt,
    node_files: d.nodeFiles,
    edge_files: d.edgeFiles,
    node_transform: "",
    edge_transform: "",
    edge_hypergraph_transform: d.edgeHypergraphTransform,
    compute: d.compute,
    layout: d.layout,
    node_encodings: d.nodeEncodings,
    edge_encodings: d.edgeEncodings,
    metadata: d.metadata,
    legacy_dataset_name: null,
    legacy_dataset_author: null,
  };
}

function page(input: RouteInput) {
  const read = readPage(input.url);
  if (!read.ok) throw new RestError("INVALID_INPUT", read.message, { field: read.field });
  return read.page;
}

const orNull = <T>(value: T | undefined) => (value === undefined ? null : value);

function createdMessage(d: DatasetData): string {
  return ["Dataset created", d.report].filter(Boolean).join(". ").replace(/\.\.$/, ".");
}

/** The createDataset variables of a spec 2.4 body (with `compute`: labels -> entries, run once the tables exist). */
export const createVariables = ({ body }: RouteInput) => ({
  input: {
    name: body.name,
    description: orNull(body.description),
    orgName: orNull(body.org_name),
    metadata: body.metadata,
    nodeEncodings: body.node_encodings,
    edgeEncodings: body.edge_encodings,
    nodeFiles: orNull(body.node_files),
    edgeFiles: orNull(body.edge_files),
    edgeHypergraphTransform: orNull(body.edge_hypergraph_transform),
    agentName: orNull(body.agent_name),
    agentVersion: orNull(body.agent_version),
    compute: orNull(body.compute),
    layout: orNull(body.layout),
  },
});

/** The creation answer {data: {dataset_id}, message, success}. */
export const createdShape = (data: { createDataset: DatasetData }) => ({
  body: { data: { dataset_id: data.createDataset.id }, message: createdMessage(data.createDataset), success: true },
});

export const DATASET_ROUTES: readonly RestRoute[] = [
  {
    path: "/api/v2/upload/datasets/",
    methods: ["POST"],
    body: { schema: "dataset-create-body", required: true },
    document: CREATE_DATASET,
    variables: createVariables,
    shape: createdShape,
  },
  {
    path: "/api/v2/datasets/",
    methods: ["GET"],
    document: LIST_DATASETS,
    variables: (input) => page(input),
    shape: (data, input) => ({ body: listEnvelope(data.datasets.items.map(datasetBody), data.datasets.count, page(input), input.url) }),
  },
  {
    // pygraphistry's from_dataset_id reads payload.get('data', payload) with these keys.
    path: "/api/v2/upload/datasets/:id",
    methods: ["GET"],
    document: GET_DATASET,
    variables: ({ params }) => ({ id: params.id }),
    shape: (data) => {
      const d = data.dataset as DatasetData;
      const body = datasetBody(d);
      return {
        body: {
          success: true,
          data: {
            ...body,
            bindings: { ...d.nodeEncodings.bindings, ...d.edgeEncodings.bindings },
            encodings: { node_encodings: d.nodeEncodings, edge_encodings: d.edgeEncodings },
            style: {},
            url_params: {},
          },
        },
      };
    },
  },
  {
    path: "/api/v2/datasets/:id",
    methods: ["DELETE"],
    document: DELETE_DATASET,
    variables: ({ params }) => ({ id: params.id }),
    shape: () => ({ status: 204 }),
  },
  {
    path: "/api/v2/upload/datasets/:id/:axis{nodes|edges}/:format",
    methods: ["POST"],
    rawBody: true,
    document: UPLOAD_DATASET_TABLE,
    variables: (input) => ({
      id: input.params.id,
      axis: input.params.axis,
      format: input.params.format,
      options: Object.fromEntries(input.query),
      data: input.upload,
    }),
    shape: (data, input) => {
      const upload = data.uploadDatasetTable;
      return {
        body: {
          data: {
            dataset_id: upload.dataset.id,
            dtypes: upload.table.dtypes,
            num_cols: upload.table.numCols,
            num_rows: upload.table.numRows,
            time_parsing_s: Math.round(upload.seconds),
          },
          message: [`Dataset ${input.params.axis} created`, upload.dataset.report].filter(Boolean).join(". "),
          success: true,
        },
      };
    },
  },
];
