// Where a single-use grant is held to its dataset: of every GraphQL operation (and so of every REST route and tool,
// which run one) only these root fields run for it, and for a grant's read-only token only the queries and
// subscriptions among them; the dataset rule itself is grantAllows, applied by canViewDataset and the services.
import { type DocumentNode, getOperationAST } from "graphql";
import { createGraphQLError, type Plugin } from "graphql-yoga";
import type { GatewayContext } from "../../server/context.ts";

/** What graph.html (and an assistant's read tools) need for one dataset, all of it checked against the grant further in. */
export const SCOPED_FIELDS: Readonly<Record<"query" | "mutation" | "subscription", ReadonlySet<string>>> = {
  query: new Set(["__typename", "caller", "me", "vizSession", "vizSessions", "gfql", "health", "computeAlgorithms", "computeSchema"]),
  mutation: new Set([
    "__typename",
    "openVizSession",
    "controlSessionLayout",
    "setSessionFilters",
    "setSessionEncodings",
    "signOut",
    "redeemSingleUseLink",
    "issueGrantToken",
  ]),
  subscription: new Set(["vizSessionChanged"]),
};

/** outside: some root field is not in the grant's scope; read: a query or subscription within it; write: a mutation within it. */
export function grantScopeOf(document: DocumentNode, operationName: string | null | undefined): "outside" | "read" | "write" {
  const operation = getOperationAST(document, operationName);
  if (!operation) return "outside";
  const allowed = SCOPED_FIELDS[operation.operation];
  // A fragment at the root is refused rather than followed.
  const within = operation.selectionSet.selections.every((selection) => selection.kind === "Field" && allowed.has(selection.name.value));
  if (!within) return "outside";
  return operation.operation === "mutation" ? "write" : "read";
}

const refusal = (message: string) => createGraphQLError(message, { extensions: { code: "FORBIDDEN", http: { status: 403 } } });

/** The refusal for a granted caller, or undefined when the operation may run (for an ungranted caller, always). */
async function refusalFor(context: GatewayContext, scope: "outside" | "write"): Promise<ReturnType<typeof refusal> | undefined> {
  const viewer = await context.viewer().catch(() => null);
  if (!viewer?.grant) return undefined;
  if (scope === "outside") return refusal("A single-use login link gives access to its dataset's page only.");
  if (viewer.grant.readOnly) return refusal("A single-use grant's token is read-only.");
  return undefined;
}

export function useSingleUseScope(): Plugin<GatewayContext> {
  const check = async (args: { document: DocumentNode; operationName?: string | null | undefined; contextValue: GatewayContext }) => {
    const scope = grantScopeOf(args.document, args.operationName);
    return scope === "read" ? undefined : refusalFor(args.contextValue, scope);
  };
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      const refused = await check(args);
      if (refused) setResultAndStopExecution({ errors: [refused] });
    },
    async onSubscribe({ args, setResultAndStopExecution }) {
      const refused = await check(args);
      if (refused) setResultAndStopExecution({ errors: [refused] });
    },
  };
}
