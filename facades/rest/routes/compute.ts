// Spec 4.4: the compute/layout schema (GET api/v1/datasets/, also under web/) and dataset creation with compute.
import { COMPUTE_SCHEMA, CREATE_DATASET } from "../operations.ts";
import type { RestRoute } from "../route-types.ts";
import { createdShape, createVariables } from "./datasets.ts";

const schemaRoute = (path: string): RestRoute => ({
  path,
  methods: ["GET"],
  document: COMPUTE_SCHEMA,
  variables: () => ({}),
  shape: (data) => ({ body: data.computeSchema }),
});

export const COMPUTE_ROUTES: readonly RestRoute[] = [
  schemaRoute("/api/v1/datasets/"),
  schemaRoute("/web/api/v1/datasets/"),
  {
    // The spec 2.4 body plus `compute` (labels -> {libraries, alg, params, directed}); answers once the columns exist.
    path: "/api/v1/datasets/",
    methods: ["POST"],
    body: { schema: "dataset-create-body", required: true },
    document: CREATE_DATASET,
    variables: createVariables,
    shape: createdShape,
  },
];
