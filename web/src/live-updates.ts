// Subscribes to the session's changes over graphql-ws on /graphql and reports each event; the same socket also
// answers queries, which spares a page busy drawing the extra turns an HTTP request takes.
import { createClient } from "graphql-ws";
import { COLLECTION_FIELDS, type CollectionInfo } from "./collections-query.ts";
import { RequestError } from "./request-error.ts";

/**
 * One live event: REVISION, LAYOUT, LAYOUT_JOB, COLLECTIONS, FILTERS or ENCODINGS, with the session's revision after it
 * (RECONNECTED, and the catch-up after a reconnection or a server's RESYNC: none), and the
 * session's collections as they stand after it (absent when the server could not list them).
 */
export type SessionChange = { kind: string; revision: { id: string; number: number } | null; collections?: CollectionInfo[] | null };

export type LiveSession = {
  /** One query over the socket; rejects on errors, or when no answer came within `timeoutMs`. */
  query<T>(query: string, variables: Record<string, unknown>, timeoutMs?: number): Promise<T>;
  stop(): void;
};

export const CHANGED_SUBSCRIPTION = `subscription Changed($id: ID!) { vizSessionChanged(id: $id) {
  kind revision { id number } collections { ${COLLECTION_FIELDS} } } }`;

export function isCollectionsChange(change: SessionChange): boolean {
  return change.kind.toLowerCase().includes("collection");
}

/** A change of the session's server layout job (started, paused, resumed, new parameters, stopped, finished). */
export function isLayoutJobChange(change: SessionChange): boolean {
  return change.kind === "LAYOUT_JOB";
}

export function subscribeToSession(sessionId: string, onChange: (change: SessionChange) => void): LiveSession {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const client = createClient({
    url: `${scheme}//${location.host}/graphql`,
    lazy: false,
    retryAttempts: Number.POSITIVE_INFINITY,
    // Reconnect with backoff, capped, so a restarting server is picked up again.
    retryWait: async (retries) => new Promise((resolve) => setTimeout(resolve, Math.min(30_000, 1_000 * 2 ** retries))),
    shouldRetry: () => true,
    on: {
      // Events sent while the socket was down are lost: after a reconnection, catch up on everything.
      connected: (_socket, _payload, wasRetry) => {
        if (wasRetry) catchUp();
      },
    },
  });
  /** Reads everything again: the collections, the shared filters and encodings, the session and its layout job. */
  function catchUp(): void {
    onChange({ kind: "COLLECTIONS", revision: null });
    onChange({ kind: "FILTERS", revision: null });
    onChange({ kind: "RECONNECTED", revision: null });
  }
  const stop = client.subscribe<{ vizSessionChanged: SessionChange }>(
    { query: CHANGED_SUBSCRIPTION, variables: { id: sessionId } },
    {
      next: (message) => {
        const change = message.data?.vizSessionChanged;
        // The server says changes were missed (its Redis was away): as after a reconnection.
        if (change?.kind === "RESYNC") catchUp();
        else if (change) onChange(change);
      },
      error: (error) => console.warn("live updates stopped", error),
      complete: () => {},
    },
  );
  return {
    query<T>(query: string, variables: Record<string, unknown>, timeoutMs = 5_000) {
      return new Promise<T>((resolve, reject) => {
        const timer = setTimeout(() => {
          cancel();
          reject(new RequestError("no answer over the live connection", "INTERNAL"));
        }, timeoutMs);
        // Settled on the first result: a query has one, and waiting for the completion costs another message.
        const cancel = client.subscribe<T>(
          { query, variables },
          {
            next: (message) => {
              clearTimeout(timer);
              const first = message.errors?.[0];
              if (first) reject(new RequestError(first.message, String(first.extensions?.code ?? "INTERNAL")));
              else if (message.data) resolve(message.data);
              else reject(new RequestError("the server answered no data", "INTERNAL"));
            },
            error: (error) => {
              clearTimeout(timer);
              reject(error instanceof Error ? error : new RequestError("the live query failed", "INTERNAL"));
            },
            complete: () => clearTimeout(timer),
          },
        );
      });
    },
    stop() {
      stop();
      void client.dispose();
    },
  };
}
