// The GraphQL documents the browser routes run.
export const SIGN_IN = `mutation SignIn($username: String!, $password: String!) { signIn(username: $username, password: $password) { token expiresAt } }`;
export const SIGN_OUT = `mutation SignOut { signOut }`;
export const OPEN_SESSION = `mutation OpenVizSession($datasetId: ID!) { openVizSession(datasetId: $datasetId) { id } }`;
export const SESSION = `query VizSession($id: ID!) { vizSession(id: $id) { id revision { dataset { id } } } }`;
export const CREATE_COLLECTION = `mutation CreateUrlCollection($input: CreateCollectionInput!) { createCollection(input: $input) { id } }`;
