// Runs one CPU kernel on several parts at once, synchronously (algorithms run synchronously in their compute
// worker): part 0 in this thread, the others in pool threads that keep the kernel and its base arguments (the CSR
// arrays, sent once) between calls. Used only on the CPU backend and only for work large enough to pay for it.
import { availableParallelism } from "node:os";
import { MessageChannel, type MessagePort, receiveMessageOnPort, Worker } from "node:worker_threads";

export type KernelPool<A, R> = {
  /** Threads in all, this one included. */
  size: number;
  /** Runs the kernel on base + parts[i] for each i (at most `size` parts), part 0 here; answers in order. */
  run(parts: Partial<A>[]): R[];
  close(): void;
};

/** How many threads a pool may use here: the cores, at most 8 (COMPUTE_THREADS overrides; 1 turns pools off). */
export function poolThreads(): number {
  const env = Number(process.env.COMPUTE_THREADS);
  if (Number.isInteger(env) && env >= 1) return env;
  return Math.max(1, Math.min(8, availableParallelism()));
}

/** The work above which a pool pays for its start-up: `fallback`, or COMPUTE_POOL_MIN_WORK when set (tests). */
export function poolMinimum(fallback: number): number {
  const env = Number(process.env.COMPUTE_POOL_MIN_WORK);
  return Number.isFinite(env) && env >= 0 && process.env.COMPUTE_POOL_MIN_WORK !== undefined ? env : fallback;
}

type Member = { worker: Worker; flag: Int32Array; port: MessagePort; dead: boolean };

const nap = new Int32Array(new SharedArrayBuffer(4));

/** A thread that has not started after this long is given up on and its part run here. */
const START_MS = 30_000;

/** Pool threads started by this process (tests check that a pool really ran). */
export const poolCounters = { threadsStarted: 0 };

type Typed = Int32Array | Float64Array | Float32Array | Uint8Array | Uint32Array | Int8Array | Int16Array | Uint16Array;

/**
 * The base arguments with every typed array in shared memory: the threads then read one copy (made once here,
 * for arrays not already shared) instead of a copy each.
 */
function inSharedMemory<A extends object>(base: A): A {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(base)) {
    if (ArrayBuffer.isView(value) && !(value instanceof DataView) && !(value.buffer instanceof SharedArrayBuffer)) {
      const typed = value as Typed;
      const Kind = typed.constructor as new (buffer: SharedArrayBuffer) => Typed;
      const copy = new Kind(new SharedArrayBuffer(typed.byteLength));
      copy.set(typed as never);
      out[key] = copy;
    } else out[key] = value;
  }
  return out as A;
}

export function kernelPool<A extends object, R>(module: URL, name: string, base: A, local: (args: A) => R, size: number): KernelPool<A, R> {
  const members: Member[] = [];
  if (size > 1) base = inSharedMemory(base);
  for (let i = 1; i < size; i++) {
    const flag = new Int32Array(new SharedArrayBuffer(8));
    const { port1, port2 } = new MessageChannel();
    const worker = new Worker(new URL("./kernel-thread.ts", import.meta.url), {
      workerData: { module: module.href, name, base, flag, port: port2 },
      transferList: [port2],
    });
    worker.unref();
    poolCounters.threadsStarted++;
    members.push({ worker, flag, port: port1, dead: false });
  }
  return {
    size,
    run(parts) {
      if (parts.length > size) throw new Error(`a pool of ${size} threads takes at most ${size} parts`);
      const posted: boolean[] = [];
      for (let i = 1; i < parts.length; i++) {
        const member = members[i - 1] as Member;
        posted[i] = !member.dead;
        if (member.dead) continue;
        // The turn first, then the message: a thread still waiting for a message from its last turn may take this one
        // at once, and its answer (2) must not be overwritten by this store.
        Atomics.store(member.flag, 0, 1);
        member.port.postMessage(parts[i]);
        Atomics.notify(member.flag, 0);
      }
      const results: R[] = [local({ ...base, ...parts[0] } as A)];
      let failure: string | undefined;
      for (let i = 1; i < parts.length; i++) {
        const member = members[i - 1] as Member;
        const since = Date.now();
        while (posted[i] && Atomics.load(member.flag, 0) !== 2) {
          Atomics.wait(member.flag, 0, 1, 1000);
          if (Atomics.load(member.flag, 1) === 0 && Date.now() - since > START_MS) {
            member.dead = true;
            posted[i] = false;
          }
        }
        if (!posted[i]) {
          results.push(local({ ...base, ...parts[i] } as A));
          continue;
        }
        Atomics.store(member.flag, 0, 0);
        Atomics.notify(member.flag, 0);
        // The flag can run ahead of the answer it announces: wait for the answer itself (a few milliseconds).
        let received = receiveMessageOnPort(member.port);
        for (let tries = 0; !received && tries < 50_000; tries++) {
          Atomics.wait(nap, 0, 0, 0.2);
          received = receiveMessageOnPort(member.port);
        }
        const answer = received?.message as { ok: true; result: R } | { ok: false; load?: boolean; error: string } | undefined;
        if (answer && !answer.ok && answer.load) {
          // The thread cannot load the kernel (a runtime without TypeScript workers): this thread runs the part.
          member.dead = true;
          results.push(local({ ...base, ...parts[i] } as A));
        } else if (!answer) failure = "a pool thread answered nothing";
        else if (!answer.ok) failure = answer.error;
        else results.push(answer.result);
      }
      if (failure !== undefined) throw new Error(`kernel ${name} failed in a pool thread: ${failure}`);
      return results;
    },
    close() {
      for (const member of members) {
        if (member.dead) void member.worker.terminate();
        Atomics.store(member.flag, 0, 3);
        Atomics.notify(member.flag, 0);
        member.port.close();
      }
    },
  };
}
