// The REST route table: each path (with the spec's exact trailing slash) -> a GraphQL operation and a shaper.
import type { RestRoute } from "../route-types.ts";
import { AUTH_ROUTES } from "./auth.ts";
import { COMPUTE_ROUTES } from "./compute.ts";
import { DATASET_ROUTES } from "./datasets.ts";
import { FILE_ROUTES } from "./files.ts";
import { GFQL_ROUTES } from "./gfql.ts";
import { HEALTH_ROUTES } from "./health.ts";
import { SESSION_ROUTES } from "./sessions.ts";
import { SINGLE_USE_ROUTES } from "./single-use.ts";
import { SSO_ROUTES } from "./sso.ts";

export const REST_ROUTES: readonly RestRoute[] = [
  ...AUTH_ROUTES,
  ...HEALTH_ROUTES,
  ...FILE_ROUTES,
  ...DATASET_ROUTES,
  ...COMPUTE_ROUTES,
  ...SESSION_ROUTES,
  ...GFQL_ROUTES,
  ...SSO_ROUTES,
  ...SINGLE_USE_ROUTES,
];
