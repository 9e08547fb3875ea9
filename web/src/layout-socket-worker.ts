// The layout stream's socket, in a worker of its own: the frames arrive here (at 100k nodes, 400 KB ten times a
// second: receiving them cost the page's main thread about a quarter of its time, for frames it mostly drops), the
// newest waits in one slot, and the page takes it when it can draw it (one message per drawn frame, its buffer
// transferred, not copied). Messages in: open (url), next, stop. Out: frame (buffer, when it arrived, counts), connection (open).
import { pageClock, parseFrame } from "./layout-frames.ts";

export type SocketCounts = { received: number; dropped: number };
export type ToSocketWorker = { type: "open"; url: string } | { type: "next" } | { type: "stop" };
export type FromSocketWorker =
  | { type: "frame"; buffer: ArrayBuffer; arrivedAt: number; counts: SocketCounts }
  | { type: "connection"; open: boolean };

const scope = self as unknown as {
  onmessage: ((event: MessageEvent<ToSocketWorker>) => void) | null;
  postMessage(message: FromSocketWorker, transfer?: Transferable[]): void;
  close(): void;
};

const counts: SocketCounts = { received: 0, dropped: 0 };
let slot: ArrayBuffer | undefined;
/** When the slot's frame came off the socket, on the clock every thread of the page shares (see `pageClock`). */
let slotArrivedAt = 0;
/** The page asked for a frame and has none yet: the next one goes to it as it arrives. */
let wanted = false;
let url = "";
let socket: WebSocket | undefined;
let stopped = false;
let retries = 0;
let retryTimer: ReturnType<typeof setTimeout> | undefined;

const hand = () => {
  if (!wanted || !slot) return;
  const buffer = slot;
  slot = undefined;
  wanted = false;
  scope.postMessage({ type: "frame", buffer, arrivedAt: slotArrivedAt, counts: { ...counts } }, [buffer]);
};

const connect = () => {
  if (stopped) return;
  const ws = new WebSocket(url);
  ws.binaryType = "arraybuffer";
  socket = ws;
  ws.onopen = () => {
    retries = 0;
    scope.postMessage({ type: "connection", open: true });
  };
  ws.onmessage = (message) => {
    if (!(message.data instanceof ArrayBuffer) || !parseFrame(message.data)) return;
    counts.received++;
    if (slot) counts.dropped++;
    slot = message.data;
    slotArrivedAt = pageClock();
    hand();
  };
  ws.onclose = () => {
    if (socket === ws) socket = undefined;
    if (stopped) return;
    scope.postMessage({ type: "connection", open: false });
    // Reconnect with backoff; the server sends its latest frame on connect, so nothing is missed that matters.
    retryTimer = setTimeout(connect, Math.min(10_000, 500 * 2 ** retries++));
  };
};

scope.onmessage = ({ data }) => {
  if (data.type === "open") {
    url = data.url;
    connect();
  } else if (data.type === "next") {
    wanted = true;
    hand();
  } else {
    stopped = true;
    clearTimeout(retryTimer);
    socket?.close();
    slot = undefined;
    scope.close();
  }
};
