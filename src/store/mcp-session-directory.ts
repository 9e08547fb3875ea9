// Where the tool endpoint's transport sessions are known across gateway instances: with Redis, a session opened on
// one instance can be served by any other (each adopts it on first use); without, only the opening process knows it.
import type { RedisClients } from "./redis.ts";

/** What an assistant sent in `initialize`: enough for another instance to take the session up. */
export type McpSessionStart = { protocolVersion: string; capabilities: unknown; clientInfo: unknown };

export type McpSessionDirectory = {
  remember(id: string, start: McpSessionStart): Promise<void>;
  /** The session's start, when some instance opened it and it is neither closed nor idle past its time. */
  recall(id: string): Promise<McpSessionStart | undefined>;
  /** Marks the session used (its idle time starts over); false when it is no longer known. */
  touch(id: string): Promise<boolean>;
  forget(id: string): Promise<void>;
};

const key = (id: string) => `mcp:session:${id}`;

export function createMcpSessionDirectory(redis: RedisClients | undefined, idleSeconds: number): McpSessionDirectory | undefined {
  if (!redis) return undefined;
  const client = redis.publish;
  return {
    async remember(id, start) {
      await client.set(key(id), JSON.stringify(start), "EX", idleSeconds);
    },
    async recall(id) {
      const stored = await client.get(key(id));
      return stored ? (JSON.parse(stored) as McpSessionStart) : undefined;
    },
    async touch(id) {
      return (await client.expire(key(id), idleSeconds)) === 1;
    },
    async forget(id) {
      await client.del(key(id));
    },
  };
}
