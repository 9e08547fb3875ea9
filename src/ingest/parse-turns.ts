// Who parses next: waiting uploads kept per owner, owners served in turn, each holding at most a few processes.

export type Turns<T> = {
  /** Queues `item` behind the owner's earlier ones. */
  push(owner: string, item: T): void;
  /** The next item to start, if any owner with waiting items is below its share; counts it as running. */
  take(): { owner: string; item: T } | undefined;
  /** One of the owner's items has ended. */
  done(owner: string): void;
  /** Every waiting item, removed (for a shutdown). */
  drain(): T[];
  readonly waiting: number;
};

/**
 * Owners take turns: the next item comes from the waiting owner whose last turn is oldest (an owner never
 * served first, then in order of arrival), so one owner's hundred uploads wait behind everyone else's next
 * one. An owner runs at most `perOwner` items at once: with that below the number of processes, one owner's
 * slow files can never hold them all.
 */
export function createTurns<T>(perOwner: number): Turns<T> {
  const queues = new Map<string, T[]>();
  const running = new Map<string, number>();
  /** When each owner last started an item (kept while it has items waiting or running). */
  const lastTurn = new Map<string, number>();
  let clock = 0;
  let waiting = 0;
  const forget = (owner: string) => {
    if (!queues.has(owner) && !running.has(owner)) lastTurn.delete(owner);
  };
  return {
    push(owner, item) {
      const queue = queues.get(owner);
      if (queue) queue.push(item);
      else queues.set(owner, [item]);
      waiting += 1;
    },
    take() {
      let chosen: string | undefined;
      for (const owner of queues.keys()) {
        if ((running.get(owner) ?? 0) >= perOwner) continue;
        if (chosen === undefined || (lastTurn.get(owner) ?? -1) < (lastTurn.get(chosen) ?? -1)) chosen = owner;
      }
      if (chosen === undefined) return undefined;
      const queue = queues.get(chosen) as T[];
      const item = queue.shift() as T;
      if (queue.length === 0) queues.delete(chosen);
      running.set(chosen, (running.get(chosen) ?? 0) + 1);
      lastTurn.set(chosen, ++clock);
      waiting -= 1;
      return { owner: chosen, item };
    },
    done(owner) {
      const count = (running.get(owner) ?? 0) - 1;
      if (count > 0) running.set(owner, count);
      else running.delete(owner);
      forget(owner);
    },
    drain() {
      const all = [...queues.values()].flat();
      queues.clear();
      waiting = 0;
      return all;
    },
    get waiting() {
      return waiting;
    },
  };
}
