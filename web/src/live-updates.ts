// Subscribes to the session's changes over graphql-ws on /graphql and reports each event.
import { createClient } from "graphql-ws";
import type { SessionChange } from "./collections-hook.ts";

export const CHANGED_SUBSCRIPTION = `subscription Changed($id: ID!) { vizSessionChanged(id: $id) { kind revision { id number } } }`;

export function subscribeToSession(sessionId: string, onChange: (change: SessionChange) => void): () => void {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const client = createClient({
    url: `${scheme}//${location.host}/graphql`,
    lazy: false,
    retryAttempts: Number.POSITIVE_INFINITY,
    // Reconnect with backoff, capped, so a restarting server is picked up again.
    retryWait: async (retries) => new Promise((resolve) => setTimeout(resolve, Math.min(30_000, 1_000 * 2 ** retries))),
    shouldRetry: () => true,
  });
  const stop = client.subscribe<{ vizSessionChanged: SessionChange }>(
    { query: CHANGED_SUBSCRIPTION, variables: { id: sessionId } },
    {
      next: (message) => {
        const change = message.data?.vizSessionChanged;
        if (change) onChange(change);
      },
      error: (error) => console.warn("live updates stopped", error),
      complete: () => {},
    },
  );
  return () => {
    stop();
    void client.dispose();
  };
}
