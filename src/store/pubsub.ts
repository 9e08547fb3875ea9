// Pub/sub for GraphQL subscriptions: in-process, or fanned out through Redis across instances.
import { createRedisEventTarget } from "@graphql-yoga/redis-event-target";
import { createPubSub } from "graphql-yoga";
import type { KeyEvent } from "../accounts/personal-keys.ts";
import type { VizSessionEvent } from "../sessions/viz-sessions.ts";
import type { RedisClients } from "./redis.ts";

export type PubSubChannels = {
  /** Personal key changes of one user, keyed by user id. */
  "personalKeys:changed": [userId: number, event: KeyEvent];
  /** A live session's state moved on, keyed by session id. */
  "vizSession:changed": [sessionId: string, event: VizSessionEvent];
  /** A user was logged out by an administrator: every instance forgets what it cached about them. */
  "users:loggedOut": [event: { userId: number; nonce: string }];
};

export type PubSub = ReturnType<typeof createPubSub<PubSubChannels>>;

export function createGatewayPubSub(redis: RedisClients | undefined): PubSub {
  if (!redis) return createPubSub<PubSubChannels>();
  return createPubSub<PubSubChannels>({
    eventTarget: createRedisEventTarget(redis.forEventTarget()),
  });
}
