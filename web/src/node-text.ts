// The text shown for a node (its label, else its id) and the display form of any field value.
import type { Vector } from "apache-arrow";
import type { GraphModel } from "./graph-model.ts";

export function nodeLabel(model: GraphModel, index: number): string {
  const label = model.labels.get(index);
  if (label !== null && label !== undefined && label !== "") return formatValue(label);
  return formatValue(model.nodeIds.get(index));
}

export function formatValue(value: unknown): string {
  if (value === null || value === undefined) return "—";
  if (typeof value === "string") return value;
  if (typeof value === "number")
    return Number.isInteger(value) ? String(value) : value.toLocaleString("en-US", { maximumSignificantDigits: 8 });
  if (typeof value === "bigint" || typeof value === "boolean") return String(value);
  if (value instanceof Date) return value.toISOString();
  return JSON.stringify(value, (_key, inner: unknown) => (typeof inner === "bigint" ? inner.toString() : inner));
}

/** Label text for every node, decoded once on first use (search scans it). */
export function allLabels(model: GraphModel): string[] {
  const cached = labelCache.get(model.labels);
  if (cached) return cached;
  const out = new Array<string>(model.topology.nodeCount);
  for (let i = 0; i < out.length; i++) out[i] = nodeLabel(model, i);
  labelCache.set(model.labels, out);
  return out;
}

/** Keyed by the label column, so a rebound label is decoded afresh. */
const labelCache = new WeakMap<Vector, string[]>();
