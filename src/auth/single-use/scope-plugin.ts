// Where a single-use link's browser session is held to its dataset's page: of every GraphQL operation (and so of
// every REST route and tool, which run one) only these root fields run for it; the dataset rule itself is
// grantAllows, applied by canViewDataset and the dataset service.
import { type DocumentNode, getOperationAST } from "graphql";
import { createGraphQLError, type Plugin } from "graphql-yoga";
import type { GatewayContext } from "../../server/context.ts";

/** What graph.html needs for one dataset, all of it checked against the grant further in. */
export const SCOPED_FIELDS: Readonly<Record<"query" | "mutation" | "subscription", ReadonlySet<string>>> = {
  query: new Set(["__typename", "caller", "me", "vizSession", "gfql", "health", "computeAlgorithms", "computeSchema"]),
  mutation: new Set([
    "__typename",
    "openVizSession",
    "controlSessionLayout",
    "setSessionFilters",
    "setSessionEncodings",
    "signOut",
    "redeemSingleUseLink",
  ]),
  subscription: new Set(["vizSessionChanged"]),
};

/** Whether every root field of the operation is one a single-use session may run. */
export function allowedForGrant(document: DocumentNode, operationName: string | null | undefined): boolean {
  const operation = getOperationAST(document, operationName);
  if (!operation) return false;
  const allowed = SCOPED_FIELDS[operation.operation];
  // A fragment at the root is refused rather than followed.
  return operation.selectionSet.selections.every((selection) => selection.kind === "Field" && allowed.has(selection.name.value));
}

const refusal = () =>
  createGraphQLError("A single-use login link gives access to its dataset's page only.", {
    extensions: { code: "FORBIDDEN", http: { status: 403 } },
  });

/** Only a cookie can carry a single-use session: other callers are not authenticated here. */
async function isGranted(context: GatewayContext): Promise<boolean> {
  if (context.authorization || !context.sessionToken) return false;
  const viewer = await context.viewer().catch(() => null);
  return viewer?.grant !== undefined;
}

export function useSingleUseScope(): Plugin<GatewayContext> {
  return {
    async onExecute({ args, setResultAndStopExecution }) {
      if (allowedForGrant(args.document, args.operationName)) return;
      if (await isGranted(args.contextValue)) setResultAndStopExecution({ errors: [refusal()] });
    },
    async onSubscribe({ args, setResultAndStopExecution }) {
      if (allowedForGrant(args.document, args.operationName)) return;
      if (await isGranted(args.contextValue)) setResultAndStopExecution({ errors: [refusal()] });
    },
  };
}
