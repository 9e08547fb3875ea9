// Finds the hovered node (and link) on the CPU instead of cosmos.gl's GPU picking.
//
// cosmos.gl finds what is under the pointer by drawing every point (and every link, into a screen-sized index
// buffer) and reading pixels back: with software WebGL a readback waits for every queued draw, so at 100k edges each
// pointer move stalled the page for seconds. Here its picking method is replaced: the node under the pointer comes from
// a grid over the positions the page already holds (hit-testing.ts), on pointer moves; links are tested along their
// segments on a press (so a click on a link selects it) and, while the pointer moves off any node, at most every
// LINK_HOVER_MS (for the pointer cursor and the hovered link's width) unless the view says not to (linksOnHover: its
// frames are costly). cosmos.gl's store is filled as its own picking would, so its clicks and cursor keep working;
// nothing is read back from the GPU.
import type { Graph } from "@cosmos.gl/graph";
import { buildPointGrid, type PointGrid, pickLink, pickPoint } from "./hit-testing.ts";

/** The parts of cosmos.gl's Graph this takes over or fills (private members of its class, stable across 3.x). */
type CosmosHover = {
  findHoveredItem(immediate?: boolean): void;
  updateCanvasCursor(): void;
  store: {
    hoveredPoint: { index: number; position: [number, number] } | undefined;
    hoveredLinkIndex: number | undefined;
    isLinkHoveringEnabled: boolean;
    mousePosition: [number, number];
  };
  config: { pointSizeScale?: number; linkWidthScale?: number; linkDefaultWidth?: number };
  _isPointerOnCanvas: boolean;
  _isDestroyed: boolean;
};

/** Least time between two link tests while the pointer moves off the nodes. */
const LINK_HOVER_MS = 80;
/** A link is hit within this many CSS pixels of its middle line, at least. */
const LINK_TOLERANCE_PX = 4;

export type HoverTarget = {
  /** x,y per node in space coordinates, as drawn (read, never copied). */
  positions: Float32Array;
  /** [s0, t0, s1, t1, ...] node indices. */
  links: Float32Array;
  sizes: Float32Array | undefined;
  defaultSize: number;
  widths: Float32Array | undefined;
  /** Painted colors (RGBA per item): an item with alpha 0 is hidden (a filter) and never hit. */
  nodeColors: Float32Array | undefined;
  linkColors: Float32Array | undefined;
  linksShown: boolean;
};

export type HoverEvents = {
  /** The hovered node changed (undefined: none). */
  node(index: number | undefined): void;
  /** The hovered link changed (undefined: none). */
  link(index: number | undefined): void;
  /** Whether links are tested while the pointer moves (else only on a press): a test reads every link. */
  linksOnHover(): boolean;
};

export type HoverPicking = {
  /** What is drawn changed (positions, sizes, colors, links shown): the next pick uses it. */
  update(next: Partial<HoverTarget>): void;
  /** Picks again where the pointer last was (after a zoom moved things under it). */
  refresh(): void;
  destroy(): void;
};

export function takeOverHover(graph: Graph, surface: HTMLElement, target: HoverTarget, events: HoverEvents): HoverPicking {
  const cosmos = graph as unknown as CosmosHover;
  let current = target;
  let grid: PointGrid | undefined;
  let maxSize = 0;
  let sizesSeen: Float32Array | undefined | null = null;
  let maxWidth = 1;
  let widthsSeen: Float32Array | undefined | null = null;
  let reported: number | undefined;
  let reportedLink: number | undefined;
  /** The pointer's last place over the canvas, in CSS pixels from its corner; undefined when it is elsewhere. */
  let pointer: [number, number] | undefined;
  let linkTimer = 0;
  let linkTestedAt = 0;
  let destroyed = false;

  const sizeOf = (index: number): number => {
    const size = current.sizes?.[index];
    return size === undefined || Number.isNaN(size) ? current.defaultSize : size;
  };

  /** Space units per CSS pixel at the current zoom. */
  const spacePerPixel = (): number => {
    const [ax] = graph.spaceToScreenPosition([0, 0]);
    const [bx] = graph.spaceToScreenPosition([1, 0]);
    const pixels = Math.abs(bx - ax);
    return pixels > 0 ? 1 / pixels : 1;
  };

  const nodeAt = (x: number, y: number): number | undefined => {
    grid ??= buildPointGrid(current.positions);
    if (sizesSeen !== current.sizes) {
      sizesSeen = current.sizes;
      maxSize = current.defaultSize;
      for (const size of current.sizes ?? []) if (size > maxSize) maxSize = size;
    }
    const scale = spacePerPixel() * (cosmos.config.pointSizeScale ?? 1);
    // cosmos.gl's own hit radius: its on-screen point size (zoom-dependent, capped) halved, see spaceToScreenRadius.
    const radius = (index: number) => graph.spaceToScreenRadius(sizeOf(index) / 2) * scale;
    const colors = current.nodeColors;
    return pickPoint(grid, current.positions, {
      x,
      y,
      maxRadius: graph.spaceToScreenRadius(maxSize / 2) * scale,
      radius,
      hidden: colors ? (index) => colors[index * 4 + 3] === 0 : undefined,
    });
  };

  const linkAt = (x: number, y: number): number | undefined => {
    if (!current.linksShown || !cosmos.store.isLinkHoveringEnabled || current.links.length === 0) return undefined;
    if (widthsSeen !== current.widths) {
      widthsSeen = current.widths;
      maxWidth = cosmos.config.linkDefaultWidth ?? 1;
      for (const width of current.widths ?? []) if (width > maxWidth) maxWidth = width;
    }
    const perPixel = spacePerPixel();
    const widthScale = cosmos.config.linkWidthScale ?? 1;
    const defaultWidth = cosmos.config.linkDefaultWidth ?? 1;
    const toleranceOf = (width: number) => Math.max(LINK_TOLERANCE_PX, (width * widthScale) / 2 + 2) * perPixel;
    const widths = current.widths;
    const colors = current.linkColors;
    return pickLink(current.links, current.positions, {
      x,
      y,
      maxTolerance: toleranceOf(maxWidth),
      tolerance: (link) => toleranceOf(widths?.[link] ?? defaultWidth),
      hidden: colors ? (link) => colors[link * 4 + 3] === 0 : undefined,
    });
  };

  const setNode = (index: number | undefined, x: number, y: number) => {
    const store = cosmos.store;
    if (index === undefined) store.hoveredPoint = undefined;
    else store.hoveredPoint = { index, position: [current.positions[index * 2] ?? x, current.positions[index * 2 + 1] ?? y] };
    if (index !== undefined && store.hoveredLinkIndex !== undefined) setLink(undefined);
    if (index === reported) return;
    reported = index;
    cosmos.updateCanvasCursor();
    events.node(index);
  };

  const setLink = (index: number | undefined) => {
    cosmos.store.hoveredLinkIndex = index;
    if (index === reportedLink) return;
    reportedLink = index;
    cosmos.updateCanvasCursor();
    events.link(index);
  };

  /** Picks at a place in space: the node, and the link too when `links` (only off any node). */
  const pickAt = (x: number, y: number, links: boolean) => {
    if (destroyed || cosmos._isDestroyed || current.positions.length === 0) return;
    const node = nodeAt(x, y);
    setNode(node, x, y);
    if (node === undefined && links) {
      linkTestedAt = performance.now();
      setLink(linkAt(x, y));
    }
  };

  const pickAtPointer = (links: boolean) => {
    if (!pointer) return;
    const [x, y] = graph.screenToSpacePosition(pointer);
    pickAt(x, y, links);
  };

  const scheduleLinkTest = () => {
    if (linkTimer) return;
    const wait = Math.max(0, LINK_HOVER_MS - (performance.now() - linkTestedAt));
    linkTimer = window.setTimeout(() => {
      linkTimer = 0;
      if (reported === undefined) pickAtPointer(true);
    }, wait);
  };

  // cosmos.gl calls this every frame (it picked every fourth one) and, with `immediate`, on a press: frames pick
  // nothing now (pointer moves do), a press picks the node and the link under it at once, so its click sees them.
  cosmos.findHoveredItem = (immediate = false) => {
    if (!immediate) return;
    const [x, y] = cosmos.store.mousePosition;
    pickAt(x, y, true);
  };

  const onMove = (event: PointerEvent) => {
    if (!event.isPrimary) return;
    const canvas = surface.querySelector("canvas");
    if (!canvas) return;
    const rect = canvas.getBoundingClientRect();
    pointer = [event.clientX - rect.left, event.clientY - rect.top];
    // While a button is held the view pans under a still pointer: nothing new is hovered.
    if (event.buttons !== 0) return;
    pickAtPointer(false);
    if (reported === undefined && events.linksOnHover()) scheduleLinkTest();
    else if (reportedLink !== undefined && reported === undefined) setLink(undefined);
  };
  const onLeave = (event: PointerEvent) => {
    if (!event.isPrimary || event.pointerType !== "mouse") return;
    pointer = undefined;
    window.clearTimeout(linkTimer);
    linkTimer = 0;
    // cosmos.gl's own handler clears its store; the page hears it here.
    if (reportedLink !== undefined) {
      reportedLink = undefined;
      events.link(undefined);
    }
    if (reported !== undefined) {
      reported = undefined;
      events.node(undefined);
    }
  };
  surface.addEventListener("pointermove", onMove, { passive: true });
  surface.addEventListener("pointerleave", onLeave, { passive: true });

  return {
    update(next) {
      if (next.positions && next.positions !== current.positions) grid = undefined;
      current = { ...current, ...next };
    },
    refresh() {
      pickAtPointer(false);
    },
    destroy() {
      destroyed = true;
      window.clearTimeout(linkTimer);
      surface.removeEventListener("pointermove", onMove);
      surface.removeEventListener("pointerleave", onLeave);
    },
  };
}
