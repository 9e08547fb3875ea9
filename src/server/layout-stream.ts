// The WebSocket of a session's live layout, /graph/data/<sessionId>/layout/stream: binary frames only
// (src/sessions/layout-frame.ts), the latest at once on connect, then each one the fan-out sends; a socket that
// falls behind (more than about two frames buffered) skips to the newest frame instead of queueing. Access is the
// other /graph/data routes' check (browser cookie, or an Authorization header), refused on the upgrade itself.
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { type WebSocket, WebSocketServer } from "ws";
import type { Viewer } from "../auth/viewer.ts";
import { isAppError } from "../errors/app-error.ts";
import { createContext } from "./context.ts";
import type { Services } from "./services.ts";

const ROUTE = /^\/graph\/data\/([A-Za-z0-9]+)\/layout\/stream$/;

/** The session id of a layout stream path, or undefined for any other path. */
export function layoutStreamSession(pathname: string): string | undefined {
  return ROUTE.exec(pathname)?.[1];
}

const REASONS: Record<number, string> = { 401: "Unauthorized", 403: "Forbidden", 404: "Not Found", 500: "Internal Server Error" };

function refuse(socket: Duplex, status: number, code: string, message: string): void {
  const body = JSON.stringify({ success: false, error: { code, message } });
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status] ?? "Error"}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

function headersOf(request: IncomingMessage): [string, string][] {
  return Object.entries(request.headers).flatMap(([k, v]) =>
    v === undefined ? [] : Array.isArray(v) ? v.map((x): [string, string] => [k, x]) : [[k, v] as [string, string]],
  );
}

/**
 * A cookie is sent by the browser whatever page opens the socket: with the cookie as the only credential, the page
 * must be this service's own (its Origin's host is the request's Host, or the public URL's).
 */
function sameOrigin(request: IncomingMessage, publicUrl: string | undefined): boolean {
  const origin = request.headers.origin;
  if (!origin) return true;
  try {
    const host = new URL(origin).host;
    return host === request.headers.host || (publicUrl !== undefined && host === new URL(publicUrl).host);
  } catch {
    return false;
  }
}

/** What a frame sender needs of a socket (ws's WebSocket has it). */
export type FrameSocket = {
  readonly readyState: number;
  readonly OPEN: number;
  readonly bufferedAmount: number;
  send(bytes: Uint8Array): void;
};

/**
 * Sends frames to one socket without queueing behind a slow reader: while more than two frames' bytes wait in the
 * socket's buffer, a new frame is held instead (a newer one replaces it) and tried again after frameMs.
 */
export function createFrameSender(socket: FrameSocket, frameMs: number) {
  let held: Uint8Array | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let sent = 0;
  let skipped = 0;
  const offer = (bytes: Uint8Array): void => {
    if (socket.readyState !== socket.OPEN) return;
    if (socket.bufferedAmount > 2 * bytes.byteLength) {
      if (held) skipped += 1;
      held = bytes;
      timer ??= setTimeout(() => {
        timer = undefined;
        const next = held;
        held = undefined;
        if (next) offer(next);
      }, frameMs);
      return;
    }
    // A held frame this newer one overtook never goes.
    if (held && held !== bytes) skipped += 1;
    held = undefined;
    sent += 1;
    socket.send(bytes);
  };
  return {
    offer,
    /** Frames sent, and frames replaced by a newer one before they could go. */
    counts: () => ({ sent, skipped }),
    close(): void {
      if (timer) clearTimeout(timer);
      timer = undefined;
      held = undefined;
    },
  };
}

export function createLayoutStream(services: Services, options: { clientAddress(request: IncomingMessage): string }) {
  const wss = new WebSocketServer({ noServer: true, perMessageDeflate: false });
  const frameMs = services.config.layoutFrameMs;

  function serve(ws: WebSocket, viewer: Viewer, sessionId: string): void {
    const sender = createFrameSender(
      {
        get readyState() {
          return ws.readyState;
        },
        OPEN: ws.OPEN,
        get bufferedAmount() {
          return ws.bufferedAmount;
        },
        send: (bytes) => ws.send(bytes, { binary: true }),
      },
      frameMs,
    );
    const unsubscribe = services.layouts.subscribe(sessionId, sender.offer);
    ws.on("message", () => {});
    ws.on("error", () => {});
    ws.on("close", () => {
      unsubscribe();
      sender.close();
    });
    services.layouts.latestFrame(viewer, sessionId).then(
      (latest) => {
        // A frame that came meanwhile is newer.
        if (latest && sender.counts().sent === 0) sender.offer(latest);
      },
      (error: unknown) => services.logger.warn("layout stream: no first frame", { sessionId, error: String(error) }),
    );
  }

  async function upgrade(request: IncomingMessage, socket: Duplex, head: Buffer, sessionId: string): Promise<void> {
    try {
      const url = `http://localhost${request.url ?? "/"}`;
      const fetchRequest = new Request(url, { headers: headersOf(request) });
      const context = createContext(services, { request: fetchRequest, clientAddress: options.clientAddress(request) });
      if (!context.authorization && !sameOrigin(request, services.config.publicUrl)) {
        refuse(socket, 403, "FORBIDDEN", "this page may not open the layout stream");
        return;
      }
      const viewer = await context.requireViewer();
      await services.sessions.get(viewer, sessionId);
      wss.handleUpgrade(request, socket, head, (ws) => serve(ws, viewer, sessionId));
    } catch (error) {
      if (isAppError(error)) refuse(socket, error.status, error.code, error.message);
      else {
        services.logger.error("layout stream upgrade failed", { error: error instanceof Error ? error.stack : String(error) });
        refuse(socket, 500, "INTERNAL", "internal error");
      }
    }
  }

  return {
    /** Handles the upgrade when `request` is a layout stream's (true), else leaves it (false). */
    handle(request: IncomingMessage, socket: Duplex, head: Buffer): boolean {
      const sessionId = layoutStreamSession(new URL(request.url ?? "/", "http://localhost").pathname);
      if (!sessionId) return false;
      void upgrade(request, socket, head, sessionId);
      return true;
    },
    close(): void {
      for (const client of wss.clients) client.terminate();
      wss.close();
    },
  };
}
