// The timebar: a strip under the graph with a histogram over time of a datetime column (node or edge, the field
// filters permitting), shown only when the graph has one. Dragging across it keeps a time window; the step buttons
// slide the window one bin back or forth and Play slides it forward until the end. The window is a range filter of
// the Filters panel's state (filter-panel.ts), so it hides rows like any filter and is shared through the session.
import "./timebar.css";
import type { Axis } from "./data-routes.ts";
import { type FilterColumn, filterColumns } from "./filter-columns.ts";
import type { FilterPanel } from "./filter-panel.ts";
import { binInRange, binRange, type ColumnFilter } from "./filter-state.ts";
import type { GraphModel } from "./graph-model.ts";
import { type NumericHistogram, numericHistogram } from "./histogram.ts";
import type { VizSession } from "./session-query.ts";

/** Bins of the timebar's histogram. */
export const TIMEBAR_BINS = 60;
/** A window started by Play or a step with none set spans this many bins. */
export const DEFAULT_WINDOW_BINS = 6;
/** How long Play shows each window before sliding to the next. */
export const PLAY_STEP_MS = 800;

/** pandas dtypes of times: datetime64[ns], datetime64[ns, UTC], dates. */
const TIME_DTYPE = /^(datetime64|date|timestamp)/i;

export type TimebarHost = {
  panel: FilterPanel;
  session(): VizSession;
  model(): GraphModel | undefined;
};

export type Timebar = {
  /** The graph was (re)loaded: the datetime columns are found again and the shown one read. */
  reset(): void;
};

/** The listable datetime columns, nodes first. */
export function timeColumns(session: VizSession, model: GraphModel): FilterColumn[] {
  return filterColumns(session, model).filter((column) => TIME_DTYPE.test(column.dtype));
}

/** Bins [first, last] of a window on the timebar's histogram, from a range (bins whose start lies inside it). */
export function windowBins(bars: NumericHistogram, min: number, max: number): { first: number; last: number } | undefined {
  let first = -1;
  let last = -1;
  for (let bin = 0; bin < bars.counts.length; bin++) {
    if (!binInRange(bars, bin, min, max)) continue;
    if (first < 0) first = bin;
    last = bin;
  }
  return first < 0 ? undefined : { first, last };
}

/** The window slid by `by` bins, kept inside the bins (undefined when it cannot move that way). */
export function slide(window: { first: number; last: number }, by: number, bins: number): { first: number; last: number } | undefined {
  const first = window.first + by;
  const last = window.last + by;
  if (first < 0 || last > bins - 1) return undefined;
  return { first, last };
}

export function createTimebar(host: TimebarHost, doc: Document = document): Timebar {
  const root = doc.documentElement;
  const bar = doc.createElement("section");
  bar.id = "timebar";
  bar.className = "timebar";
  bar.setAttribute("aria-label", "Timebar");
  bar.hidden = true;

  const head = doc.createElement("div");
  head.className = "timebar-head";
  const select = doc.createElement("select");
  select.id = "timebar-column";
  select.setAttribute("aria-label", "Time column");
  const button = (id: string, text: string, label: string) => {
    const b = doc.createElement("button");
    b.type = "button";
    b.id = id;
    b.className = "button";
    b.textContent = text;
    b.title = label;
    b.setAttribute("aria-label", label);
    return b;
  };
  const back = button("timebar-back", "◀", "Step the window back");
  const play = button("timebar-play", "▶", "Play: slide the window forward");
  play.setAttribute("aria-pressed", "false");
  const forward = button("timebar-forward", "▶|", "Step the window forward");
  const label = doc.createElement("span");
  label.id = "timebar-window";
  label.className = "timebar-window";
  label.setAttribute("role", "status");
  const clear = button("timebar-clear", "All", "Show all times");
  head.append(select, back, play, forward, label, clear);

  const bars = doc.createElement("div");
  bars.className = "timebar-bars";
  bars.setAttribute("role", "group");
  bars.setAttribute("aria-label", "Drag across the timebar to keep a time window; arrow keys slide it, Escape shows all times");
  bars.tabIndex = 0;
  const axis = doc.createElement("div");
  axis.className = "timebar-axis";
  const start = doc.createElement("span");
  const end = doc.createElement("span");
  axis.append(start, end);
  bar.append(head, bars, axis);
  doc.body.append(bar);

  let columns: FilterColumn[] = [];
  let shown: { axis: Axis; column: string; bars: NumericHistogram } | undefined;
  let ticket = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let brushStart: number | undefined;

  const setShown = (visible: boolean) => {
    bar.hidden = !visible;
    if (visible) root.dataset.timebar = "shown";
    else delete root.dataset.timebar;
  };

  const current = (): ColumnFilter | undefined =>
    shown && host.panel.filters.find((filter) => filter.axis === shown?.axis && filter.column === shown.column);

  const currentWindow = () => {
    const filter = current();
    return shown && filter?.kind === "range" ? windowBins(shown.bars, filter.min, filter.max) : undefined;
  };

  const setWindow = (window: { first: number; last: number } | undefined) => {
    if (!shown) return;
    const range = window && binRange(shown.bars, window.first, window.last);
    host.panel.setFilter(shown.axis, shown.column, range && { axis: shown.axis, column: shown.column, kind: "range", ...range });
  };

  const stop = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    play.textContent = "▶";
    play.setAttribute("aria-pressed", "false");
    play.setAttribute("aria-label", "Play: slide the window forward");
  };

  /** One bin forward (or back); false at the end. */
  const step = (by: number): boolean => {
    if (!shown) return false;
    const bins = shown.bars.counts.length;
    const window = currentWindow();
    if (!window) {
      setWindow({ first: by > 0 ? 0 : bins - DEFAULT_WINDOW_BINS, last: by > 0 ? DEFAULT_WINDOW_BINS - 1 : bins - 1 });
      return true;
    }
    const next = slide(window, by, bins);
    if (!next) return false;
    setWindow(next);
    return true;
  };

  const shade = (range: { min: number; max: number } | undefined) => {
    if (!shown) return;
    for (const item of bars.children) {
      const bin = Number((item as HTMLElement).dataset.bin);
      const kept = range !== undefined && binInRange(shown.bars, bin, range.min, range.max);
      item.classList.toggle("is-kept", kept);
      item.classList.toggle("is-out", range !== undefined && !kept);
    }
  };

  /** Shows the window the filters hold on the shown column (whoever set it). */
  const render = () => {
    if (!shown) return;
    const filter = current();
    const range = filter?.kind === "range" ? filter : undefined;
    shade(range);
    // A window's end lies just under the next bin's start: shown rounded to the second.
    label.textContent = range ? `${timeText(range.min)} – ${timeText(Math.round(range.max / 1000) * 1000)}` : "All times";
    bar.dataset.min = range ? String(range.min) : "";
    bar.dataset.max = range ? String(range.max) : "";
    bar.classList.toggle("is-active", range !== undefined);
  };

  const draw = () => {
    if (!shown) return;
    const histogram = shown.bars;
    const peak = Math.max(1, ...histogram.counts);
    bars.replaceChildren();
    histogram.counts.forEach((count, bin) => {
      const item = doc.createElement("div");
      item.className = "bar";
      item.dataset.bin = String(bin);
      item.dataset.count = String(count);
      const { min, max } = binRange(histogram, bin, bin);
      item.title = `${timeText(min)} – ${timeText(max)}: ${count}`;
      const fill = doc.createElement("span");
      fill.style.height = `${(count / peak) * 100}%`;
      item.append(fill);
      bars.append(item);
    });
    start.textContent = timeText(histogram.min);
    end.textContent = timeText(histogram.max);
    render();
  };

  /** Reads the chosen column's values (through the panel's cache) and draws its histogram. */
  const show = async (key: string) => {
    const mine = ++ticket;
    stop();
    const column = columns.find((c) => `${c.axis}/${c.name}` === key);
    if (!column) return;
    label.textContent = "Loading…";
    try {
      const histogram = await host.panel.histogram(column.axis, column.name);
      if (mine !== ticket) return;
      if (histogram?.kind !== "time" || !histogram.counts.some((count) => count > 0)) {
        // Not a time column after all (the dtype said so, Arrow did not), or no row has a time: leave it out.
        columns = columns.filter((c) => c !== column);
        fillSelect();
        if (columns[0]) await show(`${columns[0].axis}/${columns[0].name}`);
        else setShown(false);
        return;
      }
      shown = {
        axis: column.axis,
        column: column.name,
        bars: numericHistogram(histogram.values, histogram.min, histogram.max, "time", TIMEBAR_BINS),
      };
      bar.dataset.axis = column.axis;
      bar.dataset.column = column.name;
      draw();
    } catch (error) {
      if (mine === ticket) label.textContent = `The times could not be read: ${error instanceof Error ? error.message : String(error)}`;
    }
  };

  const fillSelect = () => {
    select.replaceChildren(
      ...columns.map((column) => {
        const option = doc.createElement("option");
        option.value = `${column.axis}/${column.name}`;
        option.textContent = `${column.axis === "nodes" ? "Nodes" : "Edges"} · ${column.name}`;
        return option;
      }),
    );
    select.disabled = columns.length < 2;
  };

  const binAt = (x: number) => {
    const rect = bars.getBoundingClientRect();
    const bins = shown?.bars.counts.length ?? 1;
    return Math.max(0, Math.min(bins - 1, Math.floor(((x - rect.left) / rect.width) * bins)));
  };
  bars.addEventListener("pointerdown", (event) => {
    if (!shown) return;
    event.preventDefault();
    stop();
    brushStart = binAt(event.clientX);
    bars.setPointerCapture?.(event.pointerId);
    shade(binRange(shown.bars, brushStart, brushStart));
  });
  bars.addEventListener("pointermove", (event) => {
    if (brushStart === undefined || !shown) return;
    shade(binRange(shown.bars, brushStart, binAt(event.clientX)));
  });
  const endBrush = (event: PointerEvent) => {
    if (brushStart === undefined) return;
    const first = brushStart;
    const last = binAt(event.clientX);
    brushStart = undefined;
    setWindow({ first: Math.min(first, last), last: Math.max(first, last) });
  };
  bars.addEventListener("pointerup", endBrush);
  bars.addEventListener("pointercancel", () => {
    brushStart = undefined;
    render();
  });

  bars.addEventListener("keydown", (event) => {
    if (event.key !== "ArrowLeft" && event.key !== "ArrowRight" && event.key !== "Escape") return;
    event.preventDefault();
    // Escape here clears the window, not the page's selection.
    event.stopPropagation();
    stop();
    if (event.key === "Escape") setWindow(undefined);
    else step(event.key === "ArrowRight" ? 1 : -1);
  });
  select.addEventListener("change", () => void show(select.value));
  back.addEventListener("click", () => {
    stop();
    step(-1);
  });
  forward.addEventListener("click", () => {
    stop();
    step(1);
  });
  clear.addEventListener("click", () => {
    stop();
    setWindow(undefined);
  });
  play.addEventListener("click", () => {
    if (timer !== undefined) {
      stop();
      return;
    }
    if (!shown) return;
    // From the start when there is no window or it already reached the end.
    const window = currentWindow();
    if (!window || window.last === shown.bars.counts.length - 1) {
      const width = window ? window.last - window.first + 1 : DEFAULT_WINDOW_BINS;
      setWindow({ first: 0, last: width - 1 });
    }
    play.textContent = "❚❚";
    play.setAttribute("aria-pressed", "true");
    play.setAttribute("aria-label", "Pause");
    // Each step waits PLAY_STEP_MS after the last one's work (not on a fixed beat): on a big graph a step costs a
    // redraw, and the page stays free to answer between steps.
    const tick = () => {
      if (!step(1)) stop();
      else timer = setTimeout(tick, PLAY_STEP_MS);
    };
    timer = setTimeout(tick, PLAY_STEP_MS);
  });

  host.panel.onUpdate(render);

  return {
    reset() {
      stop();
      shown = undefined;
      const model = host.model();
      columns = model ? timeColumns(host.session(), model) : [];
      fillSelect();
      setShown(columns.length > 0);
      const first = columns[0];
      if (first) void show(`${first.axis}/${first.name}`);
    },
  };
}

/** A time in UTC, to the minute (seconds when it has them). */
export function timeText(ms: number): string {
  const iso = new Date(ms).toISOString();
  return iso.slice(17, 23) === "00.000" ? iso.slice(0, 16).replace("T", " ") : iso.slice(0, 19).replace("T", " ");
}
