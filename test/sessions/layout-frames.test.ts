// The live layout frame: its bytes (the protocol's header, little-endian), the fan-out's rate cap (at most one frame
// per frameMs, the newest wins, the last always goes), and a slow socket skipping to the newest frame.
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createFrameSender, type FrameSocket } from "../../src/server/layout-stream.ts";
import { createLayoutFanout } from "../../src/sessions/layout-fanout.ts";
import { decodeFrame, decodeHeader, encodeFrame, FRAME_MAGIC } from "../../src/sessions/layout-frame.ts";

const frame = (seq: number, n = 3) =>
  encodeFrame({ seq, nodeCount: n, dims: 2, iteration: seq, maxIter: 0, state: "RUNNING" }, new Float32Array(n * 2).fill(seq));

describe("frame bytes", () => {
  it("writes the 8-word little-endian header, then the positions node-major", () => {
    const positions = Float32Array.from([1.5, -2, 3, 4.25]);
    const bytes = encodeFrame({ seq: 7, nodeCount: 2, dims: 2, iteration: 41, maxIter: 500, state: "PAUSED" }, positions);
    expect(bytes.byteLength).toBe(32 + 16);
    const view = new DataView(bytes.buffer);
    expect(Array.from({ length: 8 }, (_, i) => view.getUint32(i * 4, true))).toEqual([FRAME_MAGIC, 7, 2, 2, 41, 500, 1, 0]);
    expect(new TextDecoder().decode(bytes.subarray(0, 4))).toBe("VLF1");
    expect([0, 1, 2, 3].map((i) => view.getFloat32(32 + i * 4, true))).toEqual([1.5, -2, 3, 4.25]);
    expect(decodeFrame(bytes)).toEqual({ seq: 7, nodeCount: 2, dims: 2, iteration: 41, maxIter: 500, state: "PAUSED", positions });
  });

  it("numbers the states as the protocol does", () => {
    const states = ["RUNNING", "PAUSED", "DONE", "STOPPED", "FAILED"] as const;
    for (const [code, state] of states.entries()) {
      const bytes = encodeFrame({ seq: 1, nodeCount: 0, dims: 2, iteration: 0, maxIter: 0, state }, new Float32Array(0));
      expect(new DataView(bytes.buffer).getUint32(24, true)).toBe(code);
    }
  });

  it("refuses bytes that are not a frame", () => {
    const bytes = frame(1);
    const wrongMagic = bytes.slice();
    wrongMagic[0] = 0;
    expect(decodeHeader(wrongMagic)).toBeUndefined();
    expect(decodeHeader(bytes.subarray(0, bytes.byteLength - 4))).toBeUndefined();
    expect(decodeHeader(bytes.subarray(0, 16))).toBeUndefined();
    expect(() => encodeFrame({ seq: 1, nodeCount: 3, dims: 2, iteration: 0, maxIter: 0, state: "DONE" }, new Float32Array(5))).toThrow();
  });
});

describe("fan-out and socket sender", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("sends at most one frame per frameMs on average; a burst sends the first, then only the newest", () => {
    const fanout = createLayoutFanout({ frameMs: 50 });
    const got: number[] = [];
    fanout.subscribe("s", (bytes) => got.push(decodeHeader(bytes)?.seq ?? -1));
    for (let seq = 1; seq <= 5; seq++) fanout.publish("s", frame(seq));
    expect(got).toEqual([1]);
    vi.advanceTimersByTime(60);
    expect(got).toEqual([1, 5]);
    expect(decodeHeader(fanout.latest("s") as Uint8Array)?.seq).toBe(5);

    // A frame every 10 ms for a second: about 20 go, never two closer than 25 ms, and the last one goes.
    const times: number[] = [];
    fanout.subscribe("t", () => times.push(Date.now()));
    for (let seq = 1; seq <= 100; seq++) {
      fanout.publish("t", frame(seq));
      vi.advanceTimersByTime(10);
    }
    vi.advanceTimersByTime(100);
    expect(times.length).toBeGreaterThanOrEqual(19);
    expect(times.length).toBeLessThanOrEqual(22);
    for (let i = 1; i < times.length; i++) expect((times[i] as number) - (times[i - 1] as number)).toBeGreaterThanOrEqual(25);
    expect(decodeHeader(fanout.latest("t") as Uint8Array)?.seq).toBe(100);
    fanout.close();
  });

  it("keeps a finished job's last frame only while pages listen; a new job forgets it", () => {
    const fanout = createLayoutFanout({ frameMs: 50 });
    const stop = fanout.subscribe("s", () => {});
    fanout.publish("s", frame(1));
    fanout.ended("s");
    expect(fanout.latest("s")).toBeDefined();
    stop();
    expect(fanout.latest("s")).toBeUndefined();
    fanout.publish("r", frame(2));
    fanout.reset("r");
    expect(fanout.latest("r")).toBeUndefined();
  });

  it("skips to the newest frame while the socket has more than two frames buffered, never queueing", () => {
    const sent: number[] = [];
    const socket = { readyState: 1, OPEN: 1, bufferedAmount: 0, send: (bytes: Uint8Array) => sent.push(decodeHeader(bytes)?.seq ?? -1) };
    const sender = createFrameSender(socket as FrameSocket, 50);
    sender.offer(frame(1));
    socket.bufferedAmount = 10_000;
    for (let seq = 2; seq <= 6; seq++) sender.offer(frame(seq));
    expect(sent).toEqual([1]);
    vi.advanceTimersByTime(50);
    expect(sent).toEqual([1]);
    socket.bufferedAmount = 0;
    sender.offer(frame(7));
    vi.advanceTimersByTime(50);
    expect(sent).toEqual([1, 7]);
    expect(sender.counts()).toEqual({ sent: 2, skipped: 5 });
    sender.close();
  });
});
