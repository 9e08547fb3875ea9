// Rate limits per address and per account on login, upload and query operations (every way in runs one: /graphql,
// REST, /mcp, the web pages), counted in Redis when REDIS_URL is set so every instance shares them, in memory otherwise.
import { type DocumentNode, Kind, type OperationDefinitionNode, type ValueNode } from "graphql";
import { createGraphQLError, type Plugin } from "graphql-yoga";
import type { Redis } from "ioredis";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
import type { Config } from "../config/config.ts";
import type { GatewayContext } from "./context.ts";

export type RateClass = "login" | "upload" | "query";

/** Root fields that take credentials, and those that take file data; every other operation is a query. */
const LOGIN_FIELDS = new Set(["login", "signIn", "exchangePersonalKey", "redeemSingleUseLink", "completeSsoLogin", "collectSsoToken"]);
const UPLOAD_FIELDS = new Set(["uploadFileData", "uploadDatasetTable"]);

export type RateLimitDenial = { rateClass: RateClass; per: "address" | "account"; retryAfterSeconds: number; limit: number };

type Limiter = { consume(key: string): Promise<unknown> };

function createLimiter(name: string, points: number, duration: number, redis: Redis | undefined): Limiter | undefined {
  if (points <= 0) return undefined;
  const memory = new RateLimiterMemory({ keyPrefix: `rl:${name}`, points, duration });
  if (!redis) return memory;
  // While Redis is away each instance counts on its own (the insurance limiter) instead of failing the request.
  return new RateLimiterRedis({ storeClient: redis, keyPrefix: `rl:${name}`, points, duration, insuranceLimiter: memory });
}

export type RateLimits = ReturnType<typeof createRateLimits>;

export function createRateLimits(config: Config["rateLimits"], redis?: Redis) {
  const limiters = new Map<string, Limiter | undefined>();
  for (const rateClass of ["login", "upload", "query"] as const) {
    for (const per of ["address", "account"] as const) {
      const points = per === "address" ? config[rateClass].perAddress : config[rateClass].perAccount;
      limiters.set(`${rateClass}:${per}`, createLimiter(`${rateClass}:${per}`, points, config.windowSeconds, redis));
    }
  }

  async function take(rateClass: RateClass, per: "address" | "account", key: string): Promise<RateLimitDenial | undefined> {
    const limiter = limiters.get(`${rateClass}:${per}`);
    if (!limiter) return undefined;
    try {
      await limiter.consume(key);
      return undefined;
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) return undefined; // the store failed and had no fallback: let it pass
      const limit = per === "address" ? config[rateClass].perAddress : config[rateClass].perAccount;
      return { rateClass, per, limit, retryAfterSeconds: Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)) };
    }
  }

  /** Counts one operation of `rateClass` for the address and (when known) the account; the first limit passed, if any. */
  async function consume(rateClass: RateClass, address: string, account: string | undefined): Promise<RateLimitDenial | undefined> {
    const [byAddress, byAccount] = await Promise.all([
      take(rateClass, "address", address),
      account === undefined ? undefined : take(rateClass, "account", account),
    ]);
    return byAddress ?? byAccount;
  }

  return { consume };
}

function operationOf(document: DocumentNode, name: string | null | undefined): OperationDefinitionNode | undefined {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return name ? operations.find((op) => op.name?.value === name) : operations[0];
}

function stringArgument(value: ValueNode | undefined, variables: Record<string, unknown>): string | undefined {
  if (value?.kind === Kind.STRING) return value.value;
  if (value?.kind === Kind.VARIABLE) {
    const found = variables[value.name.value];
    return typeof found === "string" ? found : undefined;
  }
  return undefined;
}

/** The operation's class, and for a login the username it names (its account, whether it exists or not). */
export function classify(
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown>,
): { rateClass: RateClass; username?: string } {
  const operation = operationOf(document, operationName);
  if (operation?.operation !== "mutation") return { rateClass: "query" };
  for (const selection of operation.selectionSet.selections) {
    if (selection.kind !== Kind.FIELD) continue;
    if (LOGIN_FIELDS.has(selection.name.value)) {
      const argument = selection.arguments?.find((a) => a.name.value === "username");
      const username = stringArgument(argument?.value, variables);
      return username === undefined ? { rateClass: "login" } : { rateClass: "login", username };
    }
    if (UPLOAD_FIELDS.has(selection.name.value)) return { rateClass: "upload" };
  }
  return { rateClass: "query" };
}

export function rateLimitedError(denial: RateLimitDenial) {
  const message = `too many ${denial.rateClass} requests from this ${denial.per} (limit ${denial.limit} per window); retry in ${denial.retryAfterSeconds} s`;
  return createGraphQLError(message, {
    extensions: {
      code: "RATE_LIMITED",
      http: { status: 429, headers: { "retry-after": String(denial.retryAfterSeconds) } },
      details: { retryAfterSeconds: denial.retryAfterSeconds, per: denial.per, class: denial.rateClass, limit: denial.limit },
    },
  });
}

/** The viewer's account, or none for an anonymous caller or a credential that does not authenticate. */
async function accountOf(context: GatewayContext): Promise<string | undefined> {
  try {
    const viewer = await context.viewer();
    return viewer ? `user:${viewer.userId}` : undefined;
  } catch {
    return undefined;
  }
}

/** Counts each operation before it runs; past a limit it answers RATE_LIMITED (429, Retry-After) instead. */
export function useRateLimits(limits: RateLimits): Plugin {
  async function check(
    args: { document: DocumentNode; operationName?: string | null; variableValues?: unknown; contextValue: unknown },
    stop: (result: { errors: ReturnType<typeof rateLimitedError>[] }) => void,
  ): Promise<void> {
    const context = args.contextValue as GatewayContext;
    const variables = (args.variableValues ?? {}) as Record<string, unknown>;
    const { rateClass, username } = classify(args.document, args.operationName, variables);
    const account =
      rateClass === "login" ? (username === undefined ? undefined : `name:${username.toLowerCase()}`) : await accountOf(context);
    const denied = await limits.consume(rateClass, context.clientAddress, account);
    if (denied) stop({ errors: [rateLimitedError(denied)] });
  }
  return {
    onExecute: ({ args, setResultAndStopExecution }) => check(args, setResultAndStopExecution),
    onSubscribe: ({ args, setResultAndStopExecution }) => check(args, setResultAndStopExecution),
  };
}
