// A small TTL cache for authentication state, so revocations take effect within the TTL.
export type TtlCache<V> = { get(key: string): V | undefined; set(key: string, value: V): void; delete(key: string): void };

export function createTtlCache<V>(ttlMs: number, maxEntries = 10_000, now: () => number = Date.now): TtlCache<V> {
  const entries = new Map<string, { value: V; until: number }>();
  return {
    get(key) {
      const hit = entries.get(key);
      if (!hit) return undefined;
      if (hit.until <= now()) {
        entries.delete(key);
        return undefined;
      }
      return hit.value;
    },
    set(key, value) {
      if (ttlMs <= 0) return;
      if (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(key, { value, until: now() + ttlMs });
    },
    delete(key) {
      entries.delete(key);
    },
  };
}
