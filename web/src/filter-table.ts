// The filter table: the nodes or the edges that pass the current filters, as a table of the columns the Filters panel
// lists (with the node's label, or the edge's two ends), a page of rows at a time. Clicking a header sorts every row
// that passes by that column (again: the other way); clicking a node's row selects it. Its CSV button downloads every
// passing row of the table shown, in the table's order. Opened from the Filters panel's Table button; it follows
// every change of the filters (the panel's, the timebar's, another viewer's) while open.
import "./filter-table.css";
import type { FieldFilter } from "../../src/datasets/encodings/types.ts";
import type { Axis, DataRoutes } from "./data-routes.ts";
import { axisRows, csvOf } from "./export-csv.ts";
import { downloadCsv } from "./export-tools.ts";
import { inspectorFields } from "./field-visibility.ts";
import { filterColumns } from "./filter-columns.ts";
import type { FilterPanel } from "./filter-panel.ts";
import type { GraphModel } from "./graph-model.ts";
import type { Histogram } from "./histogram.ts";
import { allLabels, formatValue } from "./node-text.ts";
import type { VizSession } from "./session-query.ts";

/** Rows on one page of the table. */
export const PAGE_ROWS = 100;

export type FilterTableHost = {
  panel: FilterPanel;
  routes: DataRoutes;
  session(): VizSession;
  model(): GraphModel | undefined;
  /** A node's row was clicked. */
  selectNode(index: number): void;
};

export type FilterTable = {
  /** The graph was (re)loaded. */
  reset(): void;
};

/**
 * One column of the table, per row (node row, or drawn link for edges): its value (numbers and times as numbers, for
 * sorting; null: none) and its text (times in ISO 8601).
 */
type TableColumn = { name: string; value(index: number): string | number | null; text(index: number): string };

/** A column from the panel's histogram of it. */
function columnOf(name: string, histogram: Histogram, edgeRow: (index: number) => number): TableColumn {
  if (histogram.kind === "text") {
    const value = (index: number) => histogram.values[edgeRow(index)] ?? null;
    return { name, value, text: (index) => value(index) ?? "" };
  }
  const values = histogram.values;
  const value = (index: number) => {
    const v = values[edgeRow(index)] ?? Number.NaN;
    return Number.isNaN(v) ? null : v;
  };
  const text =
    histogram.kind === "time"
      ? (index: number) => {
          const v = value(index);
          return v === null ? "" : new Date(v).toISOString();
        }
      : (index: number) => {
          const v = value(index);
          return v === null ? "" : formatValue(v);
        };
  return { name, value, text };
}

/** A column of labels. */
function labelColumn(name: string, label: (index: number) => string | null): TableColumn {
  return { name, value: label, text: (index) => label(index) ?? "" };
}

const collator = new Intl.Collator(undefined, { numeric: true });

/**
 * Sorts indices by a column: numbers as numbers, text by a numeric-aware collation; empty cells (and cells the field
 * filters hide, `shown` false) last either way. Stable: equal cells keep their order.
 */
export function sortIndices(
  indices: readonly number[],
  value: (index: number) => string | number | null,
  ascending: boolean,
  shown: (index: number) => boolean = () => true,
): number[] {
  const sign = ascending ? 1 : -1;
  const keys = new Map<number, string | number | null>();
  for (const index of indices) {
    const v = shown(index) ? value(index) : null;
    keys.set(index, v === "" ? null : v);
  }
  return [...indices].sort((a, b) => {
    const x = keys.get(a) ?? null;
    const y = keys.get(b) ?? null;
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    if (typeof x === "number" && typeof y === "number") return sign * (x - y);
    return sign * collator.compare(String(x), String(y));
  });
}

export function createFilterTable(host: FilterTableHost, doc: Document = document): FilterTable {
  const toggle = doc.createElement("button");
  toggle.type = "button";
  toggle.id = "filter-table-toggle";
  toggle.className = "button";
  toggle.textContent = "Table";
  toggle.title = "The nodes and edges that pass the filters, as a table";
  toggle.setAttribute("aria-expanded", "false");
  toggle.setAttribute("aria-controls", "filter-table");
  doc.querySelector("#filter-panel .filter-heading")?.append(toggle);

  const panel = doc.createElement("section");
  panel.id = "filter-table";
  panel.className = "filter-table";
  panel.setAttribute("aria-label", "Filtered rows");
  panel.hidden = true;
  const head = doc.createElement("div");
  head.className = "filter-table-head";
  const tabs = doc.createElement("div");
  tabs.className = "filter-table-tabs";
  tabs.setAttribute("role", "tablist");
  const tab = (axis: Axis, text: string) => {
    const b = doc.createElement("button");
    b.type = "button";
    b.className = "button";
    b.dataset.axis = axis;
    b.textContent = text;
    b.setAttribute("role", "tab");
    b.addEventListener("click", () => {
      if (shownAxis === axis) return;
      shownAxis = axis;
      sort = undefined;
      page = 0;
      void refresh();
    });
    tabs.append(b);
    return b;
  };
  const nodesTab = tab("nodes", "Nodes");
  const edgesTab = tab("edges", "Edges");
  const caption = doc.createElement("span");
  caption.className = "filter-table-caption";
  caption.setAttribute("role", "status");
  const csv = doc.createElement("button");
  csv.type = "button";
  csv.id = "filter-table-csv";
  csv.className = "button";
  csv.textContent = "CSV";
  csv.title = "Download every row that passes, in this order, as CSV";
  const close = doc.createElement("button");
  close.type = "button";
  close.className = "button";
  close.textContent = "Close";
  head.append(tabs, caption, csv, close);
  const scroller = doc.createElement("div");
  scroller.className = "filter-table-scroll";
  const table = doc.createElement("table");
  scroller.append(table);
  const pager = doc.createElement("div");
  pager.className = "filter-table-pager";
  const prev = doc.createElement("button");
  prev.type = "button";
  prev.className = "button";
  prev.id = "filter-table-prev";
  prev.textContent = "‹ Previous";
  const pageText = doc.createElement("span");
  pageText.id = "filter-table-page";
  const next = doc.createElement("button");
  next.type = "button";
  next.className = "button";
  next.id = "filter-table-next";
  next.textContent = "Next ›";
  pager.append(prev, pageText, next);
  panel.append(head, scroller, pager);
  doc.body.append(panel);

  let shownAxis: Axis = "nodes";
  let sort: { column: string; ascending: boolean } | undefined;
  let page = 0;
  let columns: TableColumn[] = [];
  /** The passing rows (node rows, or drawn links), in the order shown. */
  let ordered: number[] = [];
  let ticket = 0;

  const setOpen = (open: boolean) => {
    panel.hidden = !open;
    toggle.setAttribute("aria-expanded", String(open));
    if (open) void refresh();
  };
  toggle.addEventListener("click", () => setOpen(Boolean(panel.hidden)));
  close.addEventListener("click", () => setOpen(false));
  prev.addEventListener("click", () => {
    page = Math.max(0, page - 1);
    renderPage();
  });
  next.addEventListener("click", () => {
    page = Math.min(lastPage(), page + 1);
    renderPage();
  });

  const lastPage = () => Math.max(0, Math.ceil(ordered.length / PAGE_ROWS) - 1);

  /** Whether the field filters show a field of the row (rules per type read the row's type column). */
  const visibility = (filters: FieldFilter[], graphType: "point" | "edge", fieldColumns: TableColumn[]) => {
    const perType = filters.some((f) => f.graphType === graphType && (Object.keys(f.byType).length > 0 || f.attribute !== undefined));
    const cache = new Map<number, Set<string>>();
    return (index: number, name: string): boolean => {
      if (!perType) return true;
      let shown = cache.get(index);
      if (!shown) {
        const row: Record<string, unknown> = {};
        for (const column of fieldColumns) row[column.name] = column.value(index);
        shown = new Set(inspectorFields(filters, graphType, row));
        cache.set(index, shown);
      }
      return shown.has(name);
    };
  };
  let isShown: (index: number, name: string) => boolean = () => true;

  /** Reads the columns (through the panel's cache) and lists the rows that pass, sorted. */
  const refresh = async () => {
    const mine = ++ticket;
    const model = host.model();
    nodesTab.setAttribute("aria-selected", String(shownAxis === "nodes"));
    edgesTab.setAttribute("aria-selected", String(shownAxis === "edges"));
    panel.dataset.axis = shownAxis;
    if (!model) {
      caption.textContent = "The graph is not loaded yet.";
      return;
    }
    const session = host.session();
    if (columns.length === 0) caption.textContent = "Loading…";
    try {
      await host.panel.loadAll();
      const names = filterColumns(session, model)
        .filter((column) => column.axis === shownAxis)
        .map((column) => column.name);
      const histograms = await Promise.all(names.map((name) => host.panel.histogram(shownAxis, name)));
      if (mine !== ticket) return;
      const links = model.topology.links;
      const linkRows = model.topology.linkRows;
      const edgeRow = shownAxis === "edges" ? (link: number) => linkRows?.[link] ?? link : (row: number) => row;
      const fields: TableColumn[] = [];
      names.forEach((name, k) => {
        const histogram = histograms[k];
        if (histogram) fields.push(columnOf(name, histogram, edgeRow));
      });
      const labels = allLabels(model);
      columns =
        shownAxis === "nodes"
          ? [labelColumn("label", (row) => labels[row] ?? null), ...fields]
          : [
              labelColumn("source", (link) => labels[links[link * 2] ?? 0] ?? null),
              labelColumn("target", (link) => labels[links[link * 2 + 1] ?? 0] ?? null),
              ...fields,
            ];
      const graphType = shownAxis === "nodes" ? "point" : "edge";
      const visible = visibility(session.dataset.fieldFilters, graphType, fields);
      isShown = (index, name) => !fields.some((f) => f.name === name) || visible(index, name);
      const hidden = host.panel.hidden();
      const passing: number[] = [];
      if (shownAxis === "nodes") {
        for (let row = 0; row < model.topology.nodeCount; row++) if (!hidden?.nodes[row]) passing.push(row);
      } else {
        for (let link = 0; link < links.length / 2; link++) if (!hidden?.edges[link]) passing.push(link);
      }
      const column = sort && columns.find((c) => c.name === sort?.column);
      ordered = column && sort ? sortIndices(passing, column.value, sort.ascending, (index) => isShown(index, column.name)) : passing;
      page = Math.min(page, lastPage());
      const total = shownAxis === "nodes" ? model.topology.nodeCount : links.length / 2;
      const noun = shownAxis === "nodes" ? "nodes" : "edges";
      caption.textContent =
        passing.length === total
          ? `All ${total.toLocaleString("en-US")} ${noun}`
          : `${passing.length.toLocaleString("en-US")} of ${total.toLocaleString("en-US")} ${noun} pass the filters`;
      panel.dataset.rows = String(passing.length);
      renderPage();
    } catch (error) {
      if (mine === ticket) caption.textContent = `The rows could not be read: ${error instanceof Error ? error.message : String(error)}`;
    }
  };

  const renderPage = () => {
    const headRow = doc.createElement("tr");
    for (const column of columns) {
      const th = doc.createElement("th");
      th.scope = "col";
      const button = doc.createElement("button");
      button.type = "button";
      button.textContent = column.name;
      button.dataset.column = column.name;
      button.addEventListener("click", () => {
        sort = { column: column.name, ascending: sort?.column === column.name ? !sort.ascending : true };
        page = 0;
        void refresh();
      });
      th.append(button);
      th.setAttribute("aria-sort", sort?.column === column.name ? (sort.ascending ? "ascending" : "descending") : "none");
      headRow.append(th);
    }
    const thead = doc.createElement("thead");
    thead.append(headRow);
    const tbody = doc.createElement("tbody");
    const from = page * PAGE_ROWS;
    const to = Math.min(ordered.length, from + PAGE_ROWS);
    for (let k = from; k < to; k++) {
      const index = ordered[k] ?? 0;
      const tr = doc.createElement("tr");
      tr.dataset.index = String(index);
      for (const column of columns) {
        const td = doc.createElement("td");
        td.textContent = isShown(index, column.name) ? column.text(index) : "";
        tr.append(td);
      }
      if (shownAxis === "nodes") {
        tr.className = "is-link";
        tr.title = "Select this node";
        tr.addEventListener("click", () => host.selectNode(index));
      }
      tbody.append(tr);
    }
    table.replaceChildren(thead, tbody);
    pageText.textContent =
      ordered.length === 0
        ? "No rows"
        : `${(from + 1).toLocaleString("en-US")}–${to.toLocaleString("en-US")} of ${ordered.length.toLocaleString("en-US")}`;
    prev.disabled = page === 0;
    next.disabled = page >= lastPage();
    scroller.scrollTop = 0;
  };

  csv.addEventListener("click", () => {
    const model = host.model();
    if (!model || csv.getAttribute("aria-busy") === "true") return;
    const session = host.session();
    const axis = shownAxis;
    const rows = [...ordered];
    csv.setAttribute("aria-busy", "true");
    const before = caption.textContent;
    caption.textContent = `Preparing ${axis}.csv…`;
    axisRows({ routes: host.routes, session, model }, axis, rows)
      .then((csvRows) => {
        downloadCsv(csvOf(csvRows, session), `${axis}.csv`);
        caption.textContent = before;
      })
      .catch((error: unknown) => {
        caption.textContent = `Export CSV failed: ${error instanceof Error ? error.message : String(error)}`;
      })
      .finally(() => csv.removeAttribute("aria-busy"));
  });

  host.panel.onUpdate(() => {
    if (!panel.hidden) void refresh();
  });

  return {
    reset() {
      columns = [];
      ordered = [];
      page = 0;
      if (!panel.hidden) void refresh();
    },
  };
}
