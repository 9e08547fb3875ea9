// The one error type services throw for expected failures, with a closed set of string codes.

export const APP_ERROR_CODES = {
  INVALID_INPUT: 400,
  UNAUTHENTICATED: 401,
  TOKEN_EXPIRED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  PARSE_FAILED: 422,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  TIMEOUT: 504,
} as const;

export type AppErrorCode = keyof typeof APP_ERROR_CODES;

export type AppErrorOptions = {
  /** Extra machine-readable facts (field name, retry delay, failing component). */
  details?: Record<string, unknown>;
  cause?: unknown;
};

export class AppError extends Error {
  override name = "AppError";
  readonly code: AppErrorCode;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: AppErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details;
  }

  get status(): number {
    return APP_ERROR_CODES[this.code];
  }
}

export function isAppError(value: unknown): value is AppError {
  return value instanceof AppError;
}

export function isAppErrorCode(value: unknown): value is AppErrorCode {
  return typeof value === "string" && Object.hasOwn(APP_ERROR_CODES, value);
}

/** Result of a pure validator: data, never an exception. */
export type Validated<T> = { ok: true; value: T } | { ok: false; code: AppErrorCode; message: string };
