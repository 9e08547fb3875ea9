// The top bar's search: finds nodes whose id, label or shown text columns contain the typed text, counts them all,
// pages through them and hands the chosen one to the page.
import type { GraphModel } from "./graph-model.ts";
import { allLabels } from "./node-text.ts";
import { baseFields, type SearchField, type SearchFields } from "./search-columns.ts";
import { findMatches, type SearchMatches } from "./search-matches.ts";

/** Matches listed per page. */
export const PAGE_SIZE = 8;

export type SearchBox = { setModel(model: GraphModel | undefined): void; focus(): void };

export function createSearchBox(
  input: HTMLInputElement,
  list: HTMLElement,
  pick: (index: number) => void,
  searchFields?: SearchFields,
): SearchBox {
  let model: GraphModel | undefined;
  let fields: SearchField[] = [];
  let matches: SearchMatches = { rows: new Int32Array(0), fields: new Int32Array(0) };
  let page = 0;
  let active = 0;
  let timer = 0;
  let ticket = 0;

  const close = () => {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
  };
  const pages = () => Math.max(1, Math.ceil(matches.rows.length / PAGE_SIZE));
  const onPage = () => Array.from(matches.rows.subarray(page * PAGE_SIZE, (page + 1) * PAGE_SIZE));

  const button = (label: string, className: string, enabled: boolean, go: () => void) => {
    const control = document.createElement("button");
    control.type = "button";
    control.className = className;
    control.textContent = label;
    control.disabled = !enabled;
    control.addEventListener("mousedown", (event) => {
      // Keeps the focus in the input, so the list stays open.
      event.preventDefault();
      if (!control.disabled) go();
    });
    return control;
  };

  const turn = (step: number) => {
    const next = Math.min(pages() - 1, Math.max(0, page + step));
    if (next === page) return;
    page = next;
    active = step > 0 ? 0 : Math.max(0, onPage().length - 1);
    show();
  };

  const show = () => {
    const total = matches.rows.length;
    const labels = model ? allLabels(model) : [];
    const rows = onPage();
    const items: HTMLElement[] = [];
    const count = document.createElement("div");
    count.className = "search-count";
    count.setAttribute("role", "status");
    const first = page * PAGE_SIZE + 1;
    count.textContent =
      total === 0
        ? "No matching node"
        : `${total.toLocaleString("en-US")} match${total === 1 ? "" : "es"}${total > PAGE_SIZE ? ` · ${first}–${first + rows.length - 1}` : ""}`;
    items.push(count);
    rows.forEach((index, k) => {
      const item = document.createElement("div");
      item.setAttribute("role", "option");
      item.setAttribute("aria-selected", String(k === active));
      item.dataset.node = String(index);
      item.textContent = labels[index] ?? "";
      // Where it matched, when that is not the label shown.
      const field = fields[matches.fields[page * PAGE_SIZE + k] ?? 0];
      if (field && field !== fields[0]) {
        const where = document.createElement("span");
        where.className = "search-where";
        where.textContent = `${field.name}: ${field.text[index] ?? ""}`;
        item.append(where);
      }
      item.addEventListener("mousedown", (event) => {
        event.preventDefault();
        choose(index);
      });
      items.push(item);
    });
    if (total > PAGE_SIZE) {
      const nav = document.createElement("div");
      nav.className = "search-pages";
      nav.append(
        button("Previous", "search-prev", page > 0, () => turn(-1)),
        button("Next", "search-next", page < pages() - 1, () => turn(1)),
      );
      items.push(nav);
    }
    list.replaceChildren(...items);
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
  };

  const run = async () => {
    const mine = ++ticket;
    const text = input.value.trim();
    if (!model || text === "") {
      matches = { rows: new Int32Array(0), fields: new Int32Array(0) };
      close();
      return;
    }
    const current = model;
    const pending = searchFields ? searchFields(current) : Promise.resolve(baseFields(current));
    // The text columns at hand answer at once; while they first download, ids and labels answer, then all of them.
    const now = await Promise.race([pending, Promise.resolve(undefined)]);
    if (mine !== ticket || current !== model) return;
    answer(now ?? baseFields(current), text, current, true);
    if (now) return;
    const all = await pending;
    if (mine !== ticket || current !== model) return;
    answer(all, text, current, false);
  };
  const answer = (found: SearchField[], text: string, current: GraphModel, fresh: boolean) => {
    fields = found;
    matches = findMatches(fields, text, current.topology.nodeCount);
    // A fuller answer keeps the page and the active row where it can.
    page = fresh ? 0 : Math.min(page, pages() - 1);
    active = fresh ? 0 : Math.min(active, Math.max(0, onPage().length - 1));
    show();
  };
  /** The text changed since the last search started (the list shown may be an older text's). */
  let typed = false;
  const schedule = () => {
    typed = false;
    return run();
  };

  const choose = (index: number) => {
    close();
    input.blur();
    pick(index);
  };

  input.addEventListener("input", () => {
    typed = true;
    window.clearTimeout(timer);
    // Large graphs scan many values: wait for a pause in typing.
    timer = window.setTimeout(schedule, model && model.topology.nodeCount > 100_000 ? 200 : 60);
  });
  input.addEventListener("keydown", (event) => {
    const rows = onPage();
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (rows.length === 0) return;
      const down = event.key === "ArrowDown";
      // Past either end of a page: the next or previous page.
      if (down && active === rows.length - 1 && page < pages() - 1) return turn(1);
      if (!down && active === 0 && page > 0) return turn(-1);
      active = (active + (down ? 1 : rows.length - 1)) % rows.length;
      show();
    } else if (event.key === "PageDown" || event.key === "PageUp") {
      event.preventDefault();
      turn(event.key === "PageDown" ? 1 : -1);
    } else if (event.key === "Enter") {
      event.preventDefault();
      window.clearTimeout(timer);
      // The row highlighted now is the one chosen, even while a fuller answer (every text column) is on its way: an
      // Escape or another key soon after must not lose it. With no list shown, or one for an older text, the search
      // runs first.
      const shown = list.hidden || typed ? undefined : onPage()[active];
      if (shown !== undefined) {
        choose(shown);
        return;
      }
      void schedule().then(() => {
        const index = onPage()[active];
        if (index !== undefined) choose(index);
      });
    } else if (event.key === "Escape") {
      close();
      input.blur();
    }
  });
  input.addEventListener("blur", () => window.setTimeout(close, 100));

  return {
    setModel(next) {
      model = next;
      matches = { rows: new Int32Array(0), fields: new Int32Array(0) };
      ticket++;
      close();
    },
    focus() {
      input.focus();
      input.select();
    },
  };
}

/** Exact matches first, then prefixes, then any substring; each group in node order. */
export function findLabels(labels: readonly string[], text: string, limit: number): number[] {
  const exact: number[] = [];
  const prefix: number[] = [];
  const inside: number[] = [];
  for (let i = 0; i < labels.length && exact.length < limit; i++) {
    const label = (labels[i] ?? "").toLowerCase();
    const at = label.indexOf(text);
    if (at < 0) continue;
    if (label.length === text.length) exact.push(i);
    else if (at === 0) {
      if (prefix.length < limit) prefix.push(i);
    } else if (inside.length < limit) inside.push(i);
  }
  return [...exact, ...prefix, ...inside].slice(0, limit);
}
