// The tool endpoint's transport and authorization failures (spec 7): HTTP status and JSON-RPC code, side by side.
import { DATABASE_RETRY_AFTER_SECONDS } from "../../src/errors/unavailable.ts";

export const MCP_FAILURES = {
  PARSE_ERROR: { status: 400, code: -32700 },
  MISSING_SESSION_HEADER: { status: 400, code: -32000 },
  INVALID_PARAMS: { status: 400, code: -32602 },
  UNAUTHENTICATED: { status: 401, code: -32001 },
  FORBIDDEN: { status: 403, code: -32002 },
  ASSISTANT_DISABLED: { status: 403, code: -32003 },
  UNKNOWN_SESSION: { status: 404, code: -32000 },
  OWNER_UNAVAILABLE: { status: 410, code: -32004 },
  INTERNAL: { status: 500, code: -32603 },
  UNAVAILABLE: { status: 503, code: -32006 },
  TIMEOUT: { status: 504, code: -32005 },
  /** Not in spec 7: the caller passed a rate limit (RATE_LIMIT_*); Retry-After says when to come back. */
  RATE_LIMITED: { status: 429, code: -32007 },
  /** Not an HTTP failure: the JSON-RPC error travels in an ordinary 200 answer. */
  METHOD_NOT_FOUND: { status: 200, code: -32601 },
} as const;

export type McpFailureKind = keyof typeof MCP_FAILURES;

export type JsonRpcId = string | number | null;

/** The RATE_LIMITED failure of an operation's error, when it is one. */
export function rateLimitFailure(error: { message: string; extensions?: Record<string, unknown> } | undefined): McpFailure | undefined {
  if (error?.extensions?.code !== "RATE_LIMITED") return undefined;
  const retry = (error.extensions.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
  return new McpFailure("RATE_LIMITED", error.message, typeof retry === "number" ? retry : undefined);
}

/** A failure answered at the HTTP level, with the status and code of spec 7. */
export class McpFailure extends Error {
  override name = "McpFailure";
  readonly kind: McpFailureKind;
  readonly retryAfterSeconds: number | undefined;
  constructor(kind: McpFailureKind, message: string, retryAfterSeconds?: number) {
    super(message);
    this.kind = kind;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

export const WWW_AUTHENTICATE =
  'Bearer realm="mcp", error="invalid_token", error_description="send Authorization: Bearer <KEY_ID>:<KEY> or Bearer <JWT>"';

export function failureResponse(failure: McpFailure, id: JsonRpcId = null): Response {
  const { status, code } = MCP_FAILURES[failure.kind];
  const headers = new Headers({ "content-type": "application/json" });
  if (failure.kind === "UNAUTHENTICATED") headers.set("www-authenticate", WWW_AUTHENTICATE);
  if (failure.kind === "UNAVAILABLE") headers.set("retry-after", String(failure.retryAfterSeconds ?? DATABASE_RETRY_AFTER_SECONDS));
  if (failure.kind === "RATE_LIMITED") headers.set("retry-after", String(failure.retryAfterSeconds ?? 1));
  const body = { jsonrpc: "2.0", id, error: { code, message: failure.message } };
  return new Response(JSON.stringify(body), { status, headers });
}

export type JsonRpcRequest = { jsonrpc: "2.0"; id?: JsonRpcId; method: string; params?: Record<string, unknown> };

/** A JSON-RPC 2.0 message: a request or notification (method), or a response (result or error). */
export function isJsonRpcMessage(value: unknown): value is JsonRpcRequest | { jsonrpc: "2.0"; id: JsonRpcId } {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return false;
  const message = value as Record<string, unknown>;
  if (message.jsonrpc !== "2.0") return false;
  if (typeof message.method === "string")
    return message.params === undefined || (typeof message.params === "object" && message.params !== null);
  return "result" in message || "error" in message;
}
