// Worker thread for runtime.test.ts: runs the OpenCL PageRank port off the main thread and checks it against the
// CPU twin there.
import { parentPort } from "node:worker_threads";
import { pagerank } from "../../kernels/cpu/pagerank.ts";
import { pagerankOpenCl } from "../../kernels/opencl/pagerank.ts";
import { skewedGraph } from "./graphs.ts";

const csr = skewedGraph(7, 5000, 20000);
const outWeight = new Float64Array(csr.n);
for (let e = 0; e < csr.m; e++) outWeight[csr.src[e] as number] = (outWeight[csr.src[e] as number] as number) + 1;
const args = {
  n: csr.n,
  start: csr.inStart,
  nbr: csr.inSrc,
  weight: null,
  outWeight,
  damping: 0.85,
  personalization: null,
  initial: null,
  maxIter: 100,
  tol: 1e-10,
  relTol: 0,
  inPlace: false,
};
const cl = pagerankOpenCl(args);
const cpu = pagerank(args);
let worst = 0;
for (let i = 0; i < csr.n; i++)
  worst = Math.max(worst, Math.abs((cl.rank[i] as number) - (cpu.rank[i] as number)) / (cpu.rank[i] as number));
parentPort?.postMessage({ same: worst < 1e-9 && cl.iterations === cpu.iterations, iterations: cl.iterations });
