// The shape of a REST route: path and methods, how the body is read, the operation, and the answer.
export type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

export type RouteInput = {
  params: Record<string, string>;
  query: URLSearchParams;
  body: Record<string, unknown>;
  /** The request's absolute URL as the client sees it (PUBLIC_URL when set), for list envelope links. */
  url: URL;
  /** Most rows a GFQL answer carries per table (GFQL_MAX_ROWS): what the remote GFQL route asks for. */
  gfqlMaxRows: number;
  /** For routes with `rawBody`: the request body, handed to the operation as an Upload. */
  upload?: { stream(): ReadableStream<Uint8Array>; chunks?: () => AsyncIterable<Uint8Array> };
};

/** The answer: a JSON body, or `bytes` sent as they are (with a content-type header). */
export type Shaped = { status?: number; body?: unknown; bytes?: Uint8Array; headers?: Record<string, string> };

export type RestRoute = {
  methods: readonly Method[];
  path: string;
  /** JSON Schema id (schema/json) the body must satisfy; absent for routes that read no JSON body. */
  body?: { schema: string; required: boolean };
  /**
   * Callers need no credential (it comes in the body, if at all): a body that fails validation is answered as such.
   * On every other route an unauthenticated caller learns nothing of the body's rules: a 401 comes first.
   */
  anonymous?: true;
  /** The body is data (a file upload), streamed to the operation unread. */
  rawBody?: true;
  document: string;
  variables(input: RouteInput): Record<string, unknown>;
  // biome-ignore lint/suspicious/noExplicitAny: the data shape is the document's, checked by tests.
  shape(data: any, input: RouteInput): Shaped;
  /**
   * The error body this route's clients read, when it is not the common one (facades/rest/errors.ts); undefined
   * keeps the common one. The status stays the error code's.
   */
  errorBody?(error: { code: string; message: string; details?: Record<string, unknown> }, input: RouteInput): unknown;
};
