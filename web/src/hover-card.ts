// The hover card: a small card by the pointer naming the hovered node (its label) with its first few fields, those the
// field filters let the inspector show. The row comes from the row route (`.../nodes/row/<i>`), once per node and field
// filters: later hovers over the same node read it from a cache.
import type { FieldFilter } from "../../src/datasets/encodings/types.ts";
import type { DataRoutes } from "./data-routes.ts";
import { inspectorFields } from "./field-visibility.ts";
import "./hover-card.css";
import { formatValue } from "./node-text.ts";

/** How many fields the card lists (the inspector lists them all). */
export const HOVER_CARD_FIELDS = 4;
/** Rows kept in the cache; the oldest goes first. */
const CACHE_SIZE = 200;

export type HoverCardContext = {
  filters: FieldFilter[];
  /** The node's label as the page draws it. */
  label: (index: number) => string;
};

export type HoverCard = {
  /** Shows the card for a node (undefined hides it). */
  show(index: number | undefined): void;
  /** Forgets cached rows (the data or the field filters changed). */
  clear(): void;
};

export function createHoverCard(
  container: HTMLElement,
  routes: DataRoutes,
  context: () => HoverCardContext,
  doc: Document = document,
): HoverCard {
  const card = doc.createElement("div");
  card.id = "hover-card";
  card.className = "hover-card";
  card.setAttribute("role", "tooltip");
  card.hidden = true;
  const title = doc.createElement("div");
  title.className = "hover-card-title";
  const fields = doc.createElement("dl");
  fields.className = "hover-card-fields";
  card.append(title, fields);
  doc.body.append(card);

  const cache = new Map<number, Promise<Record<string, unknown>>>();
  let pointer = { x: 0, y: 0 };
  let current: number | undefined;
  container.addEventListener("pointermove", (event) => {
    pointer = { x: event.clientX, y: event.clientY };
    if (!card.hidden) place();
  });

  const place = () => {
    const width = card.offsetWidth;
    const height = card.offsetHeight;
    const x = pointer.x + 14 + width > window.innerWidth ? pointer.x - 14 - width : pointer.x + 14;
    const y = Math.min(pointer.y + 14, window.innerHeight - height - 4);
    card.style.transform = `translate(${Math.max(4, x)}px, ${Math.max(4, y)}px)`;
  };

  const row = (index: number) => {
    let found = cache.get(index);
    if (!found) {
      found = routes.row("nodes", index);
      found.catch(() => cache.delete(index));
      cache.set(index, found);
      if (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value as number);
    }
    return found;
  };

  const render = (index: number, values: Record<string, unknown> | undefined) => {
    const { filters, label } = context();
    title.textContent = label(index);
    const items: HTMLElement[] = [];
    if (values) {
      for (const field of inspectorFields(filters, "point", values).slice(0, HOVER_CARD_FIELDS)) {
        const term = doc.createElement("dt");
        term.textContent = field;
        const value = doc.createElement("dd");
        value.textContent = formatValue(values[field]);
        items.push(term, value);
      }
    }
    fields.replaceChildren(...items);
    card.hidden = false;
    place();
  };

  return {
    show(index) {
      current = index;
      if (index === undefined) {
        card.hidden = true;
        return;
      }
      render(index, undefined);
      row(index).then(
        (values) => {
          if (current === index) render(index, values);
        },
        () => undefined,
      );
    },
    clear() {
      cache.clear();
    },
  };
}
