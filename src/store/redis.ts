// Redis connections (commands and subscriber) when REDIS_URL is set.
import { Redis } from "ioredis";

export type RedisClients = { publish: Redis; subscribe: Redis; ping(timeoutMs: number): Promise<void>; close(): Promise<void> };

export function createRedisClients(url: string): RedisClients {
  const options = { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true } as const;
  const publish = new Redis(url, options);
  const subscribe = new Redis(url, options);
  // Errors surface through health checks and failed publishes; don't crash on reconnect noise.
  publish.on("error", () => {});
  subscribe.on("error", () => {});
  return {
    publish,
    subscribe,
    async ping(timeoutMs) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        await Promise.race([publish.ping(), timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    async close() {
      await Promise.allSettled([publish.quit(), subscribe.quit()]);
    },
  };
}
