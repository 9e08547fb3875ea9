// The right-side panel listing a clicked node's or edge's fields, filtered by the dataset's field filters.
import type { FieldFilter } from "../../src/datasets/encodings/types.ts";
import type { EdgeColumns, NodeColumns } from "./bindings.ts";
import type { DataRoutes } from "./data-routes.ts";
import { inspectorFields } from "./field-visibility.ts";
import { formatValue } from "./node-text.ts";

/** An edge carries its endpoints' display names, for a title when it has no label of its own. */
export type InspectTarget = { kind: "node"; index: number } | { kind: "edge"; row: number; ends: [string, string] };

export type InspectorContext = {
  filters: FieldFilter[];
  nodeColumns: NodeColumns;
  edgeColumns: EdgeColumns | undefined;
};

export type Inspector = {
  open(target: InspectTarget): Promise<void>;
  close(): void;
  /** Lists the open entity again, e.g. after the field filters changed. */
  refresh(): Promise<void>;
  readonly target: InspectTarget | undefined;
};

export type InspectorElements = { panel: HTMLElement; kind: HTMLElement; title: HTMLElement; fields: HTMLElement; close: HTMLElement };

export function createInspector(
  elements: InspectorElements,
  routes: DataRoutes,
  context: () => InspectorContext,
  onClose: () => void,
): Inspector {
  let current: InspectTarget | undefined;
  let ticket = 0;

  const render = (target: InspectTarget, row: Record<string, unknown>) => {
    const { filters, nodeColumns, edgeColumns } = context();
    const graphType = target.kind === "node" ? "point" : "edge";
    const shown = inspectorFields(filters, graphType, row);
    elements.kind.textContent = target.kind === "node" ? "Node" : "Edge";
    elements.title.textContent = target.kind === "node" ? nodeTitle(row, nodeColumns) : edgeTitle(row, edgeColumns, target.ends);
    const rows: HTMLElement[] = [];
    for (const field of shown) {
      const term = document.createElement("dt");
      term.textContent = field;
      const value = document.createElement("dd");
      value.textContent = formatValue(row[field]);
      rows.push(term, value);
    }
    if (rows.length === 0) {
      const none = document.createElement("div");
      none.className = "none";
      none.textContent = "No fields to show.";
      rows.push(none);
    }
    elements.fields.replaceChildren(...rows);
    elements.panel.hidden = false;
  };

  const load = async (target: InspectTarget) => {
    const mine = ++ticket;
    const axis = target.kind === "node" ? "nodes" : "edges";
    const index = target.kind === "node" ? target.index : target.row;
    try {
      const row = await routes.row(axis, index);
      if (mine === ticket && current === target) render(target, row);
    } catch (error) {
      if (mine !== ticket) return;
      elements.kind.textContent = target.kind === "node" ? "Node" : "Edge";
      elements.title.textContent = "Could not load this row";
      const note = document.createElement("div");
      note.className = "none";
      note.textContent = error instanceof Error ? error.message : String(error);
      elements.fields.replaceChildren(note);
      elements.panel.hidden = false;
    }
  };

  const inspector: Inspector = {
    get target() {
      return current;
    },
    async open(target) {
      current = target;
      await load(target);
    },
    close() {
      ticket++;
      current = undefined;
      elements.panel.hidden = true;
    },
    async refresh() {
      if (current) await load(current);
    },
  };
  elements.close.addEventListener("click", () => {
    inspector.close();
    onClose();
  });
  return inspector;
}

function nodeTitle(row: Record<string, unknown>, columns: NodeColumns): string {
  for (const column of [columns.title, columns.label, columns.id]) {
    const value = column === undefined ? undefined : row[column];
    if (value !== null && value !== undefined && value !== "") return formatValue(value);
  }
  return "Node";
}

function edgeTitle(row: Record<string, unknown>, columns: EdgeColumns | undefined, ends: [string, string]): string {
  for (const column of [columns?.title, columns?.label]) {
    const value = column === undefined ? undefined : row[column];
    if (value !== null && value !== undefined && value !== "") return formatValue(value);
  }
  return `${ends[0]} → ${ends[1]}`;
}
