// Draws text labels over the canvas for the hovered and selected nodes and a bounded number of the largest ones.
import type { Graph } from "@cosmos.gl/graph";
import type { GraphModel } from "./graph-model.ts";
import { nodeLabel } from "./node-text.ts";

/** Standing labels at most; more would crowd the view and cost a DOM node each. */
const STANDING = 16;
/** Height of the top bar's band, in CSS pixels. */
const TOP_BAR = 58;

export type LabelLayer = {
  setModel(model: GraphModel, graph: Graph): void;
  setHovered(index: number | undefined): void;
  setSelected(index: number | undefined): void;
  /** Nodes in the current highlight; other labels fade with their nodes. Undefined: no highlight. */
  setHighlighted(indices: readonly number[] | undefined): void;
  destroy(): void;
};

type Slot = { element: HTMLDivElement; index: number; width: number };

export function createLabelLayer(root: HTMLElement): LabelLayer {
  let model: GraphModel | undefined;
  let graph: Graph | undefined;
  let standing: number[] = [];
  let hovered: number | undefined;
  let selected: number | undefined;
  let highlighted: Set<number> | undefined;
  let tracked = "";
  const slots: Slot[] = [];
  let frame = 0;

  const slotFor = (k: number): Slot => {
    let slot = slots[k];
    if (!slot) {
      const element = document.createElement("div");
      element.className = "label";
      root.append(element);
      slot = { element, index: -1, width: 0 };
      slots[k] = slot;
    }
    return slot;
  };

  const draw = () => {
    frame = requestAnimationFrame(draw);
    if (!model || !graph?.isReady) return;
    const order = [...new Set([hovered, selected, ...standing].filter((i): i is number => i !== undefined))];
    const key = order.join(",");
    if (key !== tracked) {
      graph.trackPointPositionsByIndices(order);
      tracked = key;
    }
    const positions = graph.getTrackedPointPositionsMap();
    const placed: [number, number, number, number][] = [];
    const width = root.clientWidth;
    const height = root.clientHeight;
    let used = 0;
    for (const index of order) {
      const space = positions.get(index);
      if (!space) continue;
      const [x, y] = graph.spaceToScreenPosition(space);
      // cosmos.gl sizes are diameters: this is the point's on-screen diameter.
      const radius = graph.spaceToScreenRadius(graph.getPointRadiusByIndex(index) ?? 0) / 2;
      const slot = slotFor(used);
      if (slot.index !== index) {
        slot.element.textContent = nodeLabel(model, index);
        slot.index = index;
        slot.element.style.display = "";
        slot.width = slot.element.offsetWidth;
      }
      const left = x + radius + 4;
      const top = y - 9;
      const box: [number, number, number, number] = [left, top, left + slot.width, top + 18];
      const pinned = index === hovered || index === selected;
      // Standing labels stay clear of the top bar; the hovered and selected ones always show.
      const visible = box[2] > 0 && box[0] < width && box[1] > TOP_BAR && box[1] < height;
      if (!pinned && (!visible || placed.some((other) => overlaps(box, other)))) continue;
      placed.push(box);
      slot.element.classList.toggle("is-hovered", index === hovered);
      slot.element.classList.toggle("is-selected", index === selected && index !== hovered);
      slot.element.classList.toggle("is-faded", highlighted !== undefined && !highlighted.has(index));
      slot.element.style.display = "";
      slot.element.style.transform = `translate(${Math.round(left)}px, ${Math.round(top)}px)`;
      used++;
    }
    for (let k = used; k < slots.length; k++) {
      const slot = slots[k];
      if (slot && slot.element.style.display !== "none") {
        slot.element.style.display = "none";
        slot.index = -1;
      }
    }
  };
  frame = requestAnimationFrame(draw);

  return {
    setModel(next, nextGraph) {
      model = next;
      graph = nextGraph;
      standing = topIndices(next.style.node.priority, STANDING);
      tracked = "";
      for (const slot of slots) slot.index = -1;
    },
    setHovered(index) {
      hovered = index;
    },
    setSelected(index) {
      selected = index;
    },
    setHighlighted(indices) {
      highlighted = indices ? new Set(indices) : undefined;
    },
    destroy() {
      cancelAnimationFrame(frame);
      root.replaceChildren();
    },
  };
}

function overlaps(a: [number, number, number, number], b: [number, number, number, number]): boolean {
  return a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3];
}

/** The k largest values' indices, largest first, in one pass (k is small). */
export function topIndices(values: ArrayLike<number>, k: number): number[] {
  const best: number[] = [];
  for (let i = 0; i < values.length; i++) {
    const value = values[i] ?? 0;
    if (best.length === k && value <= (values[best[k - 1] ?? 0] ?? 0)) continue;
    let at = best.length;
    while (at > 0 && (values[best[at - 1] ?? 0] ?? 0) < value) at--;
    best.splice(at, 0, i);
    if (best.length > k) best.pop();
  }
  return best;
}
