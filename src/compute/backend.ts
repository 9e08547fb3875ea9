// Which compute backend runs the kernels (COMPUTE_BACKEND=auto|opencl|cpu) and the run context algorithms receive.
import { type Backend, ComputeCancelled, type ComputeContext, type Progress } from "./types.ts";

export type BackendSetting = "auto" | "opencl" | "cpu";
export type ResolvedBackend = { backend: Backend; reason: string };

/**
 * The backend compute uses for a setting. This first version has no OpenCL runtime yet: every setting runs on the
 * CPU twins and says why.
 */
export function resolveBackend(setting: BackendSetting): ResolvedBackend {
  if (setting === "cpu") return { backend: "cpu", reason: "COMPUTE_BACKEND=cpu" };
  return { backend: "cpu", reason: `COMPUTE_BACKEND=${setting}, but no OpenCL runtime is available: CPU kernels` };
}

export type ComputeContextOptions = {
  backend: Backend;
  onProgress?: (p: Progress) => void;
  /** True once the job is cancelled; checkCancelled then throws ComputeCancelled. */
  cancelled?: () => boolean;
};

/** The context an algorithm runs with: kernels of the chosen backend, progress reports, cancellation. */
export function createComputeContext(options: ComputeContextOptions): ComputeContext {
  const { onProgress, cancelled } = options;
  return {
    backend: "cpu",
    kernel: (_name, cpu) => cpu,
    progress: (p) => onProgress?.(p),
    checkCancelled: () => {
      if (cancelled?.()) throw new ComputeCancelled();
    },
  };
}
