// The collections panel: the session's collections in render order, each with its color, name, match count and a
// visibility toggle that is local to this viewer.
import type { CollectionInfo } from "./collections-query.ts";

export type CollectionsPanel = {
  readonly element: HTMLElement;
  render(list: readonly CollectionInfo[], isVisible: (id: string) => boolean): void;
};

/** The panel, added to `parent`; hidden while the session has no collections. */
export function createCollectionsPanel(
  onToggle: (id: string, visible: boolean) => void,
  parent: HTMLElement = document.body,
  show = true,
): CollectionsPanel {
  const element = document.createElement("aside");
  element.id = "collections";
  element.className = "collections";
  element.setAttribute("aria-label", "Collections");
  element.hidden = true;
  const heading = document.createElement("h3");
  heading.textContent = "Collections";
  const list = document.createElement("ul");
  element.append(heading, list);
  parent.append(element);
  return {
    element,
    render(collections, isVisible) {
      list.replaceChildren(...collections.map((c) => row(c, isVisible(c.id), onToggle)));
      element.hidden = !show || collections.length === 0;
    },
  };
}

/** "—" when the server does not know how many elements matched: never a made-up 0. */
export function matchCountText(count: number | null): string {
  return count === null ? "—" : count.toLocaleString("en-US");
}

function row(c: CollectionInfo, visible: boolean, onToggle: (id: string, visible: boolean) => void): HTMLElement {
  const item = document.createElement("li");
  item.dataset.collectionId = c.id;
  if (c.description) item.title = c.description;
  const label = document.createElement("label");
  const toggle = document.createElement("input");
  toggle.type = "checkbox";
  toggle.checked = visible;
  toggle.setAttribute("aria-label", `Show ${c.name}`);
  toggle.addEventListener("change", () => onToggle(c.id, toggle.checked));
  const swatch = document.createElement("span");
  swatch.className = "swatch";
  swatch.style.background = c.color;
  const name = document.createElement("span");
  name.className = "collection-name";
  name.textContent = c.name;
  const count = document.createElement("span");
  count.className = "collection-count";
  count.textContent = matchCountText(c.matchCount);
  count.title = c.matchCount === null ? "match count unknown" : `${count.textContent} nodes and edges matched`;
  label.append(toggle, swatch, name, count);
  item.append(label);
  return item;
}
