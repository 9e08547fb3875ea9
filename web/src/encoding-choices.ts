// The viewer's encoding choices (color, size, width by a column; edge arrows) laid over the dataset's bindings.
import type { VizSession } from "./session-query.ts";

/** The bindings the Encodings panel changes; a key left out keeps the dataset's binding, "" means none. */
export const ENCODING_KEYS = {
  nodeColor: { axis: "node", binding: "node_color", numeric: false },
  nodeSize: { axis: "node", binding: "node_size", numeric: true },
  edgeColor: { axis: "edge", binding: "edge_color", numeric: false },
  edgeWidth: { axis: "edge", binding: "edge_size", numeric: true },
} as const;

export type EncodingKey = keyof typeof ENCODING_KEYS;

export type EncodingChoices = { columns: Partial<Record<EncodingKey, string>>; arrows?: boolean };

const NUMERIC = /^(u?int|float|double|decimal|number|bool)/i;

/** Whether a column of this dtype can size nodes or widen edges. */
export function isNumericDtype(dtype: string): boolean {
  return NUMERIC.test(dtype);
}

/** The session as the page draws it: the dataset's bindings with the choices over them. */
export function withEncodings(session: VizSession, choices: EncodingChoices): VizSession {
  const node = { ...session.dataset.nodeEncodings.bindings };
  const edge = { ...session.dataset.edgeEncodings.bindings };
  for (const [key, column] of Object.entries(choices.columns) as [EncodingKey, string | undefined][]) {
    if (column === undefined) continue;
    const { axis, binding } = ENCODING_KEYS[key];
    const bindings = axis === "node" ? node : edge;
    if (column === "") delete bindings[binding];
    else bindings[binding] = column;
  }
  return {
    ...session,
    dataset: {
      ...session.dataset,
      nodeEncodings: { ...session.dataset.nodeEncodings, bindings: node },
      edgeEncodings: { ...session.dataset.edgeEncodings, bindings: edge },
    },
  };
}

/** Reads choices stored as JSON, keeping only well-formed members. */
export function parseChoices(value: unknown): EncodingChoices {
  const out: EncodingChoices = { columns: {} };
  if (!value || typeof value !== "object") return out;
  const record = value as { columns?: unknown; arrows?: unknown };
  if (record.columns && typeof record.columns === "object") {
    for (const key of Object.keys(ENCODING_KEYS) as EncodingKey[]) {
      const column = (record.columns as Record<string, unknown>)[key];
      if (typeof column === "string") out.columns[key] = column;
    }
  }
  if (typeof record.arrows === "boolean") out.arrows = record.arrows;
  return out;
}
