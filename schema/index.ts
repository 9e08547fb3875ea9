// The GraphQL schema: every type module registers itself on the builder, then it is built once.
import { builder } from "./builder.ts";
import "./scalars.ts";
import "./types/organization.ts";
import "./types/personal-key.ts";
import "./types/user.ts";
import "./types/auth.ts";
import "./types/sso.ts";
import "./types/single-use.ts";
import "./types/health.ts";
import "./types/file.ts";
import "./types/dataset.ts";
import "./types/compute.ts";
import "./types/viz-session.ts";
import "./types/gfql.ts";
import "./types/collection.ts";
import "./types/compute-job.ts";

export const schema = builder.toSchema({ sortSchema: true });
