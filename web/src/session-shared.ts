// The session's shared filters and encodings (issue 17): read on load and on a FILTERS / ENCODINGS event, sent
// (debounced) when this viewer changes them, so every viewer of the session sees the same ones.
import { type EncodingChoices, parseChoices } from "./encoding-choices.ts";
import type { ColumnFilter } from "./filter-state.ts";
import { requestGraphQL } from "./graphql-client.ts";

const READ = `query SharedState($id: ID!) { vizSession(id: $id) { filters encodings } }`;
const SET_FILTERS = `mutation SetFilters($s: ID!, $f: JSON!) { setSessionFilters(sessionId: $s, filters: $f) { id } }`;
const SET_ENCODINGS = `mutation SetEncodings($s: ID!, $e: JSON!) { setSessionEncodings(sessionId: $s, encodings: $e) { id } }`;

/** How long a change waits for the next one before it is sent. */
const DEBOUNCE_MS = 250;

/** Keeps the well-formed filters of a stored list. */
export function parseFilters(value: unknown): ColumnFilter[] {
  if (!Array.isArray(value)) return [];
  const out: ColumnFilter[] = [];
  for (const item of value) {
    if (!item || typeof item !== "object") continue;
    const f = item as Record<string, unknown>;
    if ((f.axis !== "nodes" && f.axis !== "edges") || typeof f.column !== "string") continue;
    if (f.kind === "range" && typeof f.min === "number" && typeof f.max === "number")
      out.push({ axis: f.axis, column: f.column, kind: "range", min: f.min, max: f.max });
    else if (f.kind === "values" && Array.isArray(f.values) && f.values.every((v) => typeof v === "string"))
      out.push({ axis: f.axis, column: f.column, kind: "values", values: f.values as string[] });
  }
  return out;
}

export type SharedState = {
  /** Reads the session's filters and encodings and applies those that differ from what this page last had. */
  refresh(): Promise<void>;
  sendFilters(filters: readonly ColumnFilter[]): void;
  sendEncodings(choices: EncodingChoices): void;
};

export function createSharedState(
  sessionId: string,
  apply: { filters(filters: ColumnFilter[]): void; encodings(choices: EncodingChoices): void },
): SharedState {
  // The JSON this page last sent or received, per kind: a change equal to it is neither sent nor applied again.
  let filtersJson = "[]";
  let encodingsJson: string | undefined;
  const timers: Record<"filters" | "encodings", ReturnType<typeof setTimeout> | undefined> = { filters: undefined, encodings: undefined };

  const send = (kind: "filters" | "encodings", query: string, variables: Record<string, unknown>) => {
    clearTimeout(timers[kind]);
    timers[kind] = setTimeout(() => {
      timers[kind] = undefined;
      requestGraphQL(query, { s: sessionId, ...variables }).catch((error: unknown) => console.warn(`sharing ${kind} failed`, error));
    }, DEBOUNCE_MS);
  };

  return {
    async refresh() {
      const data = await requestGraphQL<{ vizSession: { filters: unknown; encodings: unknown } | null }>(READ, { id: sessionId });
      const state = data.vizSession;
      if (!state) return;
      if (state.filters !== null && timers.filters === undefined) {
        const filters = parseFilters(state.filters);
        const json = JSON.stringify(filters);
        if (json !== filtersJson) {
          filtersJson = json;
          apply.filters(filters);
        }
      }
      if (state.encodings !== null && timers.encodings === undefined) {
        const choices = parseChoices(state.encodings);
        const json = JSON.stringify(choices);
        if (json !== encodingsJson) {
          encodingsJson = json;
          apply.encodings(choices);
        }
      }
    },
    sendFilters(filters) {
      const json = JSON.stringify(filters);
      if (json === filtersJson) return;
      filtersJson = json;
      send("filters", SET_FILTERS, { f: filters });
    },
    sendEncodings(choices) {
      const json = JSON.stringify(choices);
      if (json === encodingsJson) return;
      encodingsJson = json;
      send("encodings", SET_ENCODINGS, { e: choices });
    },
  };
}
