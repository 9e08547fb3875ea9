// The GraphQL document limits (graphql-armor: depth, aliases, tokens, directives, cost), the nesting limit of variable
// values, and field suggestions ("Did you mean ...?") withheld from callers who are not signed in.
import { EnvelopArmorPlugin } from "@escape.tech/graphql-armor";
import type { ValidationContext } from "graphql";
import { createGraphQLError, type Plugin } from "graphql-yoga";
import { sessionTokenFrom } from "../auth/browser-sessions.ts";
import type { Config } from "../config/config.ts";
import { jsonDepthBeyond } from "../http/json-depth.ts";
import type { Services } from "./services.ts";

type Limits = Config["graphqlLimits"];

/** A rejected document is reported as a validation error (HTTP 400, INVALID_INPUT) naming the limit. */
function rejection(limit: string) {
  return {
    propagateOnRejection: false,
    onReject: [
      (context: ValidationContext | null, error: Error) =>
        context?.reportError(
          createGraphQLError(error.message.replace(/^Syntax Error: /, ""), {
            extensions: { code: "INVALID_INPUT", http: { status: 400 }, details: { limit } },
          }),
        ),
    ],
  };
}

/** The graphql-armor plugin with this service's limits (its field-suggestion blocker is replaced by the one below). */
export function useDocumentLimits(limits: Limits) {
  return EnvelopArmorPlugin({
    maxDepth: { n: limits.depth, ignoreIntrospection: true, flattenFragments: true, ...rejection("GRAPHQL_MAX_DEPTH") },
    maxAliases: { n: limits.aliases, allowList: [], ...rejection("GRAPHQL_MAX_ALIASES") },
    maxDirectives: { n: limits.directives, ...rejection("GRAPHQL_MAX_DIRECTIVES") },
    costLimit: { maxCost: limits.cost, ignoreIntrospection: true, ...rejection("GRAPHQL_MAX_COST") },
    maxTokens: { n: limits.tokens },
    blockFieldSuggestion: { enabled: false },
  });
}

function variableDepthError(max: number) {
  return createGraphQLError(`variable values nest deeper than ${max} levels (GRAPHQL_MAX_VARIABLE_DEPTH)`, {
    extensions: { code: "INVALID_INPUT", http: { status: 400 }, details: { limit: "GRAPHQL_MAX_VARIABLE_DEPTH", max } },
  });
}

/** Variable values nested past the limit are refused before graphql-js coerces them (its coercion recurses). */
export function useVariableDepthLimit(maxDepth: number): Plugin {
  // The variables object itself is one level: its values may nest maxDepth more.
  const tooDeep = (variables: unknown) => jsonDepthBeyond(variables, maxDepth + 1) !== undefined;
  return {
    onExecute({ args, setResultAndStopExecution }) {
      if (tooDeep(args.variableValues)) setResultAndStopExecution({ errors: [variableDepthError(maxDepth)] });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      if (tooDeep(args.variableValues)) setResultAndStopExecution({ errors: [variableDepthError(maxDepth)] });
    },
  };
}

const SUGGESTION = /\s*Did you mean [^?]*\?/g;
const SUGGESTS = /Did you mean /;

/**
 * Field and type suggestions tell a stranger the schema's names one typo at a time: they stay for signed-in callers
 * (GraphiQL users), and are cut from the answers to everybody else.
 */
export function useSuggestionsForSignedIn(services: Services): Plugin {
  async function signedIn(request: Request): Promise<boolean> {
    try {
      const authorization = request.headers.get("authorization");
      const viewer = authorization
        ? await services.authenticator.authenticate(authorization)
        : await services.authenticator.authenticateCookie(sessionTokenFrom(request.headers.get("cookie")));
      return viewer !== null;
    } catch {
      return false;
    }
  }
  return {
    async onResultProcess({ request, result, setResult }) {
      if (Symbol.asyncIterator in result) return;
      const results = Array.isArray(result) ? result : [result];
      const suggests = results.some((one) => one.errors?.some((error) => SUGGESTS.test(error.message)));
      if (!suggests || (await signedIn(request))) return;
      const cut = results.map((one) =>
        one.errors
          ? {
              ...one,
              errors: one.errors.map((error) =>
                createGraphQLError(error.message.replace(SUGGESTION, ""), {
                  ...(error.nodes ? { nodes: error.nodes } : {}),
                  ...(error.path ? { path: error.path } : {}),
                  extensions: error.extensions,
                }),
              ),
            }
          : one,
      );
      setResult(Array.isArray(result) ? cut : (cut[0] as never));
    },
  };
}
