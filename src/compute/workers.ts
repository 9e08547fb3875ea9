// The compute workers this process offers: the CPU backend always, an OpenCL one when a context works; each says
// whether compute uses it (COMPUTE_BACKEND, resolved by backend.ts) and why.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { type BackendSetting, type ResolvedBackend, resolveBackend } from "./backend.ts";
import { type OpenClProbe, probeOpenCl } from "./opencl-probe.ts";

export type WorkerStatus = {
  id: string;
  backend: "cpu" | "opencl";
  ready: boolean;
  /** True for the backend compute jobs run on. */
  selected: boolean;
  clContextHealthy: boolean;
  detail: string;
  devices: string[];
};

export type ComputeWorkers = ReturnType<typeof createComputeWorkers>;

/** A worker is not ready for routing when the event loop it runs on is stalled this long (p99). */
const STALL_MS = 2_000;

function settingFromEnv(): BackendSetting {
  const raw = process.env.COMPUTE_BACKEND?.toLowerCase();
  return raw === "cpu" || raw === "opencl" ? raw : "auto";
}

export function createComputeWorkers(
  options: {
    probeTtlMs?: number;
    probe?: () => OpenClProbe;
    /** COMPUTE_BACKEND (config.computeBackend); default: the environment's, else auto. */
    setting?: BackendSetting;
    resolve?: (setting: BackendSetting) => ResolvedBackend;
  } = {},
) {
  const probe = options.probe ?? probeOpenCl;
  const resolve = options.resolve ?? resolveBackend;
  const setting = options.setting ?? settingFromEnv();
  const ttl = options.probeTtlMs ?? 30_000;
  const lag = monitorEventLoopDelay({ resolution: 20 });
  lag.enable();
  let cached: { at: number; value: OpenClProbe; backend: ResolvedBackend } | undefined;

  function openCl(): { value: OpenClProbe; backend: ResolvedBackend } {
    // Creating a context is expensive: reuse the last answer for a while.
    if (!cached || Date.now() - cached.at > ttl) cached = { at: Date.now(), value: probe(), backend: resolve(setting) };
    return cached;
  }

  function status(): WorkerStatus[] {
    const p99 = lag.percentile(99) / 1e6;
    lag.reset();
    const cpuReady = p99 < STALL_MS;
    const { value: cl, backend } = openCl();
    const devices = cl.platforms.flatMap((p) => p.devices.map((d) => `${p.name}: ${d.name} (${d.type})`));
    const onCl = backend.backend === "opencl";
    const stalled = `event loop stalled (p99 ${Math.round(p99)} ms)`;
    return [
      {
        id: "cpu-0",
        backend: "cpu",
        ready: cpuReady,
        selected: !onCl,
        clContextHealthy: false,
        detail: !cpuReady ? stalled : onCl ? "CPU kernels (for kernels without an OpenCL version)" : backend.reason,
        devices: [],
      },
      {
        id: "opencl-0",
        backend: "opencl",
        ready: cl.contextHealthy && cpuReady && onCl,
        selected: onCl,
        clContextHealthy: cl.contextHealthy,
        detail: !cl.contextHealthy ? (cl.error ?? "no OpenCL context") : !cpuReady ? stalled : backend.reason,
        devices,
      },
    ];
  }

  return { status, backend: () => openCl().backend, close: () => lag.disable() };
}
