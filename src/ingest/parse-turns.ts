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
 * Round robin between owners: after an owner's item starts, that owner goes to the back of the line, so one
 * owner's hundred uploads wait behind everyone else's next one. An owner runs at most `perOwner` items at
 * once: with that below the number of processes, one owner's slow files can never hold them all.
 */
export function createTurns<T>(perOwner: number): Turns<T> {
  // A Map iterates in insertion order: deleting and setting again moves an owner to the back.
  const queues = new Map<string, T[]>();
  const running = new Map<string, number>();
  let waiting = 0;
  return {
    push(owner, item) {
      const queue = queues.get(owner);
      if (queue) queue.push(item);
      else queues.set(owner, [item]);
      waiting += 1;
    },
    take() {
      for (const [owner, queue] of queues) {
        if ((running.get(owner) ?? 0) >= perOwner) continue;
        const item = queue.shift() as T;
        queues.delete(owner);
        if (queue.length > 0) queues.set(owner, queue);
        running.set(owner, (running.get(owner) ?? 0) + 1);
        waiting -= 1;
        return { owner, item };
      }
      return undefined;
    },
    done(owner) {
      const count = (running.get(owner) ?? 0) - 1;
      if (count > 0) running.set(owner, count);
      else running.delete(owner);
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
