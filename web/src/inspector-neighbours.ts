// The inspector's links: a node's degree and neighbours, an edge's two endpoints, each a button that selects that node.
import type { Topology } from "./graph-topology.ts";
import { neighboursOf } from "./inspector-neighbour-ids.ts";
import "./search-inspector.css";

/** Neighbours listed at most; the rest are counted ("and N more"). */
export const MAX_NEIGHBOURS = 50;

export type NeighbourList = {
  /** A node: its degree and its distinct neighbours, in link order. */
  showNode(topology: Topology, index: number, label: (index: number) => string): void;
  /** An edge: both endpoints (node-table rows), source first. */
  showEdge(source: number, target: number, label: (index: number) => string): void;
  clear(): void;
};

/** Appends its section under the inspector's fields; `pick` selects a node and zooms to it. */
export function createNeighbourList(panel: HTMLElement, pick: (index: number) => void): NeighbourList {
  const section = document.createElement("section");
  section.id = "inspector-links";
  section.className = "inspector-links";
  section.hidden = true;
  panel.append(section);

  const link = (index: number, label: (index: number) => string) => {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "node-link";
    button.dataset.node = String(index);
    button.textContent = label(index);
    button.title = `Select ${button.textContent} and zoom to it`;
    button.addEventListener("click", () => pick(index));
    return button;
  };
  const heading = (text: string) => {
    const h = document.createElement("h3");
    h.textContent = text;
    return h;
  };

  return {
    showNode(topology, index, label) {
      const neighbours = neighboursOf(topology, index);
      const degree = topology.degree[index] ?? 0;
      const summary = document.createElement("div");
      summary.className = "inspector-degree";
      summary.textContent = `Degree ${degree.toLocaleString("en-US")} · ${neighbours.length.toLocaleString("en-US")} neighbour${neighbours.length === 1 ? "" : "s"}`;
      const list = document.createElement("ul");
      list.className = "neighbour-list";
      list.setAttribute("aria-label", "Neighbours");
      for (const other of neighbours.slice(0, MAX_NEIGHBOURS)) {
        const item = document.createElement("li");
        item.append(link(other, label));
        list.append(item);
      }
      const parts: HTMLElement[] = [heading("Neighbours"), summary, list];
      if (neighbours.length > MAX_NEIGHBOURS) {
        const more = document.createElement("div");
        more.className = "neighbour-more";
        more.textContent = `and ${(neighbours.length - MAX_NEIGHBOURS).toLocaleString("en-US")} more`;
        parts.push(more);
      }
      section.replaceChildren(...parts);
      section.hidden = false;
    },
    showEdge(source, target, label) {
      const row = (name: string, index: number) => {
        const line = document.createElement("div");
        line.className = "edge-end";
        const term = document.createElement("span");
        term.textContent = `${name} `;
        line.append(term, link(index, label));
        return line;
      };
      section.replaceChildren(heading("Endpoints"), row("From", source), row("To", target));
      section.hidden = false;
    },
    clear() {
      section.replaceChildren();
      section.hidden = true;
    },
  };
}
