// The GraphQL documents the account page runs (facades/web/account-routes.ts).

export const ACCOUNT = `query Account($limit: Int, $offset: Int) {
  caller { id username isAdmin }
  myPersonalKeys { id name createdAt lastUsedAt isActive }
  datasets(limit: $limit, offset: $offset) { count items { id name author nodeCount edgeCount createdAt } }
}`;

export const CREATE_KEY = `mutation CreateKey($name: String) { createPersonalKey(name: $name) { key { id name } credential } }`;

export const REVOKE_KEY = `mutation RevokeKey($id: ID!) { revokePersonalKey(id: $id) { id } }`;

/** Public: the configured single sign-on providers (schema/types/sso.ts). */
export const SSO_PROVIDERS = `query SsoProviders { ssoProviders { name displayName loginUrl organization } }`;

export type Caller = { id: number; username: string; isAdmin: boolean };
export type KeyRow = { id: string; name: string; createdAt: string; lastUsedAt: string | null; isActive: boolean };
export type DatasetRow = {
  id: string;
  name: string;
  author: number;
  nodeCount: number | null;
  edgeCount: number | null;
  createdAt: string;
};
export type AccountData = { caller: Caller; myPersonalKeys: KeyRow[]; datasets: { count: number; items: DatasetRow[] } };
