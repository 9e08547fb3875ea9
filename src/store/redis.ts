// Redis connections (commands and subscriber) when REDIS_URL is set, made safe for a Redis that goes away.
import { Redis, type RedisOptions } from "ioredis";
import { AppError } from "../errors/app-error.ts";

/** Seconds a caller is told to wait before retrying while Redis is away (Retry-After). */
export const REDIS_RETRY_AFTER_SECONDS = 2;

/** The longest one command may take before it fails: a Redis that stopped answering never holds a request longer. */
export const REDIS_COMMAND_TIMEOUT_MS = 2_000;

/** How long a command waits for the first connection at start-up (later, while Redis is away, it fails at once). */
const FIRST_CONNECT_WAIT_MS = REDIS_COMMAND_TIMEOUT_MS;

/** How long recovery listeners wait for the command connection once the subscriber's is back. */
const RECOVERY_WAIT_MS = 10_000;

/** Reconnect attempts come every 50 ms, 100 ms, ... up to this, for as long as Redis is away. */
const MAX_RECONNECT_DELAY_MS = 1_000;

/** The UNAVAILABLE error (503, Retry-After) of something that needs Redis while Redis is away. */
export function redisUnavailable(cause?: unknown): AppError {
  return new AppError("UNAVAILABLE", "Redis is unavailable; retry shortly", {
    details: { component: "redis", retryAfterSeconds: REDIS_RETRY_AFTER_SECONDS },
    ...(cause === undefined ? {} : { cause }),
  });
}

export type RedisClients = {
  /**
   * The command connection. Its commands fail at once with UNAVAILABLE while Redis is away (after it was reached
   * once), and within REDIS_COMMAND_TIMEOUT_MS otherwise; ioredis' own failures come back as UNAVAILABLE too.
   */
  publish: Redis;
  subscribe: Redis;
  /** The clients as @graphql-yoga/redis-event-target uses them, made safe while Redis is away (below). */
  forEventTarget(): { publishClient: Redis; subscribeClient: Redis };
  /** Whether both connections are up now. */
  available(): boolean;
  /**
   * Calls `listener` each time the subscriber connection is (back) up, once its channels are subscribed again and
   * the command connection is up too: events published meanwhile were lost, and a Redis that restarted may have lost
   * its data, so subscribers catch up and stores write back then. Answers how to stop listening.
   */
  onRecovered(listener: () => void): () => void;
  ping(timeoutMs: number): Promise<void>;
  close(): Promise<void>;
};

/**
 * redis-event-target neither awaits nor catches its SUBSCRIBE and PUBLISH commands: with Redis unreachable each
 * would reject unhandled, which ends a Node process. Here a failed PUBLISH is dropped (subscribers catch up through
 * onRecovered), and a failed SUBSCRIBE is sent again once the connection is back, so the channel is not lost for good.
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

/** Resolves true once `client` is ready, false after `ms`. */
function readyWithin(client: Redis, ms: number): Promise<boolean> {
  if (client.status === "ready") return Promise.resolve(true);
  return new Promise((resolve) => {
    const onReady = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      client.off("ready", onReady);
      resolve(false);
    }, ms);
    client.once("ready", onReady);
  });
}

/**
 * The command connection as callers see it: each Redis command (not the connection's own methods) first checks the
 * connection. While Redis is away after it was reached once, the command fails at once (UNAVAILABLE) instead of
 * waiting in ioredis' offline queue; at start-up it waits up to FIRST_CONNECT_WAIT_MS for the first connection.
 */
function failFast(client: Redis): Redis {
  // QUIT closes the connection whatever its state; MULTI answers a pipeline at once (its EXEC is bounded by
  // commandTimeout).
  const commands = new Set(client.getBuiltinCommands().filter((name) => name !== "quit" && name !== "multi"));
  let reached = false;
  client.on("ready", () => {
    reached = true;
  });
  const guard = async (run: () => Promise<unknown>) => {
    if (client.status !== "ready" && (reached || !(await readyWithin(client, FIRST_CONNECT_WAIT_MS)))) throw redisUnavailable();
    try {
      return await run();
    } catch (error) {
      // A Redis error reply (wrong type, script error) is the caller's to handle; a connection failure is an outage.
      if (error instanceof Error && error.name === "ReplyError") throw error;
      throw redisUnavailable(error);
    }
  };
  // Commands the guard does not see (scripts from defineCommand, MULTI's EXEC, pipelines) must not wait either: once
  // connected, ioredis' offline queue is off, so they fail at once while Redis is away.
  client.once("ready", () => {
    client.options.enableOfflineQueue = false;
  });
  return new Proxy(client, {
    get(target, key, receiver) {
      // A duplicate connects afresh: its commands wait for its first connection, as this one's did.
      if (key === "duplicate") return (override?: Partial<RedisOptions>) => target.duplicate({ enableOfflineQueue: true, ...override });
      const value = Reflect.get(target, key, receiver);
      if (typeof value !== "function") return value;
      if (typeof key === "string" && commands.has(key)) {
        return (...args: unknown[]) => guard(() => (value as (...a: unknown[]) => Promise<unknown>).apply(target, args));
      }
      return value.bind(target);
    },
  });
}

/**
 * Options for a connection that only subscribes. ioredis (5.11) writes a SUBSCRIBE at once while the connection is
 * still in its handshake (SUBSCRIBE may run while Redis loads), and then fails its own ready check (INFO is no
 * subscriber command): it reconnects, and the reconnected connection is subscribed to nothing, so the channel is
 * lost without a word. Under load a subscription made as the gateway starts meets that handshake (CI saw a forced
 * logout never reach the second instance). Without the ready check there is no INFO to fail.
 */
export const SUBSCRIBER_OPTIONS = { enableReadyCheck: false } as const satisfies RedisOptions;

/** Where the connection's ups and downs are told (one line when Redis goes away, one when it is back). */
export type RedisLog = {
  warn(message: string, fields?: Record<string, unknown>): void;
  info(message: string, fields?: Record<string, unknown>): void;
};

/** Logs once when the connection is lost after it was up, and once when it is back. */
function logOutages(client: Redis, log: RedisLog): void {
  let up = false;
  let lastError = "";
  client.on("error", (error: Error) => {
    lastError = error.message;
  });
  client.on("ready", () => {
    if (!up && lastError) log.info("redis is back");
    up = true;
  });
  client.on("close", () => {
    if (!up) return;
    up = false;
    // the error (if any) that closed the connection comes just before "close"
    setImmediate(() =>
      log.warn("redis unreachable: what needs it answers 503 until it is back", { error: lastError || "connection closed" }),
    );
  });
}

export function createRedisClients(url: string, log?: RedisLog): RedisClients {
  const options: RedisOptions = {
    lazyConnect: false,
    // Commands queued while a connection is re-made fail at the first failed attempt (then UNAVAILABLE).
    maxRetriesPerRequest: 1,
    enableOfflineQueue: true,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    retryStrategy: (times) => Math.min(times * 50, MAX_RECONNECT_DELAY_MS),
  };
  const publish = new Redis(url, options);
  const subscribe = new Redis(url, { ...options, ...SUBSCRIBER_OPTIONS });
  // Errors surface through health checks, 503s and failed publishes; reconnect noise must not end the process.
  publish.on("error", () => {});
  subscribe.on("error", () => {});
  if (log) logOutages(publish, log);
  const eventTargetClients = safeForEventTarget(publish, subscribe);
  /** The connections that were up at least once. */
  const reached = new Set<Redis>();
  for (const client of [publish, subscribe]) client.on("ready", () => reached.add(client));

  const recovered = new Set<() => void>();
  subscribe.on("ready", () => {
    void (async () => {
      // ioredis has sent SUBSCRIBE for its channels before "ready": a PING answered after them means they stand.
      await subscribe.ping().catch(() => {});
      // Listeners may write through the command connection, which reconnects on its own schedule.
      await readyWithin(publish, RECOVERY_WAIT_MS);
      for (const listener of recovered) {
        try {
          listener();
        } catch {
          // one listener's failure is its own
        }
      }
    })();
  });

  return {
    publish: failFast(publish),
    subscribe,
    forEventTarget: () => eventTargetClients,
    available: () => publish.status === "ready" && subscribe.status === "ready",
    onRecovered(listener) {
      recovered.add(listener);
      return () => recovered.delete(listener);
    },
    async ping(timeoutMs) {
      // While reconnecting, say so at once; before the first connection, give it the time allowed.
      if (publish.status !== "ready" && (reached.has(publish) || !(await readyWithin(publish, timeoutMs)))) {
        throw new Error(`unreachable (connection ${publish.status})`);
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        await Promise.race([
          publish.ping().catch((error: unknown) => {
            // The connection went away between the status check and the ping (its offline queue is off once up).
            throw new Error(`unreachable (${error instanceof Error ? error.message : String(error)})`);
          }),
          timeout,
        ]);
      } finally {
        clearTimeout(timer);
      }
      if (subscribe.status !== "ready" && (reached.has(subscribe) || !(await readyWithin(subscribe, timeoutMs)))) {
        throw new Error(`subscriber connection ${subscribe.status}`);
      }
    },
    async close() {
      await Promise.allSettled([publish.quit(), subscribe.quit()]);
    },
  };
}
