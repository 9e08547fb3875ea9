// The TypeScript side of the OpenCL runtime addon (kernels/native): loads it, builds the .cl programs of cl/, and
// gives the kernel ports buffers, runs and reads with the buffers released when a port's call ends.
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** An opaque addon handle (program, kernel or buffer). */
export type Handle = { readonly __opencl: unique symbol };

export type DeviceInfo = {
  platform: string;
  name: string;
  type: string;
  version: string;
  fp64: boolean;
  computeUnits: number;
  maxWorkGroupSize: number;
  globalMemSize: number;
  maxAllocSize: number;
};

type TypedArray = Int32Array | Uint32Array | Float64Array | Float32Array | Uint8Array | Int8Array;

/** What kernels/native/src/runtime.c exports. Signatures: m buffer, i int32, u uint32, l int64, f float, d double, L local bytes. */
export type Native = {
  probe(): { ok: boolean; error?: string; platforms?: { name: string; devices: { name: string; type: string }[] }[] };
  device(): DeviceInfo;
  build(source: string, options: string): Handle;
  /** How many programs the process-wide cache holds. */
  programs(): number;
  kernel(program: Handle, name: string): Handle;
  /** readOnly: kernels only read it; on a CPU device the buffer then uses the array's memory (no copy). */
  buffer(sizeOrData: number | TypedArray, readOnly?: boolean): Handle;
  release(buffer: Handle): void;
  write(buffer: Handle, data: TypedArray, byteOffset?: number): void;
  read(buffer: Handle, into: TypedArray, byteOffset?: number): void;
  fill(buffer: Handle, pattern: TypedArray, byteOffset?: number, bytes?: number): void;
  copy(src: Handle, dst: Handle, bytes: number, srcOffset?: number, dstOffset?: number): void;
  run(kernel: Handle, signature: string, args: readonly unknown[], global: number, local?: number): void;
  finish(): void;
  runAsync(kernel: Handle, signature: string, args: readonly unknown[], global: number, local?: number): Promise<void>;
  finishAsync(): Promise<void>;
  readAsync<T extends TypedArray>(buffer: Handle, into: T, byteOffset?: number): Promise<T>;
};

const here = path.dirname(fileURLToPath(import.meta.url));
const ADDON = path.resolve(here, "../native/build/Release/opencl.node");

let loaded: { native: Native | null; error: string | undefined } | undefined;

/** The addon, or null (with the reason) when it is not built or cannot load. */
export function loadNative(): { native: Native | null; error: string | undefined } {
  if (loaded) return loaded;
  try {
    loaded = { native: createRequire(import.meta.url)(ADDON) as Native, error: undefined };
  } catch (error) {
    loaded = { native: null, error: `OpenCL runtime addon not built (npm run build:native): ${(error as Error).message.split("\n")[0]}` };
  }
  return loaded;
}

let device: { info: DeviceInfo | undefined; error: string | undefined } | undefined;

/** The device kernels run on (created once per process), or why there is none. */
export function clDevice(): { info: DeviceInfo | undefined; error: string | undefined } {
  if (device) return device;
  const { native, error } = loadNative();
  if (!native) device = { info: undefined, error };
  else {
    try {
      device = { info: native.device(), error: undefined };
    } catch (e) {
      device = { info: undefined, error: (e as Error).message };
    }
  }
  return device;
}

/** The addon, for ports that already checked clDevice(). */
export function cl(): Native {
  const { native, error } = loadNative();
  if (!native) throw new Error(error);
  return native;
}

/** Work-group size the ports use (reductions in local memory assume it): 128, or less where the device needs. */
export function workGroup(): number {
  const max = clDevice().info?.maxWorkGroupSize ?? 128;
  return Math.min(128, max);
}

/**
 * How many independent lanes (work-items each running whole searches) to run at once, and their group size: on a
 * CPU device a few per core, one per group; elsewhere many, 64 per group. At most `count`, and no more than
 * `bytesPerLane` of scratch each allows within a quarter of the device memory (and the largest allocation).
 */
export function lanes(count: number, bytesPerLane: number): { lanes: number; local: number } {
  const info = clDevice().info;
  const cpu = info?.type === "CPU";
  const wanted = cpu ? Math.max(1, (info?.computeUnits ?? 1) * 2) : 2048;
  const budget = Math.min((info?.globalMemSize ?? 2 ** 30) / 4, info?.maxAllocSize ?? 2 ** 28);
  const fit = Math.max(1, Math.floor(budget / Math.max(1, bytesPerLane)));
  const n = Math.max(1, Math.min(wanted, count, fit));
  const local = cpu ? 1 : Math.min(64, n);
  return { lanes: n, local };
}

const programs = new Map<string, Handle>();
const kernels = new Map<string, Handle>();

/** Kernel `name` of program cl/<file>.cl (cl/common.cl prepended; WG defined), built once per thread. */
export function kernel(file: string, name: string): Handle {
  const key = `${file}:${name}`;
  const found = kernels.get(key);
  if (found) return found;
  let program = programs.get(file);
  if (!program) {
    const source = readFileSync(path.join(here, "cl/common.cl"), "utf8") + readFileSync(path.join(here, `cl/${file}.cl`), "utf8");
    program = cl().build(source, `-DWG=${workGroup()}`);
    programs.set(file, program);
  }
  const k = cl().kernel(program, name);
  kernels.set(key, k);
  return k;
}

/** Rounds a work size up to whole work-groups. */
export function groups(items: number): number {
  const wg = workGroup();
  return Math.max(1, Math.ceil(items / wg));
}

/**
 * Buffers for one port call, all released by `done()` (call it in finally): device memory does not wait for the
 * garbage collector.
 */
export class Scope {
  private readonly held: Handle[] = [];
  private readonly native = cl();

  /** A buffer holding a copy of `data` (an empty array gets a small placeholder buffer). */
  input(data: TypedArray): Handle {
    const b = this.native.buffer(data);
    this.held.push(b);
    return b;
  }

  /**
   * A buffer kernels only read (graph structure, weights, parameters): on a CPU device (PoCL) it is the array's own
   * memory, no copy; elsewhere a copy. The array must not change while the scope lives.
   */
  readOnly(data: TypedArray): Handle {
    const b = this.native.buffer(data, true);
    this.held.push(b);
    return b;
  }

  /** An uninitialized buffer of `bytes`. */
  alloc(bytes: number): Handle {
    const b = this.native.buffer(bytes);
    this.held.push(b);
    return b;
  }

  /** A buffer of `count` copies of one value (pattern: a one-element typed array). */
  filled(pattern: TypedArray, count: number): Handle {
    const b = this.alloc(pattern.byteLength * count);
    if (count > 0) this.native.fill(b, pattern, 0, pattern.byteLength * count);
    return b;
  }

  /** Sets every element of a buffer to `pattern`'s one value. */
  fillWith(buffer: Handle, pattern: TypedArray): void {
    this.native.fill(buffer, pattern);
  }

  /** Enqueues kernel `name` of cl/<file>.cl over `items` work-items (rounded up to whole groups). */
  run(file: string, name: string, signature: string, args: readonly unknown[], items: number): void {
    const wg = workGroup();
    this.native.run(kernel(file, name), signature, args, groups(items) * wg, wg);
  }

  /**
   * Enqueues kernel `name` over exactly `items` work-items in groups of `local` (lanes kernels: on a CPU device one
   * work-group runs on one core, so independent lanes go one per group there).
   */
  runGroups(file: string, name: string, signature: string, args: readonly unknown[], items: number, local: number): void {
    this.native.run(kernel(file, name), signature, args, Math.ceil(items / local) * local, local);
  }

  read<T extends TypedArray>(buffer: Handle, into: T): T {
    this.native.read(buffer, into);
    return into;
  }

  write(buffer: Handle, data: TypedArray): void {
    this.native.write(buffer, data);
  }

  done(): void {
    for (const b of this.held) this.native.release(b);
    this.held.length = 0;
  }
}
