// The OpenCL runtime addon itself: program cache, errors named after OpenCL with the build log, buffers in and
// out, typed arguments, Promise-returning waits, and kernels run from a worker thread.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import { describe, expect, it } from "vitest";
import { openclStatus } from "../../kernels/opencl/index.ts";
import { cl } from "../../kernels/opencl/runtime.ts";

const SOURCE = `
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
__kernel void axpy(const int n, const double a, __global const double* x, __global double* y) {
  const int i = get_global_id(0);
  if (i < n) y[i] = a * x[i] + y[i];
}
__kernel void count(const int n, __global int* out, const long big, const uint u) {
  const int i = get_global_id(0);
  if (i < n) out[i] = i + (int)(big >> 32) + (int)u;
}`;

describe.skipIf(!openclStatus().available)("OpenCL runtime addon", () => {
  it("compiles a program once per source and options", () => {
    const native = cl();
    const before = native.programs();
    native.build(SOURCE, "");
    native.build(SOURCE, "");
    expect(native.programs()).toBe(before + 1);
    native.build(SOURCE, "-DVARIANT=1");
    expect(native.programs()).toBe(before + 2);
  });

  it("moves typed arrays in and out and passes int, double, long and uint arguments", () => {
    const native = cl();
    const program = native.build(SOURCE, "");
    const axpy = native.kernel(program, "axpy");
    const x = native.buffer(new Float64Array([1, 2, 3]));
    const y = native.buffer(new Float64Array([10, 20, 30]));
    native.run(axpy, "idmm", [3, 2.5, x, y], 64, 64);
    const out = new Float64Array(3);
    native.read(y, out);
    expect(Array.from(out)).toEqual([12.5, 25, 37.5]);
    native.write(y, new Float64Array([1]), 8);
    native.read(y, out);
    expect(Array.from(out)).toEqual([12.5, 1, 37.5]);
    const ints = native.buffer(16);
    native.run(native.kernel(program, "count"), "imlu", [4, ints, 2 ** 33, 7], 4);
    const got = new Int32Array(4);
    native.read(ints, got);
    expect(Array.from(got)).toEqual([9, 10, 11, 12]);
    // A read-only buffer over a view inside a larger array (on a CPU device, the array's own memory).
    const backing = new Float64Array([100, 1, 2, 3, 100]);
    const view = native.buffer(backing.subarray(1, 4), true);
    native.write(y, new Float64Array([0, 0, 0]));
    native.run(axpy, "idmm", [3, 1, view, y], 3);
    native.read(y, out);
    expect(Array.from(out)).toEqual([1, 2, 3]);
    for (const b of [x, y, ints, view]) native.release(b);
  });

  it("names OpenCL errors and carries the build log", () => {
    const native = cl();
    let error: (Error & { code?: string }) | undefined;
    try {
      native.build("__kernel void broken(__global int* a) { a[0] = undeclared_name; }", "");
    } catch (e) {
      error = e as Error & { code?: string };
    }
    expect(error?.code).toBe("CL_BUILD_PROGRAM_FAILURE");
    expect(error?.message).toMatch(/clBuildProgram failed: CL_BUILD_PROGRAM_FAILURE \(-11\)/);
    expect(error?.message).toContain("undeclared_name");
    const program = native.build(SOURCE, "");
    expect(() => native.kernel(program, "missing")).toThrow(/CL_INVALID_KERNEL_NAME/);
    const b = native.buffer(8);
    native.release(b);
    expect(() => native.read(b, new Float64Array(1))).toThrow(/released/);
    const small = native.buffer(8);
    expect(() => native.read(small, new Float64Array(2))).toThrow(/outside the 8-byte buffer/);
    expect(() => native.run(native.kernel(program, "axpy"), "idmm", [1, 1, small], 1)).toThrow(/differ in length/);
    expect(() => native.run(native.kernel(program, "axpy"), "x", [1], 1)).toThrow(/unknown argument kind/);
    native.release(small);
  });

  it("waits off the event loop: runAsync, readAsync and finishAsync answer Promises", async () => {
    const native = cl();
    const program = native.build(SOURCE, "");
    const axpy = native.kernel(program, "axpy");
    const n = 1 << 20;
    const x = native.buffer(new Float64Array(n).fill(1));
    const y = native.buffer(new Float64Array(n));
    await native.runAsync(axpy, "idmm", [n, 2, x, y], n, 128);
    native.run(axpy, "idmm", [n, 3, x, y], n, 128);
    await native.finishAsync();
    const out = await native.readAsync(y, new Float64Array(n));
    expect(out[0]).toBe(5);
    expect(out[n - 1]).toBe(5);
    native.release(x);
    native.release(y);
  });

  it("runs kernels from worker threads at once (the addon is context-aware; each thread has its own queue)", async () => {
    const here = path.dirname(fileURLToPath(import.meta.url));
    // Three threads at once, sharing the process's context and program cache.
    const workers = [0, 1, 2].map(() => new Worker(path.join(here, "worker-pagerank.ts")));
    const answers = await Promise.all(
      workers.map(
        (worker) =>
          new Promise<{ same: boolean; iterations: number }>((resolve, reject) => {
            worker.once("message", resolve);
            worker.once("error", reject);
          }),
      ),
    );
    await Promise.all(workers.map((worker) => worker.terminate()));
    for (const answer of answers) {
      expect(answer).toEqual({ same: true, iterations: expect.any(Number) });
      expect(answer.iterations).toBeGreaterThan(3);
    }
  });
});
