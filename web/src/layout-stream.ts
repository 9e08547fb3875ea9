// Listens to the session's layout stream (a WebSocket of binary frames) and hands the page only the newest frame:
// frames that arrive while one is being applied replace each other in one slot, so none ever queue up.
import { type LayoutFrame, parseFrame } from "./layout-frames.ts";

export type StreamCounts = { received: number; applied: number; dropped: number };

export type LayoutStreamEvents = {
  /** Draws one frame; the stream waits for it (and one animation frame after it) before handing over the next. */
  apply(frame: LayoutFrame): void | Promise<void>;
  /** Every frame's header as it arrives, applied or not (cheap: the state and progress shown stay current). */
  received?(frame: LayoutFrame): void;
  /** The socket's state: open, or closed and retrying. */
  connection?(open: boolean): void;
};

export type LayoutStream = {
  readonly counts: StreamCounts;
  /** Holds frames back (kept in the slot, newest wins) until `resume`: the page does so until it can draw. */
  hold(): void;
  resume(): void;
  stop(): void;
};

export function streamUrl(sessionId: string, where: Location = location): string {
  const scheme = where.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${where.host}/graph/data/${encodeURIComponent(sessionId)}/layout/stream`;
}

export function openLayoutStream(sessionId: string, events: LayoutStreamEvents): LayoutStream {
  const counts: StreamCounts = { received: 0, applied: 0, dropped: 0 };
  let slot: LayoutFrame | undefined;
  let applying = false;
  let held = false;
  let stopped = false;
  let socket: WebSocket | undefined;
  let retries = 0;
  let retryTimer = 0;

  const pump = async () => {
    if (applying || held || stopped || !slot) return;
    applying = true;
    const frame = slot;
    slot = undefined;
    try {
      const started = performance.now();
      await events.apply(frame);
      counts.applied++;
      await nextAnimationFrame();
      // Drawing a frame can hold the main thread for seconds (software WebGL, big graphs): leave it as long idle
      // before the next one, so typing, pointing and the page's own updates go on while positions stream.
      const busy = performance.now() - started;
      if (busy > CHEAP_FRAME_MS) await sleep(Math.min(busy, MAX_PAUSE_MS));
    } catch (error) {
      console.warn("a layout frame could not be drawn", error);
    } finally {
      applying = false;
    }
    void pump();
  };

  const connect = () => {
    if (stopped) return;
    const ws = new WebSocket(streamUrl(sessionId));
    ws.binaryType = "arraybuffer";
    socket = ws;
    ws.onopen = () => {
      retries = 0;
      events.connection?.(true);
    };
    ws.onmessage = (message) => {
      if (!(message.data instanceof ArrayBuffer)) return;
      const frame = parseFrame(message.data);
      if (!frame) return;
      counts.received++;
      if (slot) counts.dropped++;
      slot = frame;
      events.received?.(frame);
      void pump();
    };
    ws.onclose = () => {
      if (socket === ws) socket = undefined;
      if (stopped) return;
      events.connection?.(false);
      // Reconnect with backoff; the server sends its latest frame on connect, so nothing is missed that matters.
      retryTimer = window.setTimeout(connect, Math.min(10_000, 500 * 2 ** retries++));
    };
  };
  connect();

  return {
    counts,
    hold() {
      held = true;
    },
    resume() {
      held = false;
      void pump();
    },
    stop() {
      stopped = true;
      window.clearTimeout(retryTimer);
      socket?.close();
      socket = undefined;
      slot = undefined;
    },
  };
}

/** Frames that took less than this follow each other without a pause. */
const CHEAP_FRAME_MS = 20;
/** The longest pause between two frames. */
const MAX_PAUSE_MS = 5_000;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function nextAnimationFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}
