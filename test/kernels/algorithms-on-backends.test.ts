// Every registered algorithm that lists the opencl backend answers the same on OpenCL as on the CPU twins
// (centralities within 1e-9 relative, everything else identical), on seeded directed and undirected graphs.
import { describe, expect, it } from "vitest";
import { computeGraph } from "../../kernels/cpu/csr.ts";
import { createComputeContext } from "../../src/compute/backend.ts";
import { ALGORITHMS } from "../../src/compute/registry.ts";
import { ComputeInputError, type ComputeOutput, cpuContext, type OutColumn, type ParamSpec } from "../../src/compute/types.ts";
import { backends } from "./backends.ts";
import { maxRelDiff, skewedGraph, weights } from "./graphs.ts";

const N = 1500;
const M = 6000;
const base = skewedGraph(201, N, M);
const edgeWeights = weights(202, M);

/** A checked value for each parameter: its default, else a plausible one for its type. */
function paramsOf(specs: Record<string, ParamSpec>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, spec] of Object.entries(specs)) {
    if (spec.default !== undefined) out[name] = spec.default;
    else if (spec.type === "node") out[name] = 0;
    else if (spec.type === "nodes") out[name] = new Int32Array([0, 1, 2]);
    else if (spec.type === "edgeColumn" && spec.required) out[name] = edgeWeights;
    else if (spec.required && (spec.type === "integer" || spec.type === "number")) out[name] = spec.min !== undefined ? spec.min + 1 : 2;
  }
  return out;
}

function comparable(column: OutColumn): number[] | unknown[] {
  return Array.from(column.values as ArrayLike<unknown>);
}

function expectSameOutput(cl: ComputeOutput, cpu: ComputeOutput): void {
  expect(cl.kind).toBe(cpu.kind);
  if (cl.kind === "graph" && cpu.kind === "graph") {
    expect(cl.nodeRows).toEqual(cpu.nodeRows);
    expect(cl.edgeRows).toEqual(cpu.edgeRows);
    return;
  }
  if (cl.kind === "graph" || cpu.kind === "graph") return;
  expect(cl.columns.map((c) => c.name)).toEqual(cpu.columns.map((c) => c.name));
  cl.columns.forEach((column, i) => {
    const other = cpu.columns[i] as OutColumn;
    expect(column.valid, column.name).toEqual(other.valid);
    if (column.values instanceof Float64Array || column.values instanceof Float32Array) {
      expect(maxRelDiff(column.values, other.values as Float64Array), column.name).toBeLessThan(1e-9);
    } else {
      expect(comparable(column), column.name).toEqual(comparable(other));
    }
  });
}

const onOpenCl = ALGORITHMS.filter((entry) => entry.backends.includes("opencl"));

describe.skipIf(!backends.includes("opencl"))("algorithms on the opencl backend", () => {
  const ctx = createComputeContext({ backend: "opencl" });

  for (const directed of [true, false]) {
    const graph = computeGraph(N, { src: base.src, dst: base.dst }, { directed, weight: edgeWeights });
    for (const entry of onOpenCl) {
      if (directed && entry.undirectedOnly) continue;
      it(`${entry.library}/${entry.name} (${directed ? "directed" : "undirected"}) answers as on the CPU`, () => {
        const params = paramsOf(entry.params);
        let cpu: ComputeOutput | Error;
        try {
          cpu = entry.run(graph, params, cpuContext, entry.name);
        } catch (error) {
          cpu = error as Error;
        }
        if (cpu instanceof Error) {
          // Only a refusal of the graph or values (400) may stand in for an answer, and OpenCL must refuse alike.
          expect(cpu).toBeInstanceOf(ComputeInputError);
          expect(() => entry.run(graph, params, ctx, entry.name)).toThrow(cpu.message);
          return;
        }
        expectSameOutput(entry.run(graph, params, ctx, entry.name), cpu);
      });
    }
  }
});
