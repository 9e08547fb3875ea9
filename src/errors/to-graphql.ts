// Maps AppError onto GraphQL errors (extensions.code, extensions.http.status) and masks the rest.
import type { GraphQLError } from "graphql";
import { createGraphQLError, maskError as defaultMask } from "graphql-yoga";
import type { Logger } from "../server/logger.ts";
import { APP_ERROR_CODES, isAppError } from "./app-error.ts";
import { asDatabaseUnavailable } from "./unavailable.ts";

declare module "graphql" {
  interface GraphQLErrorExtensions {
    code?: string;
    details?: Record<string, unknown>;
  }
}

/** By name, not instanceof: graphql may be loaded twice (ESM and CommonJS) in one process. */
function asGraphQLError(error: unknown): GraphQLError | undefined {
  return error instanceof Error && error.name === "GraphQLError" ? (error as GraphQLError) : undefined;
}

function findAppError(error: unknown) {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current !== undefined && current !== null; depth += 1) {
    if (isAppError(current)) return current;
    current = asGraphQLError(current)?.originalError ?? (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * graphql-js' coercion of a variable's value (`Variable "$x" got invalid value ...`): the caller sent a value of the
 * wrong type. Its originalError is the scalar's own complaint, so it is not told apart by that.
 */
function isVariableValueError(error: GraphQLError): boolean {
  return error.path === undefined && error.message.startsWith('Variable "$');
}

/** yoga's maskedErrors.maskError: known failures keep code and status; anything else is "Unexpected error." */
export function createErrorMasker(logger: Logger) {
  return (error: unknown, message: string, isDev?: boolean): Error => {
    // A database outage is a 503 to retry, not an unexpected failure.
    const app = findAppError(error) ?? asDatabaseUnavailable(error);
    if (app) {
      const original = asGraphQLError(error);
      const retry = app.details?.retryAfterSeconds;
      return createGraphQLError(app.message, {
        ...(original?.nodes ? { nodes: original.nodes } : {}),
        ...(original?.path ? { path: original.path } : {}),
        extensions: {
          code: app.code,
          http: { status: APP_ERROR_CODES[app.code], ...(typeof retry === "number" ? { headers: { "retry-after": String(retry) } } : {}) },
          ...(app.details ? { details: app.details } : {}),
        },
      });
    }
    const graphqlError = asGraphQLError(error);
    if (graphqlError && graphqlError.originalError === undefined) {
      // Validation and syntax errors from graphql-js are the caller's fault, not ours.
      if (!graphqlError.extensions.code) {
        return createGraphQLError(graphqlError.message, {
          ...(graphqlError.nodes ? { nodes: graphqlError.nodes } : {}),
          extensions: { ...graphqlError.extensions, code: "INVALID_INPUT" },
        });
      }
      return graphqlError;
    }
    if (graphqlError && isVariableValueError(graphqlError)) {
      return createGraphQLError(graphqlError.message, {
        ...(graphqlError.nodes ? { nodes: graphqlError.nodes } : {}),
        extensions: { code: "INVALID_INPUT", http: { status: 400 } },
      });
    }
    logger.error("unexpected error", { error: error instanceof Error ? error.stack : String(error) });
    const masked = defaultMask(error, message, isDev) as GraphQLError;
    return createGraphQLError(masked.message, {
      ...(masked.path ? { path: masked.path } : {}),
      extensions: { ...masked.extensions, code: "INTERNAL", http: { status: 500 } },
    });
  };
}
