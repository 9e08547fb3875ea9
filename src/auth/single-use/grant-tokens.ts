// Read-only bearer tokens for an assistant working beside a single-use viewer: a browser a single-use link signed in
// obtains a token whose scope is exactly its grant (the one dataset, read-only), ending with the grant's session.
import { AppError } from "../../errors/app-error.ts";
import type { BrowserSessions } from "../browser-sessions.ts";
import type { TokenIssuer } from "../tokens.ts";
import type { Viewer } from "../viewer.ts";

export type GrantToken = { token: string; expiresAt: Date; datasetId: string };

export type GrantTokens = ReturnType<typeof createGrantTokens>;

export function createGrantTokens(deps: { tokens: TokenIssuer; browserSessions: BrowserSessions }) {
  /**
   * A token for the grant of the browser session `sessionToken` (the cookie the viewer was authenticated with).
   * Only such a session may ask: other callers already hold wider credentials, and a grant's token may not mint more.
   */
  async function issue(viewer: Viewer, sessionToken: string | undefined): Promise<GrantToken> {
    if (!viewer.grant || viewer.grant.readOnly || viewer.via !== "cookie" || !sessionToken) {
      throw new AppError("FORBIDDEN", "Only a browser signed in by a single-use link obtains a grant token.");
    }
    const session = await deps.browserSessions.byId(deps.browserSessions.idOf(sessionToken));
    if (!session || session.userId !== viewer.userId || session.grantDatasetId !== viewer.grant.datasetId) {
      throw new AppError("UNAUTHENTICATED", "The single-use session has ended.");
    }
    const { token } = await deps.tokens.issueGrant({
      userId: viewer.userId,
      username: viewer.username,
      datasetId: session.grantDatasetId,
      sessionId: session.id,
      expiresAt: session.expiresAt,
    });
    return { token, expiresAt: session.expiresAt, datasetId: session.grantDatasetId };
  }

  return { issue };
}
