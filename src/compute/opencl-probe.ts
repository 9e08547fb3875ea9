// Asks the native OpenCL runtime (kernels/native) whether a context can be created on any device.
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

export type OpenClDevice = { name: string; type: string };
export type OpenClProbe = {
  /** True when a context was created (and released) on at least one device. */
  contextHealthy: boolean;
  platforms: { name: string; devices: OpenClDevice[] }[];
  error: string | undefined;
};

type NativeProbe = { probe(): { ok: boolean; error?: string; platforms?: { name: string; devices: OpenClDevice[] }[] } };

const ADDON = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../kernels/native/build/Release/opencl.node");

let native: NativeProbe | undefined | null;

function loadNative(): NativeProbe | null {
  if (native !== undefined) return native;
  try {
    native = createRequire(import.meta.url)(ADDON) as NativeProbe;
  } catch {
    native = null;
  }
  return native;
}

export function probeOpenCl(): OpenClProbe {
  const binding = loadNative();
  if (!binding) {
    return { contextHealthy: false, platforms: [], error: "OpenCL binding not built (run `npm run build:native`)" };
  }
  try {
    const result = binding.probe();
    return {
      contextHealthy: result.ok,
      platforms: result.platforms ?? [],
      error: result.ok ? undefined : (result.error ?? "no OpenCL context"),
    };
  } catch (error) {
    return { contextHealthy: false, platforms: [], error: error instanceof Error ? error.message : String(error) };
  }
}
