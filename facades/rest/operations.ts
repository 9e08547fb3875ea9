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

const FILE_FIELDS = `id name description fileType fileCompression parserOptions sqlTransforms author agentName agentVersion
  bytesCount isUploaded isValid errors tablesSchemas { name numCols numRows dtypes } createdAt updatedAt`;

export const CREATE_FILE = `mutation CreateFile($input: CreateFileInput!) { createFile(input: $input) { ${FILE_FIELDS} } }`;
export const LIST_FILES = `query Files($limit: Int!, $offset: Int!) { files(limit: $limit, offset: $offset) { count items { ${FILE_FIELDS} } } }`;
export const GET_FILE = `query File($id: ID!) { file(id: $id) { ${FILE_FIELDS} } }`;
export const UPLOAD_FILE = `mutation UploadFileData($id: ID!, $data: Upload!, $erase: Boolean!) {
  uploadFileData(id: $id, data: $data, erase: $erase) { ${FILE_FIELDS} } }`;
export const UPDATE_FILE = `mutation UpdateFile($id: ID!, $input: UpdateFileInput!) { updateFile(id: $id, input: $input) { ${FILE_FIELDS} } }`;
export const DELETE_FILE = `mutation DeleteFile($id: ID!) { deleteFile(id: $id) }`;

const DATASET_FIELDS = `id name description author nodeCount edgeCount agentName agentVersion nodeFiles edgeFiles
  edgeHypergraphTransform nodeEncodings edgeEncodings metadata compute layout report createdAt updatedAt`;

export const CREATE_DATASET = `mutation CreateDataset($input: CreateDatasetInput!) { createDataset(input: $input) { ${DATASET_FIELDS} } }`;
export const LIST_DATASETS = `query Datasets($limit: Int!, $offset: Int!) { datasets(limit: $limit, offset: $offset) { count items { ${DATASET_FIELDS} } } }`;
export const GET_DATASET = `query Dataset($id: ID!) { dataset(id: $id) { ${DATASET_FIELDS} } }`;
export const DELETE_DATASET = `mutation DeleteDataset($id: ID!) { deleteDataset(id: $id) }`;
export const UPLOAD_DATASET_TABLE = `mutation UploadDatasetTable($id: ID!, $axis: DatasetAxis!, $format: String!, $options: JSON, $data: Upload!) {
  uploadDatasetTable(id: $id, axis: $axis, format: $format, options: $options, data: $data) {
    seconds table { numCols numRows dtypes } dataset { id report } } }`;

const SESSION_FIELDS = "id revision { id dataset { id } }";
export const LIST_SESSIONS = `query VizSessions { vizSessions { ${SESSION_FIELDS} } }`;
export const GET_SESSION = `query VizSession($id: ID!) { vizSession(id: $id) { ${SESSION_FIELDS} } }`;
export const SHARE_DATASET = `mutation ShareDataset($datasetId: ID!, $mode: String!) { shareDataset(datasetId: $datasetId, mode: $mode) }`;

export const GFQL = `query Gfql($datasetId: ID!, $query: JSON!, $output: GfqlOutput!, $limit: Int!, $fileFormat: GfqlFileFormat,
  $nodeColumns: [String!], $edgeColumns: [String!], $strictness: GfqlStrictness) {
  gfql(datasetId: $datasetId, query: $query, output: $output, limit: $limit, fileFormat: $fileFormat,
    nodeColumns: $nodeColumns, edgeColumns: $edgeColumns, strictness: $strictness) {
    nodeCount edgeCount warnings nodes edges nodesFile edgesFile shapeFile } }`;

export const COMPUTE_SCHEMA = `query ComputeSchema { computeSchema { compute { cugraph igraph } layout { cugraph igraph } types { CuGraphKind } } }`;
