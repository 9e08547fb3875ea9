// The GraphQL documents the tool endpoint runs: one per tool, plus the caller and session checks before a call.

export const CALLER = `query McpCaller { caller { id assistantEnabled grantDatasetId } }`;

export const ACCESS = `query McpAccess($id: ID!) { caller { id assistantEnabled grantDatasetId } vizSession(id: $id) { id isOwner ownerAvailable } }`;

export const LIST_SESSIONS = `query McpSessions { vizSessions(mine: true) {
  id createdAt ownerAvailable revision { id } dataset { id name } } }`;

export const SESSION_INFO = `query McpSessionInfo($id: ID!) { vizSession(id: $id) {
  id revision { id } filters encodings dataset { id name description tables { nodes { numRows dtypes } edges { numRows dtypes } } } } }`;

export const QUERY_GRAPH = `query McpQueryGraph($id: ID!, $query: JSON!, $output: GfqlOutput!, $timeoutMs: Int, $strictness: GfqlStrictness) {
  gfql(sessionId: $id, query: $query, output: $output, limit: null, timeoutMs: $timeoutMs, strictness: $strictness) {
    nodeCount edgeCount warnings nodes edges } }`;

const COLLECTION_FIELDS = "id name description position color nodeColor palette matchCount nodeCount edgeCount";

export const LIST_COLLECTIONS = `query McpCollections($id: ID!) { vizSession(id: $id) {
  collections { ${COLLECTION_FIELDS} } globalLayer { id name } } }`;

export const CREATE_COLLECTION = `mutation McpCreateCollection($input: CreateCollectionInput!) {
  createCollection(input: $input) { ${COLLECTION_FIELDS} } }`;

export const UPDATE_COLLECTION = `mutation McpUpdateCollection($session: ID!, $id: ID!, $name: String, $nodeColor: String, $palette: String) {
  updateCollection(sessionId: $session, id: $id, name: $name, nodeColor: $nodeColor, palette: $palette) { ${COLLECTION_FIELDS} } }`;

export const DELETE_COLLECTION = `mutation McpDeleteCollection($session: ID!, $id: ID!) { deleteCollection(sessionId: $session, id: $id) { id name } }`;

export const REORDER_COLLECTIONS = `mutation McpReorderCollections($session: ID!, $order: [ID!]!) {
  reorderCollections(sessionId: $session, order: $order) { ${COLLECTION_FIELDS} } }`;

export const RESET_COLLECTIONS = `mutation McpResetCollections($session: ID!) { resetCollections(sessionId: $session) }`;
