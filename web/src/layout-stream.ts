// Listens to the session's layout stream (a WebSocket of binary frames, received in a worker: layout-socket-worker.ts)
// and hands the page only the newest frame: frames that arrive while one is being applied replace each other in the
// worker's slot, so none ever queue up, and the page takes the next only when it has drawn the last.
import { type LayoutFrame, parseFrame } from "./layout-frames.ts";
import type { FromSocketWorker, ToSocketWorker } from "./layout-socket-worker.ts";

export type StreamCounts = { received: number; applied: number; dropped: number };

export type LayoutStreamEvents = {
  /**
   * Draws one frame; the stream waits for it (and one animation frame after it) before handing over the next.
   * `arrivedAt` is when it came off the socket (`pageClock`), which can be well before it is handed over.
   */
  apply(frame: LayoutFrame, arrivedAt: number): void | Promise<void>;
  /** Every frame handed to the page, as it arrives from the socket's worker (frames the worker dropped never come). */
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
  let slot: { frame: LayoutFrame; arrivedAt: number } | undefined;
  let applying = false;
  let held = false;
  let stopped = false;
  /** A frame was asked of the socket's worker and has not come yet. */
  let asked = false;
  // The socket lives in a worker (layout-socket-worker.ts): frames the page will not draw never reach this thread.
  const worker = new Worker(new URL("./layout-socket-worker.ts", import.meta.url), { type: "module" });
  const tell = (message: ToSocketWorker) => worker.postMessage(message);

  const pump = async () => {
    if (applying || held || stopped) return;
    if (!slot) {
      if (!asked) {
        asked = true;
        tell({ type: "next" });
      }
      return;
    }
    applying = true;
    const { frame, arrivedAt } = slot;
    slot = undefined;
    try {
      const started = performance.now();
      await events.apply(frame, arrivedAt);
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

  worker.onmessage = ({ data }: MessageEvent<FromSocketWorker>) => {
    if (stopped) return;
    if (data.type === "connection") {
      events.connection?.(data.open);
      return;
    }
    asked = false;
    const frame = parseFrame(data.buffer);
    counts.received = data.counts.received;
    counts.dropped = data.counts.dropped;
    if (!frame) return;
    slot = { frame, arrivedAt: data.arrivedAt };
    events.received?.(frame);
    void pump();
  };
  tell({ type: "open", url: streamUrl(sessionId) });
  void pump();

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
      slot = undefined;
      tell({ type: "stop" });
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
