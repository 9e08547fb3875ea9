// Where the tool endpoint's transport sessions are known across gateway instances: with Redis, a session opened on
// one instance can be served by any other (each adopts it on first use); without, only the opening process knows it.
import type { McpSessionDirectory, McpSessionStart } from "../mcp/session-directory.ts";
import type { RedisClients } from "./redis.ts";

const key = (id: string) => `mcp:session:${id}`;
/** What a closed session's key holds until its idle time passes: closed, not merely unknown. */
const CLOSED = "closed";

export function createMcpSessionDirectory(redis: RedisClients | undefined, idleSeconds: number): McpSessionDirectory | undefined {
  if (!redis) return undefined;
  const client = redis.publish;
  const idleMs = idleSeconds * 1000;
  /**
   * The sessions this process serves (opened or adopted), with their start and last use: a Redis that restarted
   * empty lost them all, so they are written back, once it is back and at their next use here. A session closed
   * anywhere leaves a CLOSED mark instead, so that one is never written back.
   */
  const held = new Map<string, { start: McpSessionStart; seen: number }>();
  const hold = (id: string, start: McpSessionStart) => {
    const cutoff = Date.now() - idleMs;
    for (const [other, entry] of held) if (entry.seen < cutoff) held.delete(other);
    held.set(id, { start, seen: Date.now() });
  };
  const writeBack = (id: string, start: McpSessionStart) => client.set(key(id), JSON.stringify(start), "EX", idleSeconds, "NX");
  redis.onRecovered(() => {
    const cutoff = Date.now() - idleMs;
    for (const [id, entry] of held) if (entry.seen >= cutoff) void writeBack(id, entry.start).catch(() => {});
  });

  return {
    async remember(id, start) {
      hold(id, start);
      await client.set(key(id), JSON.stringify(start), "EX", idleSeconds);
    },
    async recall(id) {
      const stored = await client.get(key(id));
      if (!stored || stored === CLOSED) return undefined;
      const start = JSON.parse(stored) as McpSessionStart;
      hold(id, start);
      return start;
    },
    async touch(id) {
      const stored = await client.getex(key(id), "EX", idleSeconds);
      const entry = held.get(id);
      if (stored === CLOSED) {
        held.delete(id);
        return false;
      }
      if (stored !== null) {
        if (entry) entry.seen = Date.now();
        return true;
      }
      // Unknown to Redis though used here within its idle time: Redis lost it (restarted empty).
      if (!entry || entry.seen < Date.now() - idleMs) return false;
      entry.seen = Date.now();
      await writeBack(id, entry.start);
      return true;
    },
    async forget(id) {
      held.delete(id);
      await client.set(key(id), CLOSED, "EX", idleSeconds);
    },
  };
}
