// The server layout stream's binary frame: a header of 8 little-endian uint32, then node-major float32 positions.

export const FRAME_MAGIC = 0x31464c56;
export const FRAME_HEADER_BYTES = 32;

export type LayoutJobState = "running" | "paused" | "done" | "stopped" | "failed";

/** The header's state codes, in order (0 running .. 4 failed). */
export const FRAME_STATES: readonly LayoutJobState[] = ["running", "paused", "done", "stopped", "failed"];

export type LayoutFrame = {
  seq: number;
  nodeCount: number;
  dims: number;
  iteration: number;
  /** 0 when the layout is open-ended. */
  maxIter: number;
  state: LayoutJobState;
  /** nodeCount * dims values, node i = row i of the node table; a view on the message where the host allows it. */
  positions: Float32Array;
};

const littleEndianHost = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Reads one message; undefined when it is not a frame (wrong magic, short, or sizes that do not add up). */
export function parseFrame(buffer: ArrayBuffer): LayoutFrame | undefined {
  if (buffer.byteLength < FRAME_HEADER_BYTES) return undefined;
  const header = new DataView(buffer, 0, FRAME_HEADER_BYTES);
  const word = (k: number) => header.getUint32(k * 4, true);
  if (word(0) !== FRAME_MAGIC) return undefined;
  const nodeCount = word(2);
  const dims = word(3);
  const state = FRAME_STATES[word(6)];
  if (!state || dims < 1 || dims > 3) return undefined;
  const values = nodeCount * dims;
  if (buffer.byteLength < FRAME_HEADER_BYTES + values * 4) return undefined;
  return {
    seq: word(1),
    nodeCount,
    dims,
    iteration: word(4),
    maxIter: word(5),
    state,
    positions: floats(buffer, values),
  };
}

function floats(buffer: ArrayBuffer, count: number): Float32Array {
  if (littleEndianHost) return new Float32Array(buffer, FRAME_HEADER_BYTES, count);
  const view = new DataView(buffer, FRAME_HEADER_BYTES);
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) out[i] = view.getFloat32(i * 4, true);
  return out;
}

/** Builds a frame as the server sends it (the page's tests and the harness use it). */
export function encodeFrame(frame: Omit<LayoutFrame, "positions"> & { positions: ArrayLike<number> }): ArrayBuffer {
  const buffer = new ArrayBuffer(FRAME_HEADER_BYTES + frame.positions.length * 4);
  const view = new DataView(buffer);
  const words = [FRAME_MAGIC, frame.seq, frame.nodeCount, frame.dims, frame.iteration, frame.maxIter, FRAME_STATES.indexOf(frame.state), 0];
  for (const [k, value] of words.entries()) view.setUint32(k * 4, value, true);
  for (let i = 0; i < frame.positions.length; i++) view.setFloat32(FRAME_HEADER_BYTES + i * 4, frame.positions[i] ?? 0, true);
  return buffer;
}

/** x,y per node from a frame of any dimension (a 3D frame drops z; a 2D one is answered as it is). */
export function planarPositions(frame: LayoutFrame): Float32Array {
  if (frame.dims === 2) return frame.positions;
  const out = new Float32Array(frame.nodeCount * 2);
  for (let i = 0; i < frame.nodeCount; i++) {
    out[i * 2] = frame.positions[i * frame.dims] ?? 0;
    out[i * 2 + 1] = frame.dims > 1 ? (frame.positions[i * frame.dims + 1] ?? 0) : 0;
  }
  return out;
}

/**
 * Now, in milliseconds since the epoch at the resolution of `performance.now()`: the page's main thread and its
 * workers share this clock (each has its own `performance.now()` origin), so a frame's arrival in the socket's worker
 * and a job answer's arrival on the main thread can be put in order.
 */
export function pageClock(): number {
  return performance.timeOrigin + performance.now();
}
