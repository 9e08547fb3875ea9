// The backends a kernel spec suite runs on: cpu always, opencl where a device with fp64 exists here (and always in CI).
import { openclKernel, openclStatus } from "../../kernels/opencl/index.ts";

export type KernelBackend = "cpu" | "opencl";

const status = openclStatus();
if (process.env.CI && !status.available) throw new Error(`CI must run the OpenCL kernels: ${status.error}`);

export const backends: KernelBackend[] = status.available ? ["cpu", "opencl"] : ["cpu"];

/** Kernel `name` on `backend`: the CPU twin, or its OpenCL version (which must exist). */
export function kernelOn<A, R>(backend: KernelBackend, name: string, cpu: (args: A) => R): (args: A) => R {
  if (backend === "cpu") return cpu;
  const port = openclKernel(name);
  if (!port) throw new Error(`kernel ${name} has no OpenCL version`);
  return port as (args: A) => R;
}
