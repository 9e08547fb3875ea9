// The OpenCL versions of the kernels, by kernel name (each with exactly its CPU twin's signature), and whether
// OpenCL can run them here.
import { bfsOpenCl } from "./bfs.ts";
import { brandesOpenCl } from "./brandes.ts";
import { componentsOpenCl } from "./components.ts";
import { coreNumberOpenCl } from "./core-number.ts";
import { edgeSimilarityOpenCl } from "./edge-similarity.ts";
import { forceAtlas2OpenCl } from "./force-atlas2.ts";
import { frStepperOpenCl } from "./fruchterman-reingold.ts";
import { pagerankOpenCl } from "./pagerank.ts";
import { pathStatsOpenCl } from "./path-stats.ts";
import { clDevice } from "./runtime.ts";
import { spmvOpenCl } from "./spmv.ts";
import { ssspOpenCl } from "./sssp.ts";

// biome-ignore lint/suspicious/noExplicitAny: each port takes its CPU twin's argument object
type Port = (args: any) => any;

const ports: Record<string, Port> = {
  pagerank: pagerankOpenCl,
  bfs: bfsOpenCl,
  components: componentsOpenCl,
  "core-number": coreNumberOpenCl,
  spmv: spmvOpenCl,
  "edge-similarity": edgeSimilarityOpenCl,
  sssp: ssspOpenCl,
  brandes: brandesOpenCl,
  "path-stats": pathStatsOpenCl,
  "force-atlas2": forceAtlas2OpenCl,
  "fruchterman-reingold": frStepperOpenCl,
};

/** Kernel names that have an OpenCL version. */
export const openclKernelNames: readonly string[] = Object.keys(ports);

export type OpenClStatus = { available: boolean; device?: string; error?: string };

/**
 * Whether the OpenCL kernels can run: the addon loads, a context exists on some device (GPU first), and it has
 * double precision (every port computes in fp64 as its CPU twin does).
 */
export function openclStatus(): OpenClStatus {
  const { info, error } = clDevice();
  if (!info) return { available: false, error };
  const device = `${info.platform}: ${info.name} (${info.type})`;
  if (!info.fp64) return { available: false, device, error: `${device} has no double precision (cl_khr_fp64)` };
  return { available: true, device };
}

/** The OpenCL version of kernel `name`, or undefined when it has none or OpenCL cannot run here. */
export function openclKernel(name: string): Port | undefined {
  const port = Object.hasOwn(ports, name) ? ports[name] : undefined;
  if (!port || !openclStatus().available) return undefined;
  return port;
}
