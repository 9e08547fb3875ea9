// The selection table: the selected node and its neighbours (the first 50) as a table, one row per node and one column
// per field the field filters let the inspector show for some of them; clicking a header sorts by that column (again:
// the other way). Opened by the toolbar's Table button; rows come from the row route, only while the table is open.
// Its CSV button downloads the rows as listed (in the table's order) as selection.csv.
import type { FieldFilter } from "../../src/datasets/encodings/types.ts";
import type { DataRoutes } from "./data-routes.ts";
import { toCsv } from "./export-csv.ts";
import { downloadCsv } from "./export-tools.ts";
import { inspectorFields } from "./field-visibility.ts";
import { formatValue } from "./node-text.ts";
import "./selection-table.css";

/** Neighbours listed at most (the inspector lists as many). */
export const TABLE_NEIGHBOURS = 50;

export type SelectionTableContext = { filters: FieldFilter[]; label: (index: number) => string };

export type SelectionTable = {
  /** The selected node and its neighbours (undefined: nothing is selected). */
  show(index: number | undefined, neighbours: readonly number[]): void;
};

type Row = { index: number; selected: boolean; label: string; values: Record<string, unknown>; shown: Set<string> };

/** Sorts rows by a column: numbers as numbers, everything else as text; empty cells last either way. */
export function sortRows<T extends { cells: Record<string, unknown> }>(rows: T[], column: string, ascending: boolean): T[] {
  const sign = ascending ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = a.cells[column];
    const y = b.cells[column];
    const xEmpty = x === null || x === undefined || x === "";
    const yEmpty = y === null || y === undefined || y === "";
    if (xEmpty || yEmpty) return xEmpty === yEmpty ? 0 : xEmpty ? 1 : -1;
    if (typeof x === "number" && typeof y === "number") return sign * (x - y);
    if (typeof x === "bigint" && typeof y === "bigint") return sign * (x < y ? -1 : x > y ? 1 : 0);
    return sign * String(x).localeCompare(String(y), undefined, { numeric: true });
  });
}

export function createSelectionTable(
  toolbar: HTMLElement | null,
  routes: DataRoutes,
  context: () => SelectionTableContext,
  doc: Document = document,
): SelectionTable {
  const button = doc.createElement("button");
  button.type = "button";
  button.id = "selection-table-toggle";
  button.className = "button";
  button.textContent = "Table";
  button.title = "The selected node and its neighbours as a table";
  button.setAttribute("aria-expanded", "false");
  button.setAttribute("aria-controls", "selection-table");
  toolbar?.append(button);

  const panel = doc.createElement("section");
  panel.id = "selection-table";
  panel.className = "selection-table";
  panel.setAttribute("aria-label", "Selection table");
  panel.hidden = true;
  const head = doc.createElement("div");
  head.className = "selection-table-head";
  const caption = doc.createElement("span");
  caption.className = "selection-table-caption";
  const exportButton = doc.createElement("button");
  exportButton.type = "button";
  exportButton.className = "button";
  exportButton.id = "selection-table-csv";
  exportButton.textContent = "CSV";
  exportButton.title = "Download the rows listed, in this order, as selection.csv";
  exportButton.disabled = true;
  const close = doc.createElement("button");
  close.type = "button";
  close.className = "button";
  close.textContent = "Close";
  const actions = doc.createElement("span");
  actions.className = "selection-table-actions";
  actions.append(exportButton, close);
  head.append(caption, actions);
  const scroller = doc.createElement("div");
  scroller.className = "selection-table-scroll";
  const table = doc.createElement("table");
  scroller.append(table);
  panel.append(head, scroller);
  doc.body.append(panel);

  let selection: { index: number; neighbours: readonly number[] } | undefined;
  let rows: Row[] = [];
  /** The rows in the order shown. */
  let listedRows: Row[] = [];
  let sort: { column: string; ascending: boolean } | undefined;
  let ticket = 0;

  const setOpen = (open: boolean) => {
    panel.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    if (open) void load();
  };
  button.addEventListener("click", () => setOpen(Boolean(panel.hidden)));
  close.addEventListener("click", () => setOpen(false));
  exportButton.addEventListener("click", () => {
    if (listedRows.length === 0) return;
    const csvRows = listedRows.map((row) => ({ kind: "node" as const, fields: row.values }));
    downloadCsv(toCsv(csvRows, context().filters), "selection.csv");
  });

  const render = () => {
    const columns = ["label"];
    for (const row of rows) for (const field of row.shown) if (!columns.includes(field)) columns.push(field);
    const cells = rows.map((row) => {
      const out: Record<string, unknown> = { label: row.label };
      for (const field of row.shown) out[field] = row.values[field];
      return { row, cells: out };
    });
    const ordered = sort ? sortRows(cells, sort.column, sort.ascending) : cells;
    listedRows = ordered.map(({ row }) => row);
    exportButton.disabled = listedRows.length === 0;
    const headRow = doc.createElement("tr");
    for (const column of columns) {
      const th = doc.createElement("th");
      th.scope = "col";
      const sortButton = doc.createElement("button");
      sortButton.type = "button";
      sortButton.textContent = column;
      sortButton.dataset.column = column;
      sortButton.addEventListener("click", () => {
        sort = { column, ascending: sort?.column === column ? !sort.ascending : true };
        render();
      });
      th.append(sortButton);
      th.setAttribute("aria-sort", sort?.column === column ? (sort.ascending ? "ascending" : "descending") : "none");
      headRow.append(th);
    }
    const thead = doc.createElement("thead");
    thead.append(headRow);
    const tbody = doc.createElement("tbody");
    for (const { row, cells: values } of ordered) {
      const tr = doc.createElement("tr");
      tr.dataset.node = String(row.index);
      if (row.selected) tr.className = "is-selected";
      for (const column of columns) {
        const td = doc.createElement("td");
        td.textContent = column in values ? formatValue(values[column]) : "";
        tr.append(td);
      }
      tbody.append(tr);
    }
    table.replaceChildren(thead, tbody);
  };

  const load = async () => {
    const mine = ++ticket;
    if (!selection) {
      rows = [];
      listedRows = [];
      exportButton.disabled = true;
      caption.textContent = "Select a node to list it with its neighbours.";
      table.replaceChildren();
      return;
    }
    const { index, neighbours } = selection;
    const listed = [index, ...neighbours.slice(0, TABLE_NEIGHBOURS)];
    const more = neighbours.length - (listed.length - 1);
    caption.textContent = "Loading…";
    try {
      const values = await Promise.all(listed.map((i) => routes.row("nodes", i)));
      if (mine !== ticket) return;
      const { filters, label } = context();
      rows = listed.map((i, k) => {
        const row = values[k] ?? {};
        return { index: i, selected: k === 0, label: label(i), values: row, shown: new Set(inspectorFields(filters, "point", row)) };
      });
      caption.textContent = `${label(index)} and ${neighbours.length} neighbour${neighbours.length === 1 ? "" : "s"}${more > 0 ? ` (the first ${TABLE_NEIGHBOURS} listed)` : ""}`;
      render();
    } catch (error) {
      if (mine === ticket) caption.textContent = `The rows could not be read: ${error instanceof Error ? error.message : String(error)}`;
    }
  };

  return {
    show(index, neighbours) {
      selection = index === undefined ? undefined : { index, neighbours };
      if (!panel.hidden) void load();
    },
  };
}
