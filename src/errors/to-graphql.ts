// Maps AppError onto GraphQL errors (extensions.code, extensions.http.status) and masks the rest.
import { GraphQLError } from "graphql";
import { createGraphQLError, maskError as defaultMask } from "graphql-yoga";
import type { Logger } from "../server/logger.ts";
import { APP_ERROR_CODES, isAppError } from "./app-error.ts";

declare module "graphql" {
  interface GraphQLErrorExtensions {
    code?: string;
    details?: Record<string, unknown>;
  }
}

function findAppError(error: unknown) {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined; depth += 1) {
    if (isAppError(current)) return current;
    current = current instanceof GraphQLError ? current.originalError : (current as { cause?: unknown })?.cause;
  }
  return undefined;
}

/** yoga's maskedErrors.maskError: known failures keep code and status; anything else is "Unexpected error." */
export function createErrorMasker(logger: Logger) {
  return (error: unknown, message: string, isDev?: boolean): Error => {
    const app = findAppError(error);
    if (app) {
      const original = error instanceof GraphQLError ? error : undefined;
      return createGraphQLError(app.message, {
        ...(original?.nodes ? { nodes: original.nodes } : {}),
        ...(original?.path ? { path: original.path } : {}),
        extensions: {
          code: app.code,
          http: { status: APP_ERROR_CODES[app.code] },
          ...(app.details ? { details: app.details } : {}),
        },
      });
    }
    if (error instanceof GraphQLError && error.originalError === undefined) {
      // Validation and syntax errors from graphql-js are the caller's fault, not ours.
      if (!error.extensions.code) {
        return createGraphQLError(error.message, {
          ...(error.nodes ? { nodes: error.nodes } : {}),
          extensions: { ...error.extensions, code: "INVALID_INPUT" },
        });
      }
      return error;
    }
    logger.error("unexpected error", { error: error instanceof Error ? error.stack : String(error) });
    const masked = defaultMask(error, message, isDev) as GraphQLError;
    return createGraphQLError(masked.message, {
      ...(masked.path ? { path: masked.path } : {}),
      extensions: { ...masked.extensions, code: "INTERNAL", http: { status: 500 } },
    });
  };
}
