// Redis connections (commands and subscriber) when REDIS_URL is set.
import { Redis } from "ioredis";

export type RedisClients = {
  publish: Redis;
  subscribe: Redis;
  /** The clients as @graphql-yoga/redis-event-target uses them, made safe while Redis is away (below). */
  forEventTarget(): { publishClient: Redis; subscribeClient: Redis };
  ping(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
};

/**
 * redis-event-target neither awaits nor catches its SUBSCRIBE and PUBLISH commands: with Redis unreachable each
 * would reject unhandled, which ends a Node process. Here a failed PUBLISH is dropped (subscribers on other
 * instances miss that event, as they would have anyway), and a failed SUBSCRIBE is sent again once the connection
 * is back, so the channel is not lost for good.
 */
function safeForEventTarget(publish: Redis, subscribe: Redis): { publishClient: Redis; subscribeClient: Redis } {
  const wanted = new Set<string>();
  const retry = new Set<string>();
  subscribe.on("ready", () => {
    for (const channel of retry) send(channel);
  });
  function send(channel: string): void {
    retry.delete(channel);
    subscribe.subscribe(channel).catch(() => {
      if (wanted.has(channel)) retry.add(channel);
    });
  }
  const subscribeClient = new Proxy(subscribe, {
    get(target, key, receiver) {
      if (key === "subscribe")
        return (channel: string) => {
          wanted.add(channel);
          send(channel);
        };
      if (key === "unsubscribe")
        return (channel: string) => {
          wanted.delete(channel);
          retry.delete(channel);
          target.unsubscribe(channel).catch(() => {});
        };
      const value = Reflect.get(target, key, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const publishClient = new Proxy(publish, {
    get(target, key, receiver) {
      if (key === "publish") return (channel: string, message: string) => target.publish(channel, message).catch(() => 0);
      const value = Reflect.get(target, key, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { publishClient, subscribeClient };
}

export function createRedisClients(url: string): RedisClients {
  const options = { lazyConnect: false, maxRetriesPerRequest: 2, enableOfflineQueue: true } as const;
  const publish = new Redis(url, options);
  const subscribe = new Redis(url, options);
  // Errors surface through health checks and failed publishes; don't crash on reconnect noise.
  publish.on("error", () => {});
  subscribe.on("error", () => {});
  const eventTargetClients = safeForEventTarget(publish, subscribe);
  return {
    publish,
    subscribe,
    forEventTarget: () => eventTargetClients,
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
