// Draws text labels over the canvas for the hovered and selected nodes and the largest ones in view: more as the view
// zooms in, none overlapping. The nodes are chosen from the positions the page holds (label-placement.ts: a grid,
// only the visible cells), at most every SELECT_MS while the view moves; between choices the labels only follow. The
// hovered node's ring is drawn here too (a DOM circle), so a hover never waits for a WebGL frame.
import type { Graph } from "@cosmos.gl/graph";
import type { GraphModel } from "./graph-model.ts";
import {
  type Box,
  BoxIndex,
  buildLabelGrid,
  type LabelGrid,
  labelBudget,
  priorityOrder,
  type SpaceRect,
  visibleCandidates,
} from "./label-placement.ts";
import { nodeLabel } from "./node-text.ts";
import { canvasTheme, onThemeChange } from "./theme.ts";

/** Height of the top bar's band, in CSS pixels. */
const TOP_BAR = 58;
/** Height of a label and its widest (graph.css: .label), in CSS pixels. */
const LABEL_HEIGHT = 18;
const LABEL_MAX_WIDTH = 256;
/** Least time between two choices of the standing labels while the view moves. */
const SELECT_MS = 120;

export type LabelLayer = {
  setModel(model: GraphModel, graph: Graph): void;
  /** The positions drawn (x,y per node, in space coordinates); read, never copied. */
  setPositions(positions: Float32Array): void;
  setHovered(index: number | undefined): void;
  setSelected(index: number | undefined): void;
  /** Nodes in the current highlight; other labels fade with their nodes. Undefined: no highlight. */
  setHighlighted(indices: readonly number[] | undefined): void;
  /** Nodes the filters hide (1 per hidden node row; read, never copied): they get no label. Undefined: none. */
  setHidden(mask: Uint8Array | undefined): void;
  /** Whether labels show at all (the labels control). */
  setShown(shown: boolean): void;
  /** The text of a node's label: another column's (the labels control), or undefined for the bound label. */
  setText(text: ((index: number) => string) | undefined): void;
  destroy(): void;
};

type Slot = { element: HTMLDivElement; index: number };

export function createLabelLayer(root: HTMLElement): LabelLayer {
  let model: GraphModel | undefined;
  let graph: Graph | undefined;
  let positions: Float32Array | undefined;
  let order: Int32Array | undefined;
  let grid: LabelGrid | undefined;
  let standing: number[] = [];
  let hovered: number | undefined;
  let selected: number | undefined;
  let highlighted: Set<number> | undefined;
  let hidden: Uint8Array | undefined;
  /** Whether the filters hide the node (a mask of another graph's length hides nothing). */
  const isHidden = (index: number) => hidden !== undefined && hidden.length === model?.topology.nodeCount && hidden[index] === 1;
  const slots: Slot[] = [];
  /**
   * The hovered node's ring, drawn here rather than on the canvas: a hover then never waits for a WebGL frame (seconds
   * at 100k edges with software WebGL).
   */
  const ring = document.createElement("div");
  ring.className = "hover-ring";
  // Beside the labels, not in them: it shows with labels switched off too.
  ring.style.cssText =
    "position:fixed;left:0;top:0;border:2px solid;border-radius:50%;pointer-events:none;display:none;box-sizing:border-box";
  root.after(ring);
  let ringKey = "";
  const ringColor = () => {
    ring.style.borderColor = canvasTheme().hoveredPointRingColor;
  };
  ringColor();
  const stopTheme = onThemeChange(ringColor);
  let frame = 0;
  /** What the last frame drew from (the view and the nodes); nothing is redrawn while it stays the same. */
  let drawnKey = "";
  let chosenKey = "";
  let chosenAt = 0;
  const widths = new Map<number, number>();
  let measure: CanvasRenderingContext2D | undefined;
  let shown = true;
  let text: ((index: number) => string) | undefined;
  const textOf = (index: number): string => (text ? text(index) : model ? nodeLabel(model, index) : "");
  /** Forgets every choice and measure, so the next frame chooses and draws afresh. */
  const invalidate = () => {
    widths.clear();
    chosenKey = "";
    drawnKey = "";
    for (const slot of slots) slot.index = -1;
  };

  const slotFor = (k: number): Slot => {
    let slot = slots[k];
    if (!slot) {
      const element = document.createElement("div");
      element.className = "label";
      root.append(element);
      slot = { element, index: -1 };
      slots[k] = slot;
    }
    return slot;
  };

  /** A label's width from the font's metrics (no layout), cached per node. */
  const widthOf = (index: number): number => {
    let width = widths.get(index);
    if (width !== undefined) return width;
    if (!measure) {
      measure = document.createElement("canvas").getContext("2d") ?? undefined;
      if (measure) measure.font = getComputedStyle(slotFor(0).element).font;
    }
    const shown = textOf(index);
    width = Math.min(LABEL_MAX_WIDTH, Math.ceil((measure?.measureText(shown).width ?? shown.length * 7) + 12));
    widths.set(index, width);
    return width;
  };

  /** The label's box at its node's place on the screen. */
  const boxOf = (index: number): Box | undefined => {
    if (!graph || !positions || index * 2 + 1 >= positions.length) return undefined;
    const [x, y] = graph.spaceToScreenPosition([positions[index * 2] ?? 0, positions[index * 2 + 1] ?? 0]);
    // cosmos.gl sizes are diameters: this is the point's on-screen radius.
    const radius = graph.spaceToScreenRadius(graph.getPointRadiusByIndex(index) ?? 0) / 2;
    const left = x + radius + 4;
    const top = y - LABEL_HEIGHT / 2;
    return [left, top, left + widthOf(index), top + LABEL_HEIGHT];
  };

  const viewRect = (width: number, height: number): SpaceRect | undefined => {
    if (!graph) return undefined;
    const [ax, ay] = graph.screenToSpacePosition([0, TOP_BAR]);
    const [bx, by] = graph.screenToSpacePosition([width, height]);
    return { minX: Math.min(ax, bx), minY: Math.min(ay, by), maxX: Math.max(ax, bx), maxY: Math.max(ay, by) };
  };

  /** Chooses the standing labels for the view: highest priority first, inside the view, none overlapping. */
  const choose = (width: number, height: number) => {
    const view = viewRect(width, height);
    if (!model || !positions || !view) return;
    order ??= priorityOrder(model.style.node.priority);
    grid ??= buildLabelGrid(positions, order);
    const budget = labelBudget(grid, view);
    const placed = new BoxIndex();
    for (const pinned of [hovered, selected]) {
      const box = pinned === undefined ? undefined : boxOf(pinned);
      if (box) placed.add(box);
    }
    const next: number[] = [];
    for (const index of visibleCandidates(grid, positions, model.style.node.priority, view)) {
      if (next.length >= budget) break;
      if (index === hovered || index === selected || isHidden(index) || textOf(index) === "") continue;
      const box = boxOf(index);
      if (!box || box[2] > width || box[0] < 0 || box[1] < TOP_BAR || box[3] > height || placed.overlaps(box)) continue;
      placed.add(box);
      next.push(index);
    }
    standing = next;
    root.dataset.labelBudget = String(budget);
  };

  const draw = () => {
    frame = requestAnimationFrame(draw);
    if (!model || !graph?.isReady || !positions) return;
    const [ox, oy] = graph.spaceToScreenPosition([0, 0]);
    const [ux, uy] = graph.spaceToScreenPosition([1, 1]);
    const ringAt = `${ox},${oy},${ux},${uy},${hovered}`;
    if (ringAt !== ringKey) {
      ringKey = ringAt;
      placeRing();
    }
    if (!shown) return;
    const width = root.clientWidth;
    const height = root.clientHeight;
    const viewKey = `${ox},${oy},${ux},${uy},${width},${height},${grid ? 1 : 0},${hovered},${selected}`;
    const now = performance.now();
    if (viewKey !== chosenKey && now - chosenAt >= SELECT_MS) {
      choose(width, height);
      chosenKey = viewKey;
      chosenAt = now;
      drawnKey = "";
    }
    const ordered = [...new Set([hovered, selected, ...standing].filter((i): i is number => i !== undefined && !isHidden(i)))];
    const key = `${viewKey}|${ordered.join(",")}|${highlighted ? [...highlighted].join(",") : "-"}`;
    if (key === drawnKey) return;
    drawnKey = key;
    let used = 0;
    for (const index of ordered) {
      const box = boxOf(index);
      if (!box) continue;
      const slot = slotFor(used);
      if (slot.index !== index) {
        slot.element.textContent = textOf(index);
        slot.index = index;
      }
      slot.element.classList.toggle("is-hovered", index === hovered);
      slot.element.classList.toggle("is-selected", index === selected && index !== hovered);
      slot.element.classList.toggle("is-faded", highlighted !== undefined && !highlighted.has(index));
      slot.element.style.display = "";
      slot.element.style.transform = `translate(${Math.round(box[0])}px, ${Math.round(box[1])}px)`;
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

  /** The ring around the hovered node, a little wider than its disc (as cosmos.gl drew it). */
  const placeRing = () => {
    if (hovered === undefined || !graph || !positions || !model || hovered * 2 + 1 >= positions.length) {
      ring.style.display = "none";
      return;
    }
    const [x, y] = graph.spaceToScreenPosition([positions[hovered * 2] ?? 0, positions[hovered * 2 + 1] ?? 0]);
    const size = model.style.node.sizes?.[hovered];
    const radius = graph.spaceToScreenRadius((size === undefined || Number.isNaN(size) ? model.style.node.defaultSize : size) / 2);
    const side = Math.round(2 * radius + 6);
    ring.style.width = `${side}px`;
    ring.style.height = `${side}px`;
    ring.style.transform = `translate(${Math.round(x - side / 2)}px, ${Math.round(y - side / 2)}px)`;
    ring.style.display = "";
  };
  frame = requestAnimationFrame(draw);

  return {
    setModel(next, nextGraph) {
      // A new look with the same priorities (a color change) keeps the order and the grid: sorting every node by
      // priority takes tens of ms at 100k edges.
      if (model?.topology !== next.topology || !sameValues(model.style.node.priority, next.style.node.priority)) {
        order = undefined;
        grid = undefined;
      }
      model = next;
      graph = nextGraph;
      ringKey = "";
      standing = [];
      invalidate();
    },
    setPositions(next) {
      positions = next;
      ringKey = "";
      grid = undefined;
      chosenKey = "";
    },
    setHovered(index) {
      hovered = index;
    },
    setSelected(index) {
      selected = index;
    },
    setHidden(mask) {
      if (mask === hidden) return;
      hidden = mask;
      // Chosen afresh at the next frame, without the hidden nodes.
      chosenKey = "";
      drawnKey = "";
    },
    setHighlighted(indices) {
      highlighted = indices ? new Set(indices) : undefined;
    },
    setShown(next) {
      shown = next;
      root.hidden = !next;
      invalidate();
    },
    setText(next) {
      text = next;
      invalidate();
    },
    destroy() {
      cancelAnimationFrame(frame);
      stopTheme();
      ring.remove();
      root.replaceChildren();
    },
  };
}

/** Whether two priority arrays hold the same values. */
function sameValues(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
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
