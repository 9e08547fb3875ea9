// The worker thread of one live layout: reads the dataset version's tables and CSR (as compute workers do), runs
// the layout step by step, and posts its positions (transferred Float32Arrays) at most every frameMs, on each
// command, and at the end. Commands (pause, resume, params, stop) arrive between steps.
import { parentPort, workerData } from "node:worker_threads";
import pl from "nodejs-polars";
import { loadAlgorithms } from "../compute/algorithm-lookup.ts";
import { createComputeContext } from "../compute/backend.ts";
import { computeGraphOf } from "../compute/graph-from-tables.ts";
import { type ParsedEntry, resolveParams } from "../compute/params.ts";
import { ComputeInputError } from "../compute/types.ts";
import { isAppError } from "../errors/app-error.ts";
import type { LayoutIteration } from "../layout/types.ts";
import { findAnyLayout, maxIterOf } from "./layout-entry.ts";
import { allocateFrame } from "./layout-frame.ts";
import type { FrameReason, LayoutThreadCommand, LayoutThreadInit, LayoutThreadReply } from "./layout-thread-messages.ts";

const init = workerData as LayoutThreadInit;
const port = parentPort;
if (!port) throw new Error("layout-worker.ts runs as a worker thread");

const post = (reply: LayoutThreadReply, transfer: ArrayBuffer[] = []) => port.postMessage(reply, transfer);

function failed(error: unknown): void {
  if (error instanceof ComputeInputError) post({ type: "failed", message: error.message, field: error.field });
  else if (isAppError(error)) post({ type: "failed", message: error.message, field: error.details?.field as string | undefined });
  else post({ type: "failed", message: error instanceof Error ? error.message : String(error) });
}

/** The columns of a stored table the layout reads (the ids, the edge ends and weight, column parameters), no more. */
function readColumns(path: string, wanted: (string | undefined)[]): pl.DataFrame {
  const scan = pl.scanIPC(path);
  const present = new Set(scan.columns);
  const columns = [...new Set(wanted.filter((c): c is string => c !== undefined && present.has(c)))];
  return (columns.length > 0 ? scan.select(...columns) : scan).collectSync();
}

async function open(): Promise<{ iteration: LayoutIteration; params: Record<string, unknown> }> {
  await loadAlgorithms();
  const entry = findAnyLayout(init.library, init.algorithm);
  if (!entry?.start) throw new Error(`${init.library} ${init.algorithm} does not run step by step`);
  const columnParams = (type: "nodeColumn" | "edgeColumn") =>
    Object.entries(entry.params)
      .filter(([name, spec]) => spec.type === type && typeof init.params[name] === "string")
      .map(([name]) => init.params[name] as string);
  const nodes = readColumns(init.nodesPath, [init.nodeId, ...columnParams("nodeColumn")]);
  const edges = init.edgesPath
    ? readColumns(init.edgesPath, [init.source, init.destination, init.edgeWeight, ...columnParams("edgeColumn")])
    : undefined;
  const tables = { nodes, edges, nodeId: init.nodeId, source: init.source, destination: init.destination, edgeWeight: init.edgeWeight };
  const graph = computeGraphOf(tables, init.directed);
  const parsed: ParsedEntry = { label: "layout", field: "layout", entry, params: init.params, directed: init.directed };
  const params = resolveParams(parsed, tables);
  const initial = init.initial && init.initial.length === graph.n * entry.dims ? init.initial : undefined;
  const ctx = createComputeContext({ backend: init.backend });
  return { iteration: entry.start(graph, params, ctx, initial), params };
}

let paused = false;
const offset = init.iterationOffset ?? 0;
let stopping = false;
let wake: (() => void) | undefined;
const commands: LayoutThreadCommand[] = [];

port.on("message", (command: LayoutThreadCommand) => {
  commands.push(command);
  wake?.();
});

/** Waits for the next command (while paused). */
const nextCommand = () =>
  new Promise<void>((resolve) => {
    wake = () => {
      wake = undefined;
      resolve();
    };
  });

/** Lets queued messages in between steps. */
const yieldToMessages = () => new Promise<void>((resolve) => setImmediate(resolve));

async function main(): Promise<void> {
  const { iteration: layout } = await open();
  let params: Record<string, unknown> = { ...init.params };
  let maxIter = maxIterOf(params);
  const n = layout.positions().length / layout.dims;
  post({ type: "ready", nodeCount: n, dims: layout.dims });
  const send = (reason: FrameReason) => {
    // positions() may be a view reused by the layout: copy it into a frame's bytes, transferred (no second copy).
    const positions = layout.positions();
    const frame = allocateFrame(positions.length);
    frame.positions.set(positions);
    post({ type: "frame", reason, iteration: offset + layout.iteration, frame: frame.bytes }, [frame.bytes.buffer as ArrayBuffer]);
  };
  send("tick");
  // Ticks are due every frameMs (a late one moves the next no later than frameMs after it).
  let due = Date.now() + init.frameMs;
  try {
    while (!stopping) {
      for (let command = commands.shift(); command; command = commands.shift()) {
        if (command.type === "stop") {
          stopping = true;
          send("stop");
          break;
        }
        if (command.type === "pause") paused = true;
        else if (command.type === "resume") paused = false;
        else {
          layout.setParams?.(command.params);
          params = { ...params, ...command.params };
          maxIter = maxIterOf(params);
        }
        send(command.type);
        due = Date.now() + init.frameMs;
      }
      if (stopping) break;
      if (maxIter > 0 && offset + layout.iteration >= maxIter) {
        send("done");
        break;
      }
      if (paused) {
        await nextCommand();
        continue;
      }
      layout.step();
      const now = Date.now();
      if (now >= due) {
        send("tick");
        due = Math.max(due + init.frameMs, now);
      }
      await yieldToMessages();
    }
  } finally {
    layout.dispose?.();
  }
}

main().then(
  () => port.close(),
  (error: unknown) => {
    failed(error);
    port.close();
  },
);
