// A session's change stream as one subscriber reads it: the published events, and a RESYNC event whenever some may
// have been missed (Redis came back after an outage, or a resubscribing client says which revision it saw last).
import { Repeater } from "graphql-yoga";
import type { Db } from "../store/prisma.ts";
import type { PubSub } from "../store/pubsub.ts";
import type { RedisClients } from "../store/redis.ts";
import type { SessionRows } from "./session-rows.ts";
import type { VizSessionEvent } from "./viz-sessions.ts";

export type SessionChanges = ReturnType<typeof createSessionChanges>;

/**
 * Every change moves the session's revision number, stored with the session: a subscriber that knows the last one it
 * saw can tell, by reading the row, that it missed some. It then gets one RESYNC event carrying the current
 * revision: the client reads the session (and its collections, layout job, filters, encodings) again.
 */
export function createSessionChanges(deps: {
  db: Db;
  pubsub: PubSub;
  redis: RedisClients | undefined;
  /** This process's kept session rows: an event (from any instance) makes a kept row older than its revision read afresh before it is pushed. */
  sessionRows?: SessionRows;
}) {
  const { db, pubsub, redis, sessionRows } = deps;

  const currentRevision = async (sessionId: string) =>
    (await db.vizSession.findUnique({ where: { id: sessionId }, select: { revisionNumber: true } }))?.revisionNumber;

  /**
   * The session's events from now on. `seen`: the revision the subscriber already has (the session's current one
   * when it just read it, or the client's `since`); when the session is past it once the subscription stands, the
   * first event is RESYNC.
   */
  function subscribe(sessionId: string, seen: number): AsyncIterableIterator<VizSessionEvent> {
    return new Repeater<VizSessionEvent>(async (push, stop) => {
      let last = seen;
      let checking: Promise<void> = Promise.resolve();
      /** Pushes RESYNC when the stored revision is past the last one this subscriber got (one check at a time). */
      const catchUp = () => {
        checking = checking.then(async () => {
          const revision = await currentRevision(sessionId).catch(() => undefined);
          if (revision === undefined || revision <= last) return;
          last = revision;
          await push({ kind: "RESYNC", sessionId, revisionNumber: revision });
        });
      };
      const stopListening = redis?.onRecovered(catchUp);
      const events = pubsub.subscribe("vizSession:changed", sessionId)[Symbol.asyncIterator]();
      // The subscription stands once its first read is pending: any change after the check below is delivered.
      const next = events.next();
      catchUp();
      void stop.then(() => events.return?.());
      try {
        for (let result = await Promise.race([next, stop]); result && !result.done; result = await Promise.race([events.next(), stop])) {
          const event = result.value;
          sessionRows?.forgetBefore(sessionId, event.revisionNumber);
          await checking;
          last = Math.max(last, event.revisionNumber);
          await push(event);
        }
      } finally {
        stopListening?.();
      }
    });
  }

  return { subscribe, currentRevision };
}
