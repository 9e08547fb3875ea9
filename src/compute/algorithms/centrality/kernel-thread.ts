// A worker thread of a kernel pool (threads.ts): loads one CPU kernel, keeps the pool's base arguments, and runs
// the kernel on each part the pool posts, answering through its port; flag[0] hands the turn back and forth
// (0 idle, 1 work posted, 2 answered, 3 close), flag[1] says the thread has started.
import { type MessagePort, receiveMessageOnPort, workerData } from "node:worker_threads";

const { module, name, base, flag, port } = workerData as {
  module: string;
  name: string;
  base: Record<string, unknown>;
  flag: Int32Array;
  port: MessagePort;
};

/** The buffers of the typed arrays in a result, moved rather than copied. */
function buffers(value: unknown): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  const visit = (v: unknown) => {
    if (ArrayBuffer.isView(v)) {
      if (v.buffer instanceof ArrayBuffer && !out.includes(v.buffer)) out.push(v.buffer);
    } else if (v && typeof v === "object") for (const item of Object.values(v)) visit(item);
  };
  visit(value);
  return out;
}

Atomics.store(flag, 1, 1);
const nap = new Int32Array(new SharedArrayBuffer(4));
let kernel: ((args: Record<string, unknown>) => unknown) | undefined;
let loadError = "";
try {
  kernel = (await import(module))[name] as (args: Record<string, unknown>) => unknown;
  if (typeof kernel !== "function") throw new Error(`${module} exports no function ${name}`);
} catch (error) {
  loadError = error instanceof Error ? error.message : String(error);
}
for (;;) {
  Atomics.wait(flag, 0, 0);
  const turn = Atomics.load(flag, 0);
  if (turn === 3) break;
  // Our last answer is not taken yet: wait until the pool takes it (0) or closes (3).
  if (turn === 2) {
    Atomics.wait(flag, 0, 2, 1000);
    continue;
  }
  // The flag can run ahead of the message it announces: wait for the message itself.
  let received = receiveMessageOnPort(port);
  while (!received && Atomics.load(flag, 0) !== 3) {
    Atomics.wait(nap, 0, 0, 0.2);
    received = receiveMessageOnPort(port);
  }
  if (!received) break;
  const part = received.message as Record<string, unknown>;
  try {
    if (typeof kernel !== "function")
      port.postMessage({ ok: false, load: true, error: `cannot load ${name} from ${module}: ${loadError}` });
    else {
      const result = kernel({ ...base, ...part });
      port.postMessage({ ok: true, result }, buffers(result));
    }
  } catch (error) {
    port.postMessage({ ok: false, error: error instanceof Error ? error.message : String(error) });
  }
  Atomics.store(flag, 0, 2);
  Atomics.notify(flag, 0);
}
port.close();
