// Posts GraphQL operations to /graphql with the browser's sign-in cookie; errors carry the server's code.
import { codeOfStatus, RequestError } from "./request-error.ts";

type GraphQLResponse<T> = { data?: T | null; errors?: { message: string; extensions?: { code?: string } }[] };

export async function requestGraphQL<T>(query: string, variables: Record<string, unknown>, signal?: AbortSignal): Promise<T> {
  const response = await fetch("/graphql", {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json", accept: "application/json" },
    body: JSON.stringify({ query, variables }),
    ...(signal ? { signal } : {}),
  });
  let body: GraphQLResponse<T>;
  try {
    body = (await response.json()) as GraphQLResponse<T>;
  } catch {
    throw new RequestError(`the server answered ${response.status} without a GraphQL body`, codeOfStatus(response.status));
  }
  const first = body.errors?.[0];
  if (first) throw new RequestError(first.message, first.extensions?.code ?? codeOfStatus(response.status));
  if (body.data === undefined || body.data === null) throw new RequestError("the server answered no data", "INTERNAL");
  return body.data;
}
