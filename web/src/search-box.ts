// The top bar's search: finds nodes whose label contains the typed text and hands the chosen one to the page.
import type { GraphModel } from "./graph-model.ts";
import { allLabels } from "./node-text.ts";

const MAX_RESULTS = 8;

export type SearchBox = { setModel(model: GraphModel | undefined): void; focus(): void };

export function createSearchBox(input: HTMLInputElement, list: HTMLElement, pick: (index: number) => void): SearchBox {
  let model: GraphModel | undefined;
  let results: number[] = [];
  let active = 0;
  let timer = 0;

  const close = () => {
    list.hidden = true;
    input.setAttribute("aria-expanded", "false");
  };

  const show = () => {
    const items = results.map((index, k) => {
      const item = document.createElement("div");
      item.setAttribute("role", "option");
      item.setAttribute("aria-selected", String(k === active));
      item.textContent = model ? (allLabels(model)[index] ?? "") : "";
      item.addEventListener("mousedown", (event) => {
        event.preventDefault();
        choose(index);
      });
      return item;
    });
    if (items.length === 0) {
      const empty = document.createElement("div");
      empty.className = "empty";
      empty.textContent = "No matching node";
      items.push(empty);
    }
    list.replaceChildren(...items);
    list.hidden = false;
    input.setAttribute("aria-expanded", "true");
  };

  const run = () => {
    const text = input.value.trim().toLowerCase();
    if (!model || text === "") {
      results = [];
      close();
      return;
    }
    results = findLabels(allLabels(model), text, MAX_RESULTS);
    active = 0;
    show();
  };

  const choose = (index: number) => {
    close();
    input.blur();
    pick(index);
  };

  input.addEventListener("input", () => {
    window.clearTimeout(timer);
    // Large graphs scan many labels: wait for a pause in typing.
    timer = window.setTimeout(run, model && model.topology.nodeCount > 100_000 ? 200 : 60);
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (results.length === 0) return;
      active = (active + (event.key === "ArrowDown" ? 1 : results.length - 1)) % results.length;
      show();
    } else if (event.key === "Enter") {
      event.preventDefault();
      window.clearTimeout(timer);
      if (list.hidden) run();
      const index = results[active];
      if (index !== undefined) choose(index);
    } else if (event.key === "Escape") {
      close();
      input.blur();
    }
  });
  input.addEventListener("blur", () => window.setTimeout(close, 100));

  return {
    setModel(next) {
      model = next;
      results = [];
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
