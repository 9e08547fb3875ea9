// The compute workers this process offers: the CPU backend always, an OpenCL one when a context works.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { type OpenClProbe, probeOpenCl } from "./opencl-probe.ts";

export type WorkerStatus = {
  id: string;
  backend: "cpu" | "opencl";
  ready: boolean;
  clContextHealthy: boolean;
  detail: string;
  devices: string[];
};

export type ComputeWorkers = ReturnType<typeof createComputeWorkers>;

/** A worker is not ready for routing when the event loop it runs on is stalled this long (p99). */
const STALL_MS = 2_000;

export function createComputeWorkers(options: { probeTtlMs?: number; probe?: () => OpenClProbe } = {}) {
  const probe = options.probe ?? probeOpenCl;
  const ttl = options.probeTtlMs ?? 30_000;
  const lag = monitorEventLoopDelay({ resolution: 20 });
  lag.enable();
  let cached: { at: number; value: OpenClProbe } | undefined;

  function openCl(): OpenClProbe {
    // Creating a context is expensive: reuse the last answer for a while.
    if (!cached || Date.now() - cached.at > ttl) cached = { at: Date.now(), value: probe() };
    return cached.value;
  }

  function status(): WorkerStatus[] {
    const p99 = lag.percentile(99) / 1e6;
    lag.reset();
    const cpuReady = p99 < STALL_MS;
    const cl = openCl();
    const devices = cl.platforms.flatMap((p) => p.devices.map((d) => `${p.name}: ${d.name} (${d.type})`));
    return [
      {
        id: "cpu-0",
        backend: "cpu",
        ready: cpuReady,
        clContextHealthy: false,
        detail: cpuReady ? "in-process CPU kernels" : `event loop stalled (p99 ${Math.round(p99)} ms)`,
        devices: [],
      },
      {
        id: "opencl-0",
        backend: "opencl",
        ready: cl.contextHealthy && cpuReady,
        clContextHealthy: cl.contextHealthy,
        detail: cl.contextHealthy ? "OpenCL context created" : (cl.error ?? "no OpenCL context"),
        devices,
      },
    ];
  }

  return { status, close: () => lag.disable() };
}
