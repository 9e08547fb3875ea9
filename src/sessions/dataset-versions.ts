// Tells a dataset's live sessions that its tables moved to a new version (a compute job stored its result): each
// session's revision moves on and its viewers, on whichever gateway instance, get a REVISION event and read the
// dataset again (its tables' schemas, row counts and data routes follow the new version).
import type { Db } from "../store/prisma.ts";
import type { PubSub } from "../store/pubsub.ts";

/** Moves every session of the dataset to its next revision and publishes it; answers how many there were. */
export async function announceDatasetVersion(db: Db, pubsub: PubSub, datasetId: string): Promise<number> {
  const sessions = await db.vizSession.findMany({ where: { datasetId }, select: { id: true } });
  for (const { id } of sessions) {
    const updated = await db.vizSession.update({ where: { id }, data: { revisionNumber: { increment: 1 } } }).catch(() => null);
    // A session closed meanwhile has nobody to tell.
    if (updated) pubsub.publish("vizSession:changed", id, { kind: "REVISION", sessionId: id, revisionNumber: updated.revisionNumber });
  }
  return sessions.length;
}
