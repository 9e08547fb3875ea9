// What a running job keeps an eye on: its progress (written and published at a bounded rate) and cancel requests
// (published by any gateway, or only written to its row when an event was missed).
import type { Db } from "../../store/prisma.ts";
import type { Progress } from "../types.ts";
import type { JobEvents } from "./job-events.ts";

export type ProgressFields = { phase: string; iteration: number | null; fraction: number | null };

/** Progress as reported, written at most every `intervalMs` (the last report always lands before `done` resolves). */
export function progressWriter(write: (fields: ProgressFields) => Promise<unknown>, intervalMs: number, onError: (error: unknown) => void) {
  let latest: Progress | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let chain: Promise<unknown> = Promise.resolve();
  const flush = () => {
    timer = undefined;
    const p = latest;
    latest = undefined;
    if (!p) return;
    const fields = { phase: p.phase, iteration: p.iteration ?? null, fraction: p.fraction ?? null };
    chain = chain.then(() => write(fields)).catch(onError);
  };
  return {
    report(p: Progress) {
      latest = p;
      timer ??= setTimeout(flush, intervalMs);
    },
    async done() {
      clearTimeout(timer);
      flush();
      await chain;
    },
  };
}

/**
 * Aborts `controller` when a cancel request for job `id` shows up, as an event or in its row (read every `pollMs`;
 * a row that is gone, deleted with its dataset, aborts too). Answers the function that stops watching.
 */
export function watchCancel(options: { db: Db; events: JobEvents; id: string; controller: AbortController; pollMs: number }): () => void {
  const { db, events, id, controller, pollMs } = options;
  const subscription = events.subscribe("computeJob:changed", id);
  void (async () => {
    for await (const event of subscription) {
      if (event.cancelRequested) {
        controller.abort();
        break;
      }
    }
  })().catch(() => {});
  const poll = setInterval(() => {
    db.computeJob
      .findUnique({ where: { id }, select: { cancelRequested: true } })
      .then((row) => {
        if (!row || row.cancelRequested) controller.abort();
      })
      .catch(() => {});
  }, pollMs);
  return () => {
    clearInterval(poll);
    void subscription.return?.();
  };
}
