// REST error mapping: one body shape for every route, status from the error code.
import { APP_ERROR_CODES, type AppErrorCode, isAppErrorCode } from "../../src/errors/app-error.ts";

/**
 * Every REST error answers with this body. `detail` and `non_field_errors` repeat the message in
 * the shapes Django REST Framework clients (pygraphistry) already read.
 */
export type RestErrorBody = {
  success: false;
  error: { code: AppErrorCode; message: string; details?: Record<string, unknown> };
  detail: string;
  non_field_errors: string[];
};

export class RestError extends Error {
  readonly code: AppErrorCode;
  readonly details: Record<string, unknown> | undefined;
  constructor(code: AppErrorCode, message: string, details?: Record<string, unknown>) {
    super(message);
    this.code = code;
    this.details = details;
  }
}

/**
 * The error answer: this status and headers for every route; the body above, or the one a route gives its clients
 * (`shape`, see RestRoute.errorBody).
 */
export function errorResponse(
  code: AppErrorCode,
  message: string,
  details?: Record<string, unknown>,
  shape?: (error: { code: AppErrorCode; message: string; details?: Record<string, unknown> }) => unknown,
): Response {
  const error = { code, message, ...(details ? { details } : {}) };
  const shaped = shape?.(error);
  const body = shaped ?? ({ success: false, error, detail: message, non_field_errors: [message] } satisfies RestErrorBody);
  const headers = new Headers({ "content-type": "application/json; charset=utf-8" });
  if (APP_ERROR_CODES[code] === 401) headers.set("www-authenticate", 'Bearer realm="api"');
  const retry = details?.retryAfterSeconds;
  if (typeof retry === "number") headers.set("retry-after", String(retry));
  return new Response(JSON.stringify(body), { status: APP_ERROR_CODES[code], headers });
}

/** The first GraphQL error of a result as a REST error (unknown codes count as internal). */
export function fromGraphQLErrors(errors: readonly { message: string; extensions?: Record<string, unknown> }[]): RestError {
  const first = errors[0];
  const code = first?.extensions?.code;
  const details = first?.extensions?.details as Record<string, unknown> | undefined;
  if (isAppErrorCode(code)) return new RestError(code, first?.message ?? "error", details);
  return new RestError("INTERNAL", "Unexpected error.");
}
