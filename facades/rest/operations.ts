// The GraphQL documents the REST routes run.
const AUTH_FIELDS = "token pk user { id username name email } activeOrganization { slug isFound isMember }";

export const LOGIN = `mutation Login($username: String!, $password: String!, $orgName: String) {
  login(username: $username, password: $password, orgName: $orgName) { ${AUTH_FIELDS} } }`;

export const EXCHANGE_KEY = `mutation ExchangePersonalKey($orgName: String) {
  exchangePersonalKey(orgName: $orgName) { ${AUTH_FIELDS} } }`;

export const SWITCH_ORG = `mutation SwitchOrganization($slug: String!) {
  switchOrganization(slug: $slug) { ${AUTH_FIELDS} } }`;

export const REFRESH = `mutation RefreshToken($token: String!) { refreshToken(token: $token) { token expiresAt refreshableUntil } }`;

export const VERIFY = `mutation VerifyToken($token: String!) { verifyToken(token: $token) { valid userId expiresAt refreshableUntil } }`;

export const HEALTH = `query Health($component: HealthComponent!) {
  health(component: $component) {
    component healthy
    checks { name healthy detail latencyMs }
    workers { id backend ready clContextHealthy detail devices }
  } }`;
