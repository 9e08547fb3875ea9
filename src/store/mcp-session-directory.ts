// Where the tool endpoint's transport sessions are known across gateway instances: with Redis, a session opened on
// one instance can be served by any other (each adopts it on first use); without, only the opening process knows it.
import type { McpSessionDirectory } from "../mcp/session-directory.ts";
import type { RedisClients } from "./redis.ts";

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
      return stored ? JSON.parse(stored) : undefined;
    },
    async touch(id) {
      return (await client.expire(key(id), idleSeconds)) === 1;
    },
    async forget(id) {
      await client.del(key(id));
    },
  };
}
