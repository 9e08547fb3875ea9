// Which compute backend runs the kernels (COMPUTE_BACKEND=auto|opencl|cpu) and the run context algorithms receive.
import { openclKernel, openclStatus } from "../../kernels/opencl/index.ts";
import { type Backend, ComputeCancelled, type ComputeContext, type Progress } from "./types.ts";

export type BackendSetting = "auto" | "opencl" | "cpu";
export type ResolvedBackend = { backend: Backend; reason: string };

/**
 * The backend compute uses for a setting, and why:
 * - cpu: the CPU twins;
 * - auto: OpenCL when the addon loads, a context exists on some device (GPU first) and it has fp64, else the CPU;
 * - opencl: the same, but a machine where OpenCL cannot run falls back to the CPU rather than refusing to start
 *   (compute still answers); the reason says so, and health checks show it.
 */
export function resolveBackend(setting: BackendSetting): ResolvedBackend {
  if (setting === "cpu") return { backend: "cpu", reason: "COMPUTE_BACKEND=cpu: CPU kernels" };
  const status = openclStatus();
  if (status.available) return { backend: "opencl", reason: `COMPUTE_BACKEND=${setting}: OpenCL kernels on ${status.device}` };
  const why = status.error ?? "no OpenCL device";
  if (setting === "opencl") {
    return { backend: "cpu", reason: `COMPUTE_BACKEND=opencl, but OpenCL cannot run here (${why}): falling back to the CPU kernels` };
  }
  return { backend: "cpu", reason: `COMPUTE_BACKEND=auto: no usable OpenCL (${why}): CPU kernels` };
}

export type ComputeContextOptions = {
  backend: Backend;
  onProgress?: (p: Progress) => void;
  /** True once the job is cancelled; checkCancelled then throws ComputeCancelled. */
  cancelled?: () => boolean;
};

/**
 * OpenCL failures that say "this device cannot run it" rather than "the kernel is wrong": the graph does not fit
 * the device's memory, or the device's compiler refuses a program (an extension it lacks, such as 64-bit atomics).
 * The CPU twin runs instead; the kernel suites run every port on PoCL, so a real bug still fails there.
 */
const DEVICE_CANNOT = new Set([
  "CL_MEM_OBJECT_ALLOCATION_FAILURE",
  "CL_OUT_OF_RESOURCES",
  "CL_OUT_OF_HOST_MEMORY",
  "CL_INVALID_BUFFER_SIZE",
  "CL_BUILD_PROGRAM_FAILURE",
]);

export function withCpuFallback<A, R>(port: (args: A) => R, cpu: (args: A) => R): (args: A) => R {
  return (args) => {
    try {
      return port(args);
    } catch (error) {
      if (DEVICE_CANNOT.has((error as { code?: string }).code ?? "")) return cpu(args);
      throw error;
    }
  };
}

/**
 * The context an algorithm runs with: on the opencl backend `kernel(name, cpu)` answers the kernel's OpenCL version
 * where one exists (the CPU twin otherwise, or when the device cannot run it: out of memory for this graph, a
 * program its compiler refuses); progress reports; cancellation.
 */
export function createComputeContext(options: ComputeContextOptions): ComputeContext {
  const { backend, onProgress, cancelled } = options;
  return {
    backend,
    kernel: <A, R>(name: string, cpu: (args: A) => R): ((args: A) => R) => {
      if (backend !== "opencl") return cpu;
      const port = openclKernel(name) as ((args: A) => R) | undefined;
      return port ? withCpuFallback(port, cpu) : cpu;
    },
    progress: (p) => onProgress?.(p),
    checkCancelled: () => {
      if (cancelled?.()) throw new ComputeCancelled();
    },
  };
}
