// Messages between a live layout's worker thread (layout-worker.ts) and the job runner on the main thread.
import type { Backend } from "../compute/types.ts";

/** What the thread lays out: the dataset version's tables and bindings, the layout entry, where it starts. */
export type LayoutThreadInit = {
  nodesPath: string;
  edgesPath: string | undefined;
  nodeId: string;
  source: string;
  destination: string;
  edgeWeight?: string | undefined;
  library: string;
  algorithm: string;
  /** The checked parameters (defaults filled; node ids and column names as given: the thread resolves them). */
  params: Record<string, unknown>;
  directed: boolean;
  /** Start positions (node-major, `dims` per node), replacing the layout's seeded start. */
  initial?: Float32Array | undefined;
  backend: Backend;
  /** Positions are posted at most this often while running. */
  frameMs: number;
  /** Iterations an earlier thread of the same job did (a RESUME after its thread was let go): frames count on from them. */
  iterationOffset?: number;
};

export type LayoutThreadCommand =
  | { type: "pause" }
  | { type: "resume" }
  | { type: "params"; params: Record<string, unknown> }
  | { type: "stop" };

/** Why positions were posted: a running tick, or the answer to a command / the end. */
export type FrameReason = "tick" | "pause" | "resume" | "params" | "stop" | "done";

export type LayoutThreadReply =
  | { type: "ready"; nodeCount: number; dims: number }
  /** `frame`: a whole frame's bytes with the positions in place (layout-frame.ts); the runner writes the header. */
  | { type: "frame"; reason: FrameReason; iteration: number; frame: Uint8Array }
  | { type: "failed"; message: string; field?: string | undefined };
