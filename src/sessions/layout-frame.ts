// The binary frame of a live layout (WebSocket /graph/data/<session>/layout/stream): a header of 8 little-endian
// uint32 (magic "VLF1", seq, nodeCount, dims, iteration, maxIter, state, reserved), then nodeCount*dims float32
// positions, node-major (node i = row i of the session's node table).

export const FRAME_MAGIC = 0x31464c56;
export const FRAME_HEADER_BYTES = 32;

/** The job states as the frame carries them (and as GraphQL names them). */
export const LAYOUT_STATES = ["RUNNING", "PAUSED", "DONE", "STOPPED", "FAILED"] as const;
export type LayoutState = (typeof LAYOUT_STATES)[number];

export type FrameHeader = {
  seq: number;
  nodeCount: number;
  dims: number;
  iteration: number;
  /** 0: runs until stopped. */
  maxIter: number;
  state: LayoutState;
};

export type Frame = FrameHeader & { positions: Float32Array };

/** Writes the header into the first FRAME_HEADER_BYTES of `bytes` (a frame whose positions are already in place). */
export function writeHeader(bytes: Uint8Array, header: FrameHeader): Uint8Array {
  if (bytes.byteLength !== FRAME_HEADER_BYTES + header.nodeCount * header.dims * 4)
    throw new Error(
      `a frame of ${header.nodeCount} nodes in ${header.dims}D is ${FRAME_HEADER_BYTES + header.nodeCount * header.dims * 4} bytes`,
    );
  const view = new DataView(bytes.buffer, bytes.byteOffset, FRAME_HEADER_BYTES);
  const words = [
    FRAME_MAGIC,
    header.seq,
    header.nodeCount,
    header.dims,
    header.iteration,
    header.maxIter,
    LAYOUT_STATES.indexOf(header.state),
    0,
  ];
  for (const [i, word] of words.entries()) view.setUint32(i * 4, word >>> 0, true);
  return bytes;
}

/** An empty frame for `values` positions: the positions go at FRAME_HEADER_BYTES (4-byte aligned), the header later. */
export function allocateFrame(values: number): { bytes: Uint8Array; positions: Float32Array } {
  const buffer = new ArrayBuffer(FRAME_HEADER_BYTES + values * 4);
  return { bytes: new Uint8Array(buffer), positions: new Float32Array(buffer, FRAME_HEADER_BYTES, values) };
}

/** One frame's bytes (one copy of the positions). */
export function encodeFrame(header: FrameHeader, positions: Float32Array): Uint8Array {
  const frame = allocateFrame(positions.length);
  // Float32Array is little-endian on every platform Node runs on.
  frame.positions.set(positions);
  return writeHeader(frame.bytes, header);
}

/** The header of a frame, or undefined when the bytes are not one. */
export function decodeHeader(bytes: Uint8Array): FrameHeader | undefined {
  if (bytes.byteLength < FRAME_HEADER_BYTES) return undefined;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const word = (i: number) => view.getUint32(i * 4, true);
  const state = LAYOUT_STATES[word(6)];
  if (word(0) !== FRAME_MAGIC || !state) return undefined;
  const header = { seq: word(1), nodeCount: word(2), dims: word(3), iteration: word(4), maxIter: word(5), state };
  if (bytes.byteLength !== FRAME_HEADER_BYTES + header.nodeCount * header.dims * 4) return undefined;
  return header;
}

/** A frame read back (the positions copied out, so they are aligned). */
export function decodeFrame(bytes: Uint8Array): Frame | undefined {
  const header = decodeHeader(bytes);
  if (!header) return undefined;
  const positions = new Float32Array(header.nodeCount * header.dims);
  new Uint8Array(positions.buffer).set(bytes.subarray(FRAME_HEADER_BYTES));
  return { ...header, positions };
}
