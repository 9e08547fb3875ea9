// The single sign-on providers the sign-in page offers, from GraphQL `ssoProviders` (public). A server whose schema
// has no such field (single sign-on not built in) offers none; any other failure is the caller's to see.
import type { Execute } from "../execute.ts";
import { SSO_PROVIDERS } from "./account-operations.ts";
import { asJson } from "./json-request.ts";
import type { SsoButton } from "./login-page.ts";

export async function ssoProviders(execute: Execute, request: Request, clientAddress: string): Promise<SsoButton[]> {
  let result: Awaited<ReturnType<Execute>>;
  try {
    result = await execute({ document: SSO_PROVIDERS, request: asJson(request), clientAddress });
  } catch (error) {
    if (error instanceof Error && error.message.includes("facade document is invalid")) return [];
    throw error;
  }
  if (result.errors?.length) throw new Error(`ssoProviders failed: ${result.errors[0]?.message}`);
  return (result.data as { ssoProviders?: SsoButton[] } | null)?.ssoProviders ?? [];
}
