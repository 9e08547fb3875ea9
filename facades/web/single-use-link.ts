// The admin's single-use link, from GraphQL `generateSingleUseUrl` (the twin of REST
// api/v2/generate/single-use-url/): a path on /magic-login/ that signs its opener in for one dataset.
import type { ExecutionResult } from "graphql";
import type { AppErrorCode } from "../../src/errors/app-error.ts";

export const GENERATE_SINGLE_USE_URL = `mutation GenerateSingleUseUrl($username: String!, $datasetId: ID!) {
  generateSingleUseUrl(username: $username, datasetId: $datasetId) { path expiresAt }
}`;

export type SingleUseOutcome = { url: string; expiresAt: string; code?: undefined } | { error: string; code: AppErrorCode };

type Run = (document: string, variables: Record<string, unknown>) => Promise<ExecutionResult>;

/** The link, as a path on this site (the page joins it to its own origin), or the reason there is none. */
export async function singleUseUrl(run: Run, username: string, datasetId: string): Promise<SingleUseOutcome> {
  let result: ExecutionResult;
  try {
    result = await run(GENERATE_SINGLE_USE_URL, { username, datasetId });
  } catch (error) {
    if (error instanceof Error && error.message.includes("facade document is invalid"))
      return { error: "Single-use links are not available on this server.", code: "UNAVAILABLE" };
    throw error;
  }
  const made = (result.data as { generateSingleUseUrl?: { path: string; expiresAt: string } } | null)?.generateSingleUseUrl;
  if (made) return { url: made.path, expiresAt: made.expiresAt };
  const first = result.errors?.[0];
  return { error: `No link was made: ${first?.message ?? "unknown error"}`, code: (first?.extensions?.code as AppErrorCode) ?? "INTERNAL" };
}
