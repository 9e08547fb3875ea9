// The Filters panel: the node and edge columns the field filters let the inspector show, each with a histogram
// computed here from its Arrow column (bins for numbers and times, the top values for text), fetched once per table
// in one request when the panel first opens (less the columns the timebar read already: one cache for both). Brushing
// bars (or typing bounds) keeps a numeric range; ticking values keeps those values. Non-matching nodes and their links
// (and non-matching edges) are hidden without a reload. The filter state lives here; the timebar (timebar.ts) and the
// filter table (filter-table.ts) read and change it through setFilter, histogram, hidden and onUpdate.
import "./filter-panel.css";
import type { PaintLayer } from "./collections-paint.ts";
import type { Axis, DataRoutes } from "./data-routes.ts";
import { type FilterColumn, filterColumns } from "./filter-columns.ts";
import { binInRange, binRange, type ColumnFilter, type Hidden, hiddenBy, hiddenLayer } from "./filter-state.ts";
import type { GraphModel } from "./graph-model.ts";
import { type Histogram, histogramInSlices, type NumericHistogram, type TextHistogram } from "./histogram.ts";
import type { VizSession } from "./session-query.ts";

export type FilterPanelHost = {
  routes: DataRoutes;
  session(): VizSession;
  model(): GraphModel | undefined;
  /** The layer that hides the filtered-out rows (undefined: nothing hidden). */
  apply(layer: PaintLayer | undefined): void;
  /** The filters changed (by this viewer or setFilters): shared with the session (session-shared.ts). */
  changed?(filters: readonly ColumnFilter[]): void;
};

export type FilterPanel = {
  /** The graph was (re)loaded or its session changed: histograms are built again when the panel is open. */
  reset(): void;
  readonly filters: readonly ColumnFilter[];
  setFilters(filters: readonly ColumnFilter[]): void;
  /** Sets (or, with undefined, clears) one column's filter: the timebar's window goes through here. */
  setFilter(axis: Axis, column: string, filter: ColumnFilter | undefined): void;
  /** One column's histogram for the graph shown, read once (with the panel's, in the same cache). */
  histogram(axis: Axis, column: string): Promise<Histogram | undefined>;
  /** Every listed column's histogram, as the panel reads them when it opens. */
  loadAll(): Promise<void>;
  /** What the filters hide now (undefined before the graph is there). */
  hidden(): Hidden | undefined;
  /** Called after every change of the filters (applied to the graph), whoever made it. */
  onUpdate(listener: (filters: readonly ColumnFilter[]) => void): void;
};

export function createFilterPanel(host: FilterPanelHost): FilterPanel {
  const root = document.documentElement;
  const toggle = document.createElement("button");
  toggle.id = "filters-toggle";
  toggle.type = "button";
  toggle.className = "button";
  toggle.textContent = "Filters";
  toggle.title = "Show histograms of the node and edge columns, and filter by them";
  toggle.setAttribute("aria-expanded", "false");
  toggle.setAttribute("aria-controls", "filter-panel");
  document.querySelector(".topbar .tools")?.append(toggle);
  const panel = document.createElement("section");
  panel.id = "filter-panel";
  panel.className = "filter-panel";
  panel.setAttribute("aria-label", "Filters");
  panel.hidden = true;
  const heading = document.createElement("div");
  heading.className = "filter-heading";
  const title = document.createElement("h3");
  title.textContent = "Filters";
  const summary = document.createElement("span");
  summary.id = "filter-summary";
  summary.setAttribute("role", "status");
  const clear = document.createElement("button");
  clear.type = "button";
  clear.className = "button";
  clear.id = "filter-clear";
  clear.textContent = "Clear all";
  heading.append(title, summary, clear);
  const list = document.createElement("div");
  list.className = "filter-list";
  panel.append(heading, list);
  document.body.append(panel);

  let filters: ColumnFilter[] = [];
  const histograms = new Map<string, Histogram>();
  /** The graph the histograms were read from (a new graph empties the cache). */
  let cachedFor: GraphModel | undefined;
  let loadedFor: GraphModel | undefined;
  let loading: Promise<void> | undefined;
  let hidden: Hidden | undefined;
  const listeners: ((filters: readonly ColumnFilter[]) => void)[] = [];

  const keyOf = (axis: Axis, column: string) => `${axis}/${column}`;

  /** Reads the named columns not cached yet for this graph, in one request. */
  const fetchColumns = async (model: GraphModel, axis: Axis, names: readonly string[]): Promise<void> => {
    if (cachedFor !== model) {
      histograms.clear();
      cachedFor = model;
    }
    const missing = names.filter((name) => !histograms.has(keyOf(axis, name)));
    if (missing.length === 0) return;
    const table = await host.routes.columns(axis, missing);
    if (cachedFor !== model) return;
    for (const name of missing) {
      const vector = table.getChild(name);
      // a text column is read a slice at a time: a click meanwhile waits for a slice, not the whole column
      const histogram = vector ? await histogramInSlices(vector, yieldToPage) : undefined;
      if (cachedFor !== model) return;
      if (histogram) histograms.set(keyOf(axis, name), histogram);
      // A column at a time, so a click or a frame waiting meanwhile is not held behind every column's histogram.
      await yieldToPage();
      if (cachedFor !== model) return;
    }
  };

  const load = async (): Promise<void> => {
    const model = host.model();
    if (!model) return;
    if (loadedFor === model) return;
    const session = host.session();
    const columns = filterColumns(session, model);
    list.replaceChildren(note("Loading columns…"));
    for (const axis of ["nodes", "edges"] as const) {
      const names = columns.filter((column) => column.axis === axis).map((column) => column.name);
      if (names.length > 0) await fetchColumns(model, axis, names);
    }
    if (host.model() !== model) return;
    loadedFor = model;
    render(columns);
    update();
  };

  const ensureLoaded = () => {
    loading ??= load()
      .catch((error: unknown) => {
        list.replaceChildren(note(`The columns could not be loaded: ${error instanceof Error ? error.message : String(error)}`));
      })
      .finally(() => {
        loading = undefined;
      });
    return loading;
  };

  const render = (columns: FilterColumn[]) => {
    list.replaceChildren();
    for (const axis of ["nodes", "edges"] as const) {
      const mine = columns.filter((column) => column.axis === axis && histograms.has(keyOf(axis, column.name)));
      if (mine.length === 0) continue;
      const group = document.createElement("h4");
      group.textContent = axis === "nodes" ? "Nodes" : "Edges";
      list.append(group);
      for (const column of mine) {
        const histogram = histograms.get(keyOf(axis, column.name));
        if (histogram) list.append(columnBlock(column, histogram));
      }
    }
    if (list.childElementCount === 0) list.append(note("No column to filter by."));
  };

  const filterOf = (axis: Axis, column: string) => filters.find((filter) => filter.axis === axis && filter.column === column);

  const setFilter = (axis: Axis, column: string, next: ColumnFilter | undefined) => {
    filters = filters.filter((filter) => !(filter.axis === axis && filter.column === column));
    if (next) filters.push(next);
    update();
  };

  const columnBlock = (column: FilterColumn, histogram: Histogram): HTMLElement => {
    const block = document.createElement("section");
    block.className = "filter-column";
    block.dataset.axis = column.axis;
    block.dataset.column = column.name;
    const name = document.createElement("h5");
    name.textContent = column.name;
    const reset = document.createElement("button");
    reset.type = "button";
    reset.className = "filter-reset";
    reset.textContent = "Reset";
    reset.addEventListener("click", () => setFilter(column.axis, column.name, undefined));
    name.append(reset);
    block.append(name, histogram.kind === "text" ? textBlock(column, histogram) : numericBlock(column, histogram));
    return block;
  };

  const numericBlock = (column: FilterColumn, histogram: NumericHistogram): HTMLElement => {
    const box = document.createElement("div");
    const bars = document.createElement("div");
    bars.className = "histogram";
    bars.setAttribute("role", "group");
    bars.setAttribute("aria-label", `${column.name}: drag across the bars to keep a range`);
    const peak = Math.max(1, ...histogram.counts);
    let brushStart: number | undefined;
    histogram.counts.forEach((count, bin) => {
      const bar = document.createElement("div");
      bar.className = "bar";
      bar.dataset.bin = String(bin);
      bar.dataset.count = String(count);
      const { min, max } = binRange(histogram, bin, bin);
      bar.title = `${show(histogram, min)} – ${show(histogram, max)}: ${count}`;
      const fill = document.createElement("span");
      fill.style.height = `${(count / peak) * 100}%`;
      bar.append(fill);
      bar.addEventListener("pointerdown", (event) => {
        event.preventDefault();
        brushStart = bin;
        bars.setPointerCapture?.(event.pointerId);
      });
      bars.append(bar);
    });
    const binAt = (x: number) => {
      const rect = bars.getBoundingClientRect();
      return Math.max(0, Math.min(histogram.counts.length - 1, Math.floor(((x - rect.left) / rect.width) * histogram.counts.length)));
    };
    bars.addEventListener("pointermove", (event) => {
      if (brushStart === undefined) return;
      shade(bars, histogram, binRange(histogram, brushStart, binAt(event.clientX)));
    });
    bars.addEventListener("pointerup", (event) => {
      if (brushStart === undefined) return;
      const range = binRange(histogram, brushStart, binAt(event.clientX));
      brushStart = undefined;
      setFilter(column.axis, column.name, { axis: column.axis, column: column.name, kind: "range", ...range });
    });
    const bounds = document.createElement("div");
    bounds.className = "filter-bounds";
    const input = (which: "min" | "max") => {
      const field = document.createElement("input");
      field.type = histogram.kind === "time" ? "datetime-local" : "number";
      field.className = `filter-${which}`;
      field.setAttribute("aria-label", `${column.name} ${which === "min" ? "from" : "to"}`);
      if (histogram.kind === "number") field.step = "any";
      field.addEventListener("change", () => {
        const current = filterOf(column.axis, column.name);
        const low = current?.kind === "range" ? current.min : histogram.min;
        const high = current?.kind === "range" ? current.max : histogram.max;
        const value = histogram.kind === "time" ? Date.parse(`${field.value}Z`) : Number(field.value);
        if (field.value === "" || Number.isNaN(value)) return;
        const next = which === "min" ? { min: value, max: high } : { min: low, max: value };
        setFilter(column.axis, column.name, { axis: column.axis, column: column.name, kind: "range", ...next });
      });
      return field;
    };
    bounds.append(input("min"), document.createTextNode("–"), input("max"));
    box.append(bars, bounds);
    return box;
  };

  const textBlock = (column: FilterColumn, histogram: TextHistogram): HTMLElement => {
    const box = document.createElement("ul");
    box.className = "filter-values";
    const peak = Math.max(1, ...histogram.top.map((entry) => entry.count));
    for (const entry of histogram.top) {
      const item = document.createElement("li");
      const label = document.createElement("label");
      const tick = document.createElement("input");
      tick.type = "checkbox";
      tick.value = entry.value;
      tick.addEventListener("change", () => {
        const current = filterOf(column.axis, column.name);
        const kept = new Set(current?.kind === "values" ? current.values : []);
        if (tick.checked) kept.add(entry.value);
        else kept.delete(entry.value);
        setFilter(
          column.axis,
          column.name,
          kept.size === 0 ? undefined : { axis: column.axis, column: column.name, kind: "values", values: [...kept] },
        );
      });
      const text = document.createElement("span");
      text.className = "value";
      text.textContent = entry.value;
      const count = document.createElement("span");
      count.className = "count";
      count.textContent = String(entry.count);
      const bar = document.createElement("span");
      bar.className = "value-bar";
      bar.style.width = `${(entry.count / peak) * 100}%`;
      label.append(tick, text, count, bar);
      item.append(label);
      box.append(item);
    }
    if (histogram.distinct > histogram.top.length) {
      const more = document.createElement("li");
      more.className = "more";
      more.textContent = `and ${histogram.distinct - histogram.top.length} more values`;
      box.append(more);
    }
    return box;
  };

  /** Applies the filters to the graph and shows them in the panel (bars shaded, boxes ticked, bounds filled). */
  const update = () => {
    const model = host.model();
    root.dataset.filters = String(filters.length);
    host.changed?.(filters);
    if (!model) return;
    hidden = hiddenBy(filters, cachedFor === model ? histograms : new Map(), model.topology);
    root.dataset.filterHiddenNodes = String(hidden.nodeCount);
    root.dataset.filterHiddenEdges = String(hidden.edgeCount);
    host.apply(hiddenLayer(hidden, model.topology));
    summary.textContent =
      filters.length === 0
        ? "Showing everything"
        : `${(model.topology.nodeCount - hidden.nodeCount).toLocaleString("en-US")} of ${model.topology.nodeCount.toLocaleString("en-US")} nodes shown`;
    for (const block of list.querySelectorAll<HTMLElement>(".filter-column")) {
      const axis = block.dataset.axis as Axis;
      const column = block.dataset.column ?? "";
      const histogram = histograms.get(keyOf(axis, column));
      const filter = filterOf(axis, column);
      block.classList.toggle("is-active", filter !== undefined);
      if (!histogram) continue;
      if (histogram.kind === "text") {
        for (const tick of block.querySelectorAll<HTMLInputElement>("input[type=checkbox]"))
          tick.checked = filter?.kind === "values" && filter.values.includes(tick.value);
        continue;
      }
      const range = filter?.kind === "range" ? filter : undefined;
      shade(block.querySelector(".histogram"), histogram, range);
      const min = block.querySelector<HTMLInputElement>(".filter-min");
      const max = block.querySelector<HTMLInputElement>(".filter-max");
      if (min && document.activeElement !== min) min.value = range ? inputValue(histogram, range.min) : "";
      if (max && document.activeElement !== max) max.value = range ? inputValue(histogram, range.max) : "";
    }
    for (const listener of listeners) listener(filters);
  };

  toggle.addEventListener("click", () => {
    panel.hidden = !panel.hidden;
    toggle.setAttribute("aria-expanded", String(!panel.hidden));
    // The panel shows first; the columns are read and counted after that frame (at 100k rows the histograms take
    // a few hundred ms of the page's thread, which the opening would otherwise wait for).
    if (!panel.hidden) {
      if (loadedFor !== host.model()) list.replaceChildren(note("Loading columns…"));
      requestAnimationFrame(() => window.setTimeout(() => void ensureLoaded(), 0));
    }
  });
  clear.addEventListener("click", () => {
    filters = [];
    update();
  });

  return {
    reset() {
      loadedFor = undefined;
      hidden = undefined;
      if (!panel.hidden || filters.length > 0) void ensureLoaded();
    },
    get filters() {
      return filters;
    },
    setFilters(next) {
      filters = [...next];
      void ensureLoaded().then(update);
    },
    setFilter,
    async histogram(axis, column) {
      const model = host.model();
      if (!model) return undefined;
      await fetchColumns(model, axis, [column]);
      return cachedFor === model ? histograms.get(keyOf(axis, column)) : undefined;
    },
    loadAll: () => ensureLoaded(),
    hidden: () => hidden,
    onUpdate(listener) {
      listeners.push(listener);
    },
  };
}

function shade(bars: Element | null, histogram: NumericHistogram, range: { min: number; max: number } | undefined): void {
  if (!bars) return;
  for (const bar of bars.querySelectorAll<HTMLElement>(".bar")) {
    const bin = Number(bar.dataset.bin);
    bar.classList.toggle("is-kept", range !== undefined && binInRange(histogram, bin, range.min, range.max));
    bar.classList.toggle("is-out", range !== undefined && !binInRange(histogram, bin, range.min, range.max));
  }
}

function show(histogram: NumericHistogram, value: number): string {
  if (histogram.kind === "time") return new Date(value).toISOString().slice(0, 19).replace("T", " ");
  return value.toLocaleString("en-US", { maximumSignificantDigits: 4 });
}

function inputValue(histogram: NumericHistogram, value: number): string {
  if (histogram.kind === "time") return new Date(value).toISOString().slice(0, 16);
  return String(Number(value.toPrecision(10)));
}

function note(text: string): HTMLElement {
  const p = document.createElement("p");
  p.className = "filter-note";
  p.textContent = text;
  return p;
}

/** Resolves after the page has had a turn of its own (pending input and timers run first). */
function yieldToPage(): Promise<void> {
  return new Promise((resolve) => window.setTimeout(resolve, 0));
}
