// The session's server layout job over GraphQL: its state (VizSession.layoutJob) and the controlSessionLayout mutation.
import { requestGraphQL } from "./graphql-client.ts";
import type { LayoutJobState } from "./layout-frames.ts";

export type LayoutJob = {
  state: "RUNNING" | "PAUSED" | "DONE" | "STOPPED" | "FAILED";
  library: string | null;
  algorithm: string | null;
  params: Record<string, unknown> | null;
  iteration: number;
  maxIter: number;
  nodeCount: number | null;
  error: string | null;
  updatedAt: string | null;
};

export type LayoutAction = "START" | "PAUSE" | "RESUME" | "SET_PARAMS" | "STOP";

const JOB_FIELDS = "state library algorithm params iteration maxIter nodeCount error updatedAt";

export const LAYOUT_JOB_QUERY = `query LayoutJob($id: ID!) { vizSession(id: $id) { id layoutJob { ${JOB_FIELDS} } } }`;

/** The action is written into the document (a closed set), so the page does not depend on the enum type's name. */
export function controlLayoutMutation(action: LayoutAction): string {
  return `mutation ControlLayout($id: ID!, $layout: JSON) {
  controlSessionLayout(sessionId: $id, action: ${action}, layout: $layout) { ${JOB_FIELDS} } }`;
}

/** Runs one query, over the live socket when the page has one (an HTTP request waits longer on a busy page). */
export type QueryRunner = <T>(query: string, variables: Record<string, unknown>) => Promise<T>;

const overHttp: QueryRunner = (query, variables) => requestGraphQL(query, variables);

export async function fetchLayoutJob(sessionId: string, run: QueryRunner = overHttp): Promise<LayoutJob | null> {
  const data = await run<{ vizSession: { layoutJob: LayoutJob | null } | null }>(LAYOUT_JOB_QUERY, { id: sessionId });
  return data.vizSession?.layoutJob ?? null;
}

export async function controlLayout(sessionId: string, action: LayoutAction, layout?: Record<string, unknown>): Promise<LayoutJob> {
  const variables: Record<string, unknown> = { id: sessionId };
  if (layout) variables.layout = layout;
  const data = await requestGraphQL<{ controlSessionLayout: LayoutJob }>(controlLayoutMutation(action), variables);
  return data.controlSessionLayout;
}

/** The page's lower-case state for a job (none when there is none). */
export function jobState(job: LayoutJob | null): LayoutJobState | "none" {
  return job ? (job.state.toLowerCase() as LayoutJobState) : "none";
}

/** The ForceAtlas2 settings the panel edits, with cuGraph's defaults where the job does not say. */
export type LayoutSettings = { gravity: number; scaling_ratio: number; lin_log_mode: boolean; prevent_overlapping: boolean };

export const DEFAULT_SETTINGS: LayoutSettings = { gravity: 1, scaling_ratio: 2, lin_log_mode: false, prevent_overlapping: false };

export function settingsOf(job: LayoutJob | null): LayoutSettings {
  const params = job?.params ?? {};
  const number = (key: string, fallback: number) => {
    const value = params[key];
    return typeof value === "number" && Number.isFinite(value) ? value : fallback;
  };
  const flag = (key: string, fallback: boolean) => (typeof params[key] === "boolean" ? (params[key] as boolean) : fallback);
  return {
    gravity: number("gravity", DEFAULT_SETTINGS.gravity),
    scaling_ratio: number("scaling_ratio", DEFAULT_SETTINGS.scaling_ratio),
    lin_log_mode: flag("lin_log_mode", DEFAULT_SETTINGS.lin_log_mode),
    prevent_overlapping: flag("prevent_overlapping", DEFAULT_SETTINGS.prevent_overlapping),
  };
}
