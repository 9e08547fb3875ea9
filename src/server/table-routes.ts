// Binary data for the page: a session's tables as Arrow IPC streams (only the asked-for columns), rows, its layout,
// and the matched rows of its collections.
// Served beside the static files rather than through GraphQL, which carries no binary; access is the same check.
import { AppError, isAppError } from "../errors/app-error.ts";
import { asDatabaseUnavailable } from "../errors/unavailable.ts";
import { readTable } from "../ingest/table-files.ts";
import { createContext } from "./context.ts";
import type { Services } from "./services.ts";

const ROUTE =
  /^\/graph\/data\/([A-Za-z0-9]+)\/(?:(nodes|edges)\.arrow|(nodes|edges)\/row\/(\d+)|(layout)|collections\/([A-Za-z0-9]+)\.u32)$/;
const MAX_LAYOUT_BYTES = 512 * 1024 ** 2;

function json(body: unknown, status = 200): Response {
  const text = JSON.stringify(body, (_key, value) => (typeof value === "bigint" ? value.toString() : value));
  return new Response(text, { status, headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" } });
}

function failure(error: unknown): Response {
  const known = isAppError(error) ? error : asDatabaseUnavailable(error);
  if (!known) throw error;
  const answer = json({ success: false, error: { code: known.code, message: known.message } }, known.status);
  const retry = known.details?.retryAfterSeconds;
  if (typeof retry === "number") answer.headers.set("retry-after", String(retry));
  return answer;
}

export function createTableRoutes(services: Services) {
  return async function serveTableData(request: Request, clientAddress: string): Promise<Response | undefined> {
    const match = ROUTE.exec(new URL(request.url).pathname);
    if (!match) return undefined;
    const [, sessionId = "", tableAxis, rowAxis, rowIndex, layout, collectionId] = match;
    try {
      const viewer = await createContext(services, { request, clientAddress }).requireViewer();
      if (collectionId) {
        if (request.method !== "GET") return json({ success: false, error: { code: "METHOD_NOT_ALLOWED", message: "use GET" } }, 405);
        const bytes = await services.collections.matches(viewer, sessionId, collectionId);
        return new Response(bytes as Uint8Array<ArrayBuffer>, {
          headers: { "content-type": "application/octet-stream", "cache-control": "no-store" },
        });
      }
      if (layout) {
        if (request.method === "PUT") {
          // Refuse an oversized layout before reading it, where the size is declared.
          if (Number(request.headers.get("content-length") ?? 0) > MAX_LAYOUT_BYTES)
            throw new AppError("PAYLOAD_TOO_LARGE", "layout too large");
          const bytes = new Uint8Array(await request.arrayBuffer());
          if (bytes.byteLength > MAX_LAYOUT_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", "layout too large");
          await services.sessions.setLayout(viewer, sessionId, bytes);
          return new Response(null, { status: 204 });
        }
        if (request.method !== "GET")
          return json({ success: false, error: { code: "METHOD_NOT_ALLOWED", message: "use GET or PUT" } }, 405);
        const stored = await services.sessions.layout(viewer, sessionId);
        // None stored is no error (the page then lays the graph out): 204, so a browser logs no failed request.
        if (!stored) return new Response(null, { status: 204, headers: { "cache-control": "no-store" } });
        return new Response(stored as Uint8Array<ArrayBuffer>, {
          headers: { "content-type": "application/octet-stream", "cache-control": "no-store" },
        });
      }
      if (request.method !== "GET") return json({ success: false, error: { code: "METHOD_NOT_ALLOWED", message: "use GET" } }, 405);
      const session = await services.sessions.get(viewer, sessionId);
      const record = await services.datasets.getForSession(session.datasetId);
      const paths = services.datasets.tablePaths(record);
      const axis = (tableAxis ?? rowAxis) as "nodes" | "edges";
      const file = paths[axis];
      if (!file) throw new AppError("NOT_FOUND", `this dataset has no ${axis} table yet`);
      const frame = readTable(file);
      if (rowAxis) {
        const index = Number(rowIndex);
        if (index >= frame.height) throw new AppError("NOT_FOUND", `no ${axis} row ${index}`);
        return json(frame.slice(index, 1).toRecords()[0] ?? {});
      }
      const wanted = (new URL(request.url).searchParams.get("columns") ?? "").split(",").filter(Boolean);
      const missing = wanted.filter((c) => !frame.columns.includes(c));
      if (missing.length > 0)
        throw new AppError("INVALID_INPUT", `no column ${missing.map((c) => `"${c}"`).join(", ")} in the ${axis} table`);
      const selected = wanted.length > 0 ? frame.select(...wanted) : frame;
      return new Response(selected.writeIPCStream() as Uint8Array<ArrayBuffer>, {
        headers: { "content-type": "application/vnd.apache.arrow.stream", "cache-control": "no-store" },
      });
    } catch (error) {
      return failure(error);
    }
  };
}

export type TableRoutes = ReturnType<typeof createTableRoutes>;
