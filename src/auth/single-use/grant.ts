// The access rule of a single-use link's browser session: that one dataset and nothing else.
import type { Viewer } from "../viewer.ts";

/** Whether the viewer may reach this dataset as far as a single-use grant goes (true for every unscoped viewer). */
export function grantAllows(viewer: Viewer, datasetId: string): boolean {
  return viewer.grant === undefined || viewer.grant.datasetId === datasetId;
}
