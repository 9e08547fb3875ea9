// Live layouts across gateway instances (REDIS_URL): frames published as binary messages on one channel per
// session (received with ioredis' messageBuffer, only by instances with pages of that session), and control
// messages (a command for the instance running a job, its answer, a late viewer's request for the latest frame) on
// one JSON channel. A connection of its own subscribes: the GraphQL event target's subscriber parses every message
// it gets as JSON. Frames of a session no other instance watches (PUBLISH reached nobody else) are not published
// again for a second, so a large layout that only local pages watch does not stream through Redis; a late page on
// another instance asks for the latest frame, which is always published.
import type { Redis } from "ioredis";
import { type RedisClients, SUBSCRIBER_OPTIONS } from "../store/redis.ts";

const FRAME_PREFIX = "layout:frame:";
const CONTROL = "layout:control";
/** Frames carry their sender's id first (fixed width), so an instance skips its own. */
const ORIGIN_BYTES = 32;
/** How long frames nobody else received are not published again. */
const QUIET_MS = 1_000;

export type LayoutCommandAction = "PAUSE" | "RESUME" | "SET_PARAMS" | "STOP";

export type ControlMessage =
  | { kind: "command"; to: string; from: string; requestId: string; sessionId: string; action: LayoutCommandAction; params?: unknown }
  | { kind: "reply"; to: string; requestId: string; error?: { code: string; message: string; field?: string | undefined } }
  | { kind: "latest"; sessionId: string };

export type LayoutBus = {
  /** `always`: publish even while no other instance seemed to watch (the answer to a late page's request). */
  publishFrame(sessionId: string, bytes: Uint8Array, always?: boolean): void;
  /** Receive other instances' frames of this session (counted: the last unwatch unsubscribes). */
  watch(sessionId: string): void;
  unwatch(sessionId: string): void;
  /** Resolves once this instance's subscription to the session's frames stands (or failed). */
  watching(sessionId: string): Promise<void>;
  send(message: ControlMessage): void;
  close(): Promise<void>;
};

export type LayoutBusHandlers = {
  onFrame(sessionId: string, bytes: Uint8Array): void;
  onControl(message: ControlMessage): void;
};

function originOf(instanceId: string): Buffer {
  const origin = Buffer.alloc(ORIGIN_BYTES);
  origin.write(instanceId.slice(0, ORIGIN_BYTES), "latin1");
  return origin;
}

export function createLayoutBus(redis: RedisClients, instanceId: string, handlers: LayoutBusHandlers): LayoutBus {
  const publisher: Redis = redis.publish;
  // Frames (up to megabytes each) go on a connection of their own, so GraphQL events and control messages never
  // wait behind them.
  const framePublisher: Redis = redis.publish.duplicate();
  const subscriber: Redis = redis.publish.duplicate(SUBSCRIBER_OPTIONS);
  framePublisher.on("error", () => {});
  subscriber.on("error", () => {});
  const origin = originOf(instanceId);
  const watched = new Map<string, number>();
  const subscribed = new Map<string, Promise<void>>();
  /** Sessions whose last published frame reached no other instance, until when publishing pauses. */
  const quietUntil = new Map<string, number>();
  // After a reconnect ioredis subscribes again to the channels it had; one whose SUBSCRIBE failed (Redis away at the
  // time) it never had, so it is sent again here once the connection is back.
  const failed = new Set<string>();
  const subscribeTo = (channel: string): Promise<void> =>
    subscriber.subscribe(channel).then(
      () => {},
      () => {
        if (channel === CONTROL || watched.has(channel.slice(FRAME_PREFIX.length))) failed.add(channel);
      },
    );
  subscriber.on("ready", () => {
    const again = [...failed];
    failed.clear();
    for (const channel of again) void subscribeTo(channel);
  });
  void subscribeTo(CONTROL);

  subscriber.on("messageBuffer", (channelBytes: Buffer, message: Buffer) => {
    const channel = channelBytes.toString("latin1");
    if (channel === CONTROL) {
      try {
        handlers.onControl(JSON.parse(message.toString("utf8")) as ControlMessage);
      } catch {
        // not ours
      }
      return;
    }
    if (!channel.startsWith(FRAME_PREFIX) || message.byteLength < ORIGIN_BYTES) return;
    if (message.subarray(0, ORIGIN_BYTES).equals(origin)) return;
    handlers.onFrame(channel.slice(FRAME_PREFIX.length), message.subarray(ORIGIN_BYTES));
  });

  return {
    publishFrame(sessionId, bytes, always = false) {
      if (!always && Date.now() < (quietUntil.get(sessionId) ?? 0)) return;
      const message = Buffer.concat([origin, bytes]);
      framePublisher.publish(FRAME_PREFIX + sessionId, message).then(
        (receivers) => {
          // This instance's own subscriber counts when its pages watch the session.
          const others = receivers - (watched.has(sessionId) ? 1 : 0);
          if (others > 0) quietUntil.delete(sessionId);
          else quietUntil.set(sessionId, Date.now() + QUIET_MS);
        },
        () => {},
      );
    },
    watch(sessionId) {
      const count = watched.get(sessionId) ?? 0;
      watched.set(sessionId, count + 1);
      if (count === 0) subscribed.set(sessionId, subscribeTo(FRAME_PREFIX + sessionId));
    },
    unwatch(sessionId) {
      const count = (watched.get(sessionId) ?? 1) - 1;
      if (count > 0) {
        watched.set(sessionId, count);
        return;
      }
      watched.delete(sessionId);
      subscribed.delete(sessionId);
      failed.delete(FRAME_PREFIX + sessionId);
      void subscriber.unsubscribe(FRAME_PREFIX + sessionId).catch(() => {});
    },
    watching: (sessionId) => subscribed.get(sessionId) ?? Promise.resolve(),
    send(message) {
      publisher.publish(CONTROL, JSON.stringify(message)).catch(() => {});
    },
    async close() {
      await Promise.allSettled([subscriber.quit(), framePublisher.quit()]);
    },
  };
}
