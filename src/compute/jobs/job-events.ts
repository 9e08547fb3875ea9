// The compute jobs' own pub/sub channel (a job's status and progress), in process or fanned out through Redis so
// that a worker on another machine reaches the gateway holding the subscription.
import { createRedisEventTarget } from "@graphql-yoga/redis-event-target";
import { createPubSub } from "graphql-yoga";
import type { RedisClients } from "../../store/redis.ts";
import type { JobStatus } from "./job-records.ts";

/** One change of a job: its status, the progress it reported last, and what it ended with. */
export type JobEvent = {
  jobId: string;
  status: JobStatus;
  cancelRequested: boolean;
  phase: string | null;
  iteration: number | null;
  fraction: number | null;
  errorCode: string | null;
  error: string | null;
  dataVersion: string | null;
};

export type JobChannels = {
  /** A job's changes, keyed by job id. */
  "computeJob:changed": [jobId: string, event: JobEvent];
  /** A job stored a new version of a dataset's tables: every gateway forgets its cached row. */
  "computeJob:datasetChanged": [event: { datasetId: string }];
};

export type JobEvents = ReturnType<typeof createPubSub<JobChannels>>;

/** Shares the gateway's Redis connections: its topics differ from the gateway pub/sub's, so neither sees the other's. */
export function createJobEvents(redis: RedisClients | undefined): JobEvents {
  if (!redis) return createPubSub<JobChannels>();
  return createPubSub<JobChannels>({
    eventTarget: createRedisEventTarget(redis.forEventTarget()),
  });
}
