// Routes of spec 5.6: single-use login links and forced logout of a user (admins), and the read-only grant token a
// browser signed in by a single-use link obtains for an assistant (its cookie, on a JSON POST).
import type { RestRoute } from "../route-types.ts";

const GENERATE = `mutation GenerateSingleUseUrl($username: String!, $datasetId: ID!) {
  generateSingleUseUrl(username: $username, datasetId: $datasetId) { path expiresAt } }`;

const GRANT_TOKEN = `mutation IssueGrantToken { issueGrantToken { token expiresAt datasetId } }`;

const LOGOUT_USER = `mutation LogoutUser($username: String!) { logoutUser(username: $username) }`;

export const SINGLE_USE_ROUTES: readonly RestRoute[] = [
  {
    path: "/api/v2/generate/single-use-url/",
    methods: ["GET"],
    document: GENERATE,
    // Absent parameters reach the service as "", which answers which one is missing.
    variables: ({ query }) => ({ username: query.get("username") ?? "", datasetId: query.get("dataset_id") ?? "" }),
    // An absolute link on the address the client used (PUBLIC_URL when set).
    shape: (data, { url }) => ({ body: { single_use_url: new URL(data.generateSingleUseUrl.path, url).toString() } }),
  },
  {
    path: "/api/v2/auth/grant-token/",
    methods: ["POST"],
    document: GRANT_TOKEN,
    variables: () => ({}),
    shape: (data) => ({
      headers: { "cache-control": "no-store" },
      body: {
        token: data.issueGrantToken.token,
        expires_at: data.issueGrantToken.expiresAt,
        dataset_id: data.issueGrantToken.datasetId,
      },
    }),
  },
  {
    path: "/api/v2/logout-user/:username/",
    methods: ["GET"],
    document: LOGOUT_USER,
    variables: ({ params }) => ({ username: params.username }),
    shape: (_data, { params }) => ({ body: { status: "OK", username: params.username } }),
  },
];
