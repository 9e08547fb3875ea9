// The /mcp tool endpoint (spec 3.5, 4.6, 7): the SDK's web-standard streamable HTTP transport, one per transport
// session, behind checks that answer the spec's HTTP statuses and JSON-RPC codes before a tool runs.
import { randomUUID } from "node:crypto";
import type { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import { SUPPORTED_PROTOCOL_VERSIONS } from "@modelcontextprotocol/sdk/types.js";
import { isDatabaseUnavailable } from "../../src/errors/unavailable.ts";
import type { McpSessionDirectory, McpSessionStart } from "../../src/mcp/session-directory.ts";
import type { Execute } from "../execute.ts";
import { callCredential } from "./credential.ts";
import { failureResponse, isJsonRpcMessage, type JsonRpcId, type JsonRpcRequest, McpFailure, rateLimitFailure } from "./json-rpc.ts";
import * as ops from "./operations.ts";
import { type CheckedCall, createToolServer, runCheckedCall } from "./server.ts";
import { argumentProblem } from "./tool-schemas.ts";
import { type RunOperation, type Tool, toolNamed } from "./tools.ts";

export type McpFacadeOptions = {
  execute: Execute;
  directory?: McpSessionDirectory | undefined;
  /** A transport session unused this long expires; later calls get 404. */
  idleMs: number;
  /** A tools/call running longer answers 504, and its query is stopped. */
  toolTimeoutMs: number;
  /** Most transport sessions held at once; beyond it the least recently used is discarded. */
  maxSessions: number;
  maxBodyBytes: number;
  onUnexpected(error: unknown): void;
};

type FacadeEnv = {
  clientAddress: string;
  /** The body straight from the server's socket, where the runtime offers it (src/server/gateway.ts ServerEnv). */
  requestBody?: (() => AsyncIterable<Uint8Array>) | undefined;
};

type Entry = {
  transport: WebStandardStreamableHTTPServerTransport;
  server: McpServer;
  lastSeen: number;
  /** The request the checks and tools run their operations with, for the credential last used on this session. */
  carrier?: { key: string; request: Request };
};

type AccessData = {
  caller: { id: number; assistantEnabled: boolean; grantDatasetId: string | null } | null;
  vizSession?: { id: string; isOwner: boolean; ownerAvailable: boolean } | null;
};

/** The SDK insists on Accept and Content-Type headers that plain HTTP clients often leave out. */
function forTransport(request: Request): Request {
  const accept = request.headers.get("accept") ?? "";
  const sse = accept.includes("text/event-stream");
  if (request.method === "GET" && sse) return request;
  if (
    request.method === "POST" &&
    sse &&
    accept.includes("application/json") &&
    request.headers.get("content-type")?.includes("application/json")
  )
    return request; // the body was read already: the transport is given it parsed
  const headers = new Headers(request.headers);
  if (request.method === "POST") {
    headers.set("accept", "application/json, text/event-stream");
    headers.set("content-type", "application/json");
  }
  if (request.method === "GET") headers.set("accept", "text/event-stream");
  return new Request(request.url, { method: request.method, headers });
}

/**
 * The body as text, read no further than `maxBytes` (whether or not a length was declared): a body of declared length
 * straight from the server's socket where the runtime offers it (`raw`: no web stream made per call), else from the
 * request.
 */
async function boundedText(request: Request, maxBytes: number, raw?: () => AsyncIterable<Uint8Array>): Promise<string> {
  const tooLarge = () => new McpFailure("PARSE_ERROR", `Parse error: the body is larger than ${maxBytes} bytes`);
  if (Number(request.headers.get("content-length") ?? 0) > maxBytes) throw tooLarge();
  // With a declared length the socket delivers no more than that (checked above); a chunked body is read with a cap.
  if (raw && request.headers.has("content-length")) {
    const chunks: Uint8Array[] = [];
    let size = 0;
    for await (const chunk of raw()) {
      size += chunk.byteLength;
      if (size > maxBytes) throw tooLarge();
      chunks.push(chunk);
    }
    return Buffer.concat(chunks).toString("utf8");
  }
  const reader = request.body?.getReader();
  if (!reader) return "";
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

async function readMessage(
  request: Request,
  maxBytes: number,
  raw?: () => AsyncIterable<Uint8Array>,
): Promise<JsonRpcRequest | { jsonrpc: "2.0"; id: JsonRpcId }> {
  const text = await boundedText(request, maxBytes, raw);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new McpFailure("PARSE_ERROR", "Parse error: the body is not JSON");
  }
  if (Array.isArray(body))
    throw new McpFailure("PARSE_ERROR", "Parse error: batches are not supported; send one JSON-RPC message per request");
  if (!isJsonRpcMessage(body)) throw new McpFailure("PARSE_ERROR", "Parse error: the body is not a JSON-RPC 2.0 message");
  return body;
}

export function createMcpFacade(options: McpFacadeOptions) {
  const sessions = new Map<string, Entry>();
  const directory = options.directory;
  const adopting = new Map<string, Promise<Entry>>();

  const sweep = setInterval(
    () => {
      const cutoff = Date.now() - options.idleMs;
      for (const [id, entry] of sessions) if (entry.lastSeen < cutoff) discard(id, entry);
    },
    Math.max(250, Math.min(options.idleMs / 2, 30_000)),
  );
  sweep.unref();

  function discard(id: string, entry: Entry): void {
    sessions.delete(id);
    void entry.transport.close().catch(() => {});
  }

  /** A transport and server for a new session, or for one another instance opened (`adoptedId`). */
  function open(adoptedId?: string): Entry {
    if (sessions.size >= options.maxSessions) {
      const [oldestId, oldest] = [...sessions].reduce((a, b) => (a[1].lastSeen <= b[1].lastSeen ? a : b));
      discard(oldestId, oldest);
    }
    const entry: Entry = {
      transport: new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: adoptedId ? () => adoptedId : randomUUID,
        enableJsonResponse: true,
        onsessioninitialized: (id) => void sessions.set(id, entry),
        onsessionclosed: (id) => {
          sessions.delete(id);
          void directory?.forget(id).catch(() => {});
        },
      }),
      server: createToolServer(options.onUnexpected),
      lastSeen: Date.now(),
    };
    void entry.server.connect(entry.transport);
    return entry;
  }

  /** Takes up a session another instance opened: its transport is initialized here as the assistant did there. */
  async function adopt(id: string, start: McpSessionStart, url: string): Promise<Entry> {
    const entry = open(id);
    const headers = { accept: "application/json, text/event-stream", "content-type": "application/json" };
    const init = { jsonrpc: "2.0", id: `adopt-${id}`, method: "initialize", params: start };
    await (await entry.transport.handleRequest(new Request(url, { method: "POST", headers }), { parsedBody: init })).text();
    const ready = new Request(url, {
      method: "POST",
      headers: { ...headers, "mcp-session-id": id, "mcp-protocol-version": start.protocolVersion },
    });
    await entry.transport.handleRequest(ready, { parsedBody: { jsonrpc: "2.0", method: "notifications/initialized" } });
    return entry;
  }

  async function known(request: Request): Promise<Entry> {
    const id = request.headers.get("mcp-session-id");
    if (!id) throw new McpFailure("MISSING_SESSION_HEADER", "Bad Request: the mcp-session-id header is required (call initialize first)");
    const gone = () => new McpFailure("UNKNOWN_SESSION", "Session not found or expired: initialize again");
    const local = sessions.get(id);
    if (local) {
      // Closed or idled out elsewhere: gone here too. A directory that cannot answer does not end the session.
      if (directory && !(await directory.touch(id).catch(() => true))) {
        discard(id, local);
        throw gone();
      }
      local.lastSeen = Date.now();
      return local;
    }
    // Requests arriving together for one session take it up once.
    let pending = adopting.get(id);
    if (!pending) {
      pending = (async () => {
        // The directory (Redis) away: the session may well exist, so the caller is told to retry, not to start over.
        const unreadable = () => new McpFailure("UNAVAILABLE", "The session directory could not be read; retry shortly");
        const start = directory
          ? await directory.recall(id).catch(() => {
              throw unreadable();
            })
          : undefined;
        if (!start) throw gone();
        const adopted = await adopt(id, start, request.url);
        await directory?.touch(id).catch(() => true);
        return adopted;
      })().finally(() => adopting.delete(id));
      adopting.set(id, pending);
    }
    return pending;
  }

  /**
   * The data of an access-check operation: a field is null when the caller is not signed in or may not see it (a
   * missing session reads the same as a forbidden one); an error that is not about access means the check could
   * not complete.
   */
  async function guarded(pending: ReturnType<RunOperation>): Promise<Record<string, unknown>> {
    let result: Awaited<ReturnType<RunOperation>>;
    try {
      result = await pending;
    } catch (error) {
      options.onUnexpected(error);
      throw new McpFailure("UNAVAILABLE", "The authorization check could not complete; retry");
    }
    const code = String((result.errors?.[0]?.extensions as { code?: string } | undefined)?.code ?? "");
    const limited = rateLimitFailure(result.errors?.[0]);
    if (limited) throw limited;
    if (code === "UNAUTHENTICATED" || code === "TOKEN_EXPIRED")
      throw new McpFailure("UNAUTHENTICATED", "Invalid credential: the key or token is unknown, revoked or expired");
    if (code && code !== "NOT_FOUND" && code !== "FORBIDDEN")
      throw new McpFailure("UNAVAILABLE", "The authorization check could not complete; retry");
    return (result.data as Record<string, unknown> | null | undefined) ?? {};
  }

  /** Credential, tool, arguments, account switch, session access and owner presence, in that order. */
  async function check(entry: Entry, request: Request, message: JsonRpcRequest, clientAddress: string): Promise<CheckedCall> {
    const credential = callCredential(request);
    if (!credential)
      throw new McpFailure("UNAUTHENTICATED", "Missing credential: send Authorization: Bearer <KEY_ID>:<KEY> or Bearer <JWT>");
    // Only the credential travels on (facades/mcp/credential.ts).
    if (entry.carrier?.key !== credential.key) {
      const headers = { ...credential.headers, "content-type": "application/json" };
      entry.carrier = { key: credential.key, request: new Request(request.url, { method: "POST", headers }) };
    }
    const carrier = entry.carrier.request;
    // one scope for the checks and the tool's own operation: the caller and the session are read once
    const scope = {};
    const run: RunOperation = (document, variables) => options.execute({ document, variables, request: carrier, clientAddress, scope });

    const params = message.params ?? {};
    const tool: Tool | undefined = toolNamed(params.name);
    const args = params.arguments ?? {};
    const argsOk = args !== null && typeof args === "object" && !Array.isArray(args);
    const problem = tool && argsOk ? argumentProblem(tool.name, args as Record<string, unknown>) : undefined;
    // One operation reads the caller and, for a session tool with valid arguments, the session; the answers are
    // then checked in the order above.
    const sessionId = tool?.onSession && argsOk && !problem ? String((args as { session_id: string }).session_id) : undefined;
    let access = (await guarded(sessionId === undefined ? run(ops.CALLER) : run(ops.ACCESS, { id: sessionId }))) as AccessData;
    // A session the caller may not see fails the whole operation (vizSession is non-null): ask for the caller alone.
    if (sessionId !== undefined && !access.caller) access = { ...((await guarded(run(ops.CALLER))) as AccessData), vizSession: null };
    const caller = access.caller ?? null;
    if (!caller) throw new McpFailure("UNAUTHENTICATED", "Invalid credential: the key or token is unknown, revoked or expired");
    // Of browser sessions, only a single-use link's reaches the tools (its dataset's read tools); others send a credential.
    if (credential.viaCookie && caller.grantDatasetId === null)
      throw new McpFailure("UNAUTHENTICATED", "Missing credential: send Authorization: Bearer <KEY_ID>:<KEY> or Bearer <JWT>");

    if (!tool) throw new McpFailure("METHOD_NOT_FOUND", `Unknown tool: ${JSON.stringify(params.name)}`);
    if (!argsOk) throw new McpFailure("INVALID_PARAMS", "arguments must be an object");
    if (problem) throw new McpFailure("INVALID_PARAMS", `Invalid params for ${tool.name}: ${problem}`);
    if (!caller.assistantEnabled) throw new McpFailure("ASSISTANT_DISABLED", "The assistant feature is not enabled for this account");

    if (tool.onSession) {
      const session = access.vizSession ?? null;
      if (!session) throw new McpFailure("FORBIDDEN", "The caller cannot access this session");
      if (tool.access === "owner" && !session.isOwner) throw new McpFailure("FORBIDDEN", "Only the session owner may modify this session");
      if (!session.ownerAvailable) throw new McpFailure("OWNER_UNAVAILABLE", "Session owner unavailable: the visualization was closed");
    }
    return { tool: tool.name, args: args as Record<string, unknown>, run, timeoutMs: options.toolTimeoutMs };
  }

  /**
   * Whether a checked tools/call may be answered here rather than through the SDK's transport (which would parse the
   * message again, route it through the server and answer the same JSON): a well-formed request with a protocol
   * version the SDK supports, on this transport's session. Anything else goes through the SDK, which answers it.
   */
  function direct(entry: Entry, request: Request, message: JsonRpcRequest): boolean {
    const version = request.headers.get("mcp-protocol-version");
    const id = message.id;
    return (
      (typeof id === "string" || Number.isInteger(id)) &&
      !Array.isArray(message.params) &&
      (version === null || SUPPORTED_PROTOCOL_VERSIONS.includes(version)) &&
      entry.transport.sessionId !== undefined &&
      entry.transport.sessionId === request.headers.get("mcp-session-id")
    );
  }

  /** A JSON-RPC answer as the SDK's transport writes one in JSON mode. */
  function jsonAnswer(entry: Entry, body: unknown): Response {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (entry.transport.sessionId !== undefined) headers["mcp-session-id"] = entry.transport.sessionId;
    return new Response(JSON.stringify(body), { status: 200, headers });
  }

  async function callTool(entry: Entry, request: Request, message: JsonRpcRequest, clientAddress: string): Promise<Response> {
    const id = message.id ?? null;
    const call = await check(entry, request, message, clientAddress).catch((error: unknown) => {
      if (error instanceof McpFailure) return error;
      throw error;
    });
    if (call instanceof McpFailure) return failureResponse(call, id);
    const answered = direct(entry, request, message)
      ? runCheckedCall(call, options.onUnexpected).then((result) => jsonAnswer(entry, { jsonrpc: "2.0", id, result }))
      : entry.transport.handleRequest(forTransport(request), {
          parsedBody: message,
          authInfo: { token: "checked", clientId: "mcp", scopes: [], extra: { call } },
        });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<"timeout">((resolve) => {
      timer = setTimeout(() => resolve("timeout"), options.toolTimeoutMs);
    });
    const winner = await Promise.race([answered, timedOut]).finally(() => clearTimeout(timer));
    if (winner === "timeout") return failureResponse(new McpFailure("TIMEOUT", "Tool call timeout"), id);
    if (call.failure) return failureResponse(call.failure, id);
    return winner;
  }

  async function post(request: Request, env: FacadeEnv): Promise<Response> {
    const { clientAddress } = env;
    const message = await readMessage(request, options.maxBodyBytes, env.requestBody);
    const method = "method" in message ? message.method : undefined;
    if (method === "initialize") {
      const entry = open();
      const answer = await entry.transport.handleRequest(forTransport(request), { parsedBody: message });
      const id = entry.transport.sessionId;
      const params = (message as JsonRpcRequest).params ?? {};
      if (directory && id && answer.ok) {
        const start = {
          protocolVersion: String(params.protocolVersion ?? ""),
          capabilities: params.capabilities ?? {},
          clientInfo: params.clientInfo ?? {},
        };
        await directory.remember(id, start).catch((error: unknown) => options.onUnexpected(error));
      }
      return answer;
    }
    let entry: Entry;
    try {
      entry = await known(request);
    } catch (error) {
      if (error instanceof McpFailure) return failureResponse(error, "id" in message ? (message.id ?? null) : null);
      throw error;
    }
    if (method === "tools/call" && "id" in message && message.id !== undefined)
      return callTool(entry, request, message as JsonRpcRequest, clientAddress);
    return entry.transport.handleRequest(forTransport(request), { parsedBody: message });
  }

  async function fetch(request: Request, env: FacadeEnv): Promise<Response> {
    try {
      if (request.method === "POST") return await post(request, env);
      if (request.method === "GET" || request.method === "DELETE")
        return await (await known(request)).transport.handleRequest(forTransport(request));
      return new Response(
        JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32000, message: "Method not allowed: use POST, GET or DELETE" } }),
        {
          status: 405,
          headers: { "content-type": "application/json", allow: "GET, POST, DELETE" },
        },
      );
    } catch (error) {
      if (error instanceof McpFailure) return failureResponse(error);
      if (isDatabaseUnavailable(error)) return failureResponse(new McpFailure("UNAVAILABLE", "The database is unavailable; retry shortly"));
      options.onUnexpected(error);
      return failureResponse(new McpFailure("INTERNAL", "Internal error"));
    }
  }

  async function close(): Promise<void> {
    clearInterval(sweep);
    const entries = [...sessions];
    sessions.clear();
    await Promise.allSettled(entries.map(([, entry]) => entry.transport.close()));
  }

  return { fetch, close, openSessions: () => sessions.size };
}

export type McpFacade = ReturnType<typeof createMcpFacade>;
