// Wraps cosmos.gl: draws the model's typed arrays at the positions it is given (the server lays graphs out; cosmos.gl's
// own simulation stays off), moves them as layout frames come, and forwards pointer events (hover and hits found on
// the CPU, hover-picking.ts; fits and focus from the positions held here: nothing is read back from the GPU).
import { Graph, type GraphConfig } from "@cosmos.gl/graph";
import type { Device } from "@luma.gl/core";
import { createPainter, type PaintedColors, type PaintLayer } from "./collections-paint.ts";
import { graphDevice } from "./graph-device.ts";
import type { GraphModel } from "./graph-model.ts";
import type { GraphStyle } from "./graph-style.ts";
import type { Topology } from "./graph-topology.ts";
import { type HoverPicking, takeOverHover } from "./hover-picking.ts";
import { writePaint } from "./paint-writer.ts";
import { DEFAULT_EDGE, DEFAULT_NODE } from "./palette.ts";
import { writePositions } from "./position-writer.ts";
import { governRendering, type RenderGovernor } from "./render-governor.ts";
import { SPACE_SIZE } from "./space-fit.ts";
import { canvasTheme, onThemeChange } from "./theme.ts";

/** Graphs with fewer nodes and links than this always draw hover feedback (their frames are cheap on any machine). */
const SMALL_GRAPH = 5_000;

/** The dark theme's background (theme.ts holds both themes' canvas colors). */
export const BACKGROUND = "#15181d";

export type GraphViewEvents = {
  nodeClick(index: number): void;
  linkClick(linkIndex: number): void;
  backgroundClick(): void;
  nodeHover(index: number | undefined): void;
};

/** Why a highlight changes: a node was hovered, or the hover left (see GraphView.setHighlight). */
export type HoverChange = "hover" | "unhover";

export type GraphView = {
  readonly graph: Graph;
  /** Draws the model at `positions` (x,y per node, already inside the space), fitted to the window. */
  show(model: GraphModel, positions: Float32Array, links?: boolean): Promise<void>;
  /** Draws the links or not (the page leaves them out of a big graph's frames while its layout moves the nodes). */
  setLinksVisible(visible: boolean): void;
  /** Draws an arrow at each link's destination, or not (kept across show). */
  setArrows(on: boolean): void;
  applyStyle(style: GraphStyle): void;
  /** The visible collections, the one on top first; they paint over the style's colors (kept across show). */
  setCollections(layers: readonly PaintLayer[]): void;
  fit(duration?: number): void;
  /** Fits again (after another layout came), unless the person has already panned or zoomed. */
  refitIfUntouched(): void;
  focusNode(index: number): void;
  setFocus(node: number | undefined, link: number | undefined): void;
  /**
   * Greys out all but these nodes and links. A hover's highlight ("hover") applies only while frames are cheap (or the
   * graph small), so no control waits on a frame drawn for a hover; "unhover" (the highlight to go back to) draws only
   * when a hover's highlight is on the canvas.
   */
  setHighlight(nodes: number[] | undefined, links: number[] | undefined, hover?: HoverChange): void;
  /** Moves every node to the given positions at once (a layout frame; kept by cosmos.gl, not copied). */
  showPositions(positions: Float32Array): void;
  /** Resolves once the canvas has been drawn again (after showPositions: with the new positions). */
  nextRender(): Promise<void>;
  destroy(): void;
};

export function createGraphView(container: HTMLDivElement, events: GraphViewEvents): GraphView {
  let graph: Graph | undefined;
  /** The device the graph draws with when the page made it (graph-device.ts); cosmos.gl leaves it to the page. */
  let device: Promise<Device> | undefined;
  let governor: RenderGovernor | undefined;
  let hover: HoverPicking | undefined;
  /** The positions drawn (x,y per node in space coordinates): fits and focus read them here, not from the GPU. */
  let shown: Float32Array = new Float32Array(0);
  let linksVisible = true;
  let arrows = false;
  const root = document.documentElement;
  let drawn: { style: GraphStyle; topology: Topology } | undefined;
  let layers: readonly PaintLayer[] = [];
  /** Paints the collections and filters over the style, into arrays reused from one change to the next. */
  const paintColors = createPainter();
  let touched = false;
  /** The zoom level of the whole-graph view, so focusing a node zooms in relative to it. */
  let overview: number | undefined;
  const noteOverview = (after: number) =>
    window.setTimeout(() => {
      overview = graph?.getZoomLevel();
    }, after);

  /** Destroys the device the page made for the graph just destroyed (cosmos.gl destroys only the ones it made). */
  const releaseDevice = () => {
    const made = device;
    device = undefined;
    made?.then((d) => d.destroy()).catch(() => undefined);
  };

  onThemeChange(() => {
    graph?.setConfigPartial(canvasTheme());
    governor?.wake();
  });

  const baseConfig = (model: GraphModel, positions: Float32Array): GraphConfig => ({
    // The background, ring and hover colors of the light or dark theme (theme.ts).
    ...canvasTheme(),
    // No layout pass in the browser: positions come from the server (or the data) and are fitted by the page.
    enableSimulation: false,
    rescalePositions: false,
    // Frames replace positions many times a second: snap, never animate between them.
    transitionDuration: 0,
    spaceSize: SPACE_SIZE,
    pixelRatio: Math.min(window.devicePixelRatio || 1, 2),
    pointDefaultColor: DEFAULT_NODE,
    pointDefaultSize: model.style.node.defaultSize,
    pointGreyoutOpacity: 0.12,
    linkDefaultColor: DEFAULT_EDGE,
    linkDefaultWidth: 1,
    linkOpacity: edgeCount(model) > 200_000 ? 0.5 : 0.8,
    linkGreyoutOpacity: 0.04,
    linkVisibilityDistanceRange: [50, 150],
    // Long links fade (they cross the picture); less so in small graphs, where every link can be read.
    linkVisibilityMinTransparency: edgeCount(model) < 50_000 ? 0.5 : 0.25,
    linkColorInterpolateFromEndpoints: model.style.edge.rgba === undefined && model.style.node.rgba !== undefined,
    renderLinks: linksVisible,
    linkDefaultArrows: arrows,
    // The hover ring is drawn by the label layer (label-layer.ts), so hovering never needs a canvas frame.
    renderHoveredPointRing: false,
    hoveredPointCursor: "pointer",
    hoveredLinkCursor: "pointer",
    hoveredLinkWidthIncrease: 2,
    focusedLinkWidthIncrease: 2,
    // Fitted to the positions the page holds: cosmos.gl's own fit reads every position back from the GPU.
    fitViewOnInit: true,
    fitViewByPointsInRect: bounds(positions),
    fitViewDelay: 0,
    fitViewDuration: 0,
    fitViewPadding: 0.12,
    attribution: "",
    // Parameter types are spelled out: under NodeNext resolution cosmos.gl's extensionless type imports do not resolve.
    // Indices are rounded: cosmos.gl reads them back from float textures (a link can come back as 5.0000029).
    onPointClick: (index: number) => events.nodeClick(Math.round(index)),
    onLinkClick: (index: number) => events.linkClick(Math.round(index)),
    onBackgroundClick: () => events.backgroundClick(),
    // Hovering is found on the CPU (hover-picking.ts), which reports to `events.nodeHover`.
    // Pans, zooms and fit transitions need frames drawn (cosmos.gl's own loop is governed, see render-governor.ts).
    onZoom: () => governor?.wake(150),
    // What lies under a still pointer changed.
    onZoomEnd: () => hover?.refresh(),
    onZoomStart: (_event: unknown, userDriven: boolean) => {
      if (userDriven) touched = true;
    },
  });

  /** Nodes and links drawn: below SMALL_GRAPH a slow frame means a busy machine, not a big graph. */
  let items = 0;
  /** Whether hover feedback may draw a frame: frames are cheap, or the graph is small. */
  const hoverDraws = () => !governor?.costly || items < SMALL_GRAPH;
  /** Whether the highlight on the canvas is a hover's. */
  let hoverShown = false;
  /** A hovered link is drawn wider by cosmos.gl: a frame, when frames are cheap. */
  const hoverChanged = () => {
    if (hoverDraws()) governor?.wake();
  };

  const view: GraphView = {
    get graph() {
      if (!graph) throw new Error("the graph is not shown yet");
      return graph;
    },
    async show(model, positions, links = true) {
      linksVisible = links;
      governor?.destroy();
      graph?.destroy();
      releaseDevice();
      container.replaceChildren();
      const config = baseConfig(model, positions);
      // Without multisampling on software WebGL once frames cost (graph-device.ts).
      device = graphDevice(model.topology.nodeCount + edgeCount(model), SMALL_GRAPH, config.pixelRatio ?? 1);
      graph = new Graph(container, config, device);
      shown = positions;
      governor = governRendering(graph, container, (renders, frameMs) => {
        root.dataset.graphRenders = String(renders);
        root.dataset.graphFrameMs = String(Math.round(frameMs));
      });
      const colors = paintColors(model.style, model.topology, layers);
      hover?.destroy();
      hover = takeOverHover(
        graph,
        container,
        {
          positions,
          links: model.topology.links,
          ...hoverStyle(model.style, colors),
          linksShown: linksVisible,
        },
        { node: (index) => events.nodeHover(index), link: () => hoverChanged(), linksOnHover: () => hoverDraws() },
      );
      await graph.ready;
      graph.setPointPositions(positions, true);
      graph.setLinks(model.topology.links);
      drawn = { style: model.style, topology: model.topology };
      items = model.topology.nodeCount + edgeCount(model);
      setStyle(graph, model.style, colors);
      touched = false;
      graph.render(0, 0);
      noteOverview(100);
    },
    setArrows(on) {
      // The page sets the arrows after every encoding change: the same again draws nothing.
      if (on === arrows) return;
      arrows = on;
      if (!graph) return;
      // cosmos.gl's setConfigPartial brings the arrow buffer up to date itself; render() would rebuild the whole
      // graph's data (adjacency lists over every link), so only a frame is asked for.
      graph.setConfigPartial({ linkDefaultArrows: on });
      governor?.wake();
    },
    applyStyle(style) {
      if (!graph || !drawn) return;
      drawn = { ...drawn, style };
      const colors = paintColors(style, drawn.topology, layers);
      hover?.update(hoverStyle(style, colors));
      // Colors, sizes and widths only: uploaded without cosmos.gl's render(), which rebuilds the whole graph's data
      // (link strengths drive only cosmos.gl's simulation, which is off, so they are left to show()).
      graph.setConfigPartial({ pointDefaultSize: style.node.defaultSize, linkColorInterpolateFromEndpoints: colors.interpolate });
      const painted = writePaint(graph, {
        pointColors: colors.node ?? EMPTY,
        linkColors: colors.edge ?? EMPTY,
        pointSizes: style.node.sizes ?? EMPTY,
        linkWidths: style.edge.widths ?? EMPTY,
      });
      if (painted) {
        governor?.wake();
        return;
      }
      setStyle(graph, style, colors);
      graph.render();
    },
    setCollections(next) {
      // The same layers again (a filter panel loading with nothing filtered, a shared state echoed back) draw nothing:
      // at 100k edges a software frame holds the page's frames for seconds.
      if (sameLayers(next, layers)) return;
      layers = next;
      if (!graph || !drawn) return;
      const colors = paintColors(drawn.style, drawn.topology, layers);
      hover?.update(hoverStyle(drawn.style, colors));
      // Colors only (a filter, a timebar step, a collection): no render(), which rebuilds the whole graph's data.
      graph.setConfigPartial({ linkColorInterpolateFromEndpoints: colors.interpolate });
      if (writePaint(graph, { pointColors: colors.node ?? EMPTY, linkColors: colors.edge ?? EMPTY })) {
        governor?.wake();
        return;
      }
      setColors(graph, colors);
      graph.render();
    },
    showPositions(positions) {
      if (!graph) return;
      shown = positions;
      hover?.update({ positions });
      // Straight into cosmos.gl's position textures when it can (position-writer.ts), else its own path.
      if (writePositions(graph, positions)) governor?.wake();
      else {
        graph.setPointPositions(positions, true);
        graph.render(undefined, 0);
      }
    },
    fit(duration = 400) {
      const corners = bounds(shown);
      if (graph && corners) graph.setZoomTransformByPointPositions(new Float32Array(corners.flat()), duration, undefined, 0.12, false);
      noteOverview(duration + 50);
    },
    refitIfUntouched() {
      if (!touched) view.fit(600);
    },
    focusNode(index) {
      if (!graph) return;
      const current = graph.getZoomLevel();
      // Close enough to see the node's neighborhood, and never further out than the view already is.
      const target = Math.max(current, (overview ?? current) * 3);
      const x = shown[index * 2];
      const y = shown[index * 2 + 1];
      // From the positions held here (cosmos.gl's zoomToPointByIndex reads them all back from the GPU).
      if (x === undefined || y === undefined || !Number.isFinite(x) || !Number.isFinite(y)) return;
      graph.setZoomTransformByPointPositions(new Float32Array([x, y]), 600, target, undefined, false);
    },
    // Config changes draw nothing by themselves: each wakes the governed loop for a frame.
    setFocus(node, link) {
      graph?.setConfigPartial({ focusedPointIndex: node, focusedLinkIndex: link });
      governor?.wake();
    },
    setHighlight(nodes, links, hover) {
      // A hover's highlight on a graph whose frames are costly is left out (not even uploaded): the hovered label and
      // card show the hover; the canvas keeps the selection's highlight, so leaving the node has nothing to undo.
      if (hover === "hover" && !hoverDraws()) return;
      if (hover === "unhover" && !hoverShown && !hoverDraws()) return;
      hoverShown = hover === "hover";
      graph?.setConfigPartial({ highlightedPointIndices: nodes, highlightedLinkIndices: links });
      governor?.wake();
    },
    setLinksVisible(visible) {
      if (visible === linksVisible) return;
      linksVisible = visible;
      graph?.setConfigPartial({ renderLinks: visible });
      hover?.update({ linksShown: visible });
      governor?.wake();
    },
    nextRender() {
      return governor ? governor.nextRender() : Promise.resolve();
    },
    destroy() {
      hover?.destroy();
      hover = undefined;
      governor?.destroy();
      governor = undefined;
      graph?.destroy();
      graph = undefined;
      releaseDevice();
      drawn = undefined;
    },
  };
  return view;
}

/** Whether two lists of layers paint the same: the same collections, colors and rows, in the same order. */
function sameLayers(a: readonly PaintLayer[], b: readonly PaintLayer[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  return a.every((layer, k) => {
    const other = b[k];
    if (!other) return false;
    if (layer === other) return true;
    return (
      layer.id === other.id &&
      layer.rgba.every((value, c) => value === other.rgba[c]) &&
      sameRows(layer.nodeRows, other.nodeRows) &&
      sameRows(layer.edgeRows, other.edgeRows)
    );
  });
}

function sameRows(a: Uint32Array | undefined, b: Uint32Array | undefined): boolean {
  if (a === b) return true;
  if (!a || !b || a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** The corners of the box around the drawn (finite) positions; undefined when there are none. */
function bounds(positions: Float32Array): [[number, number], [number, number]] | undefined {
  let minX = Number.POSITIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (let i = 0; i + 1 < positions.length; i += 2) {
    const x = positions[i] ?? Number.NaN;
    const y = positions[i + 1] ?? Number.NaN;
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return minX <= maxX
    ? [
        [minX, minY],
        [maxX, maxY],
      ]
    : undefined;
}

/** What hit testing needs of a style: sizes and widths as drawn, and the painted colors (alpha 0: hidden). */
function hoverStyle(style: GraphStyle, colors: PaintedColors) {
  return {
    sizes: style.node.sizes,
    defaultSize: style.node.defaultSize,
    widths: style.edge.widths,
    nodeColors: colors.node,
    linkColors: colors.edge,
  };
}

function edgeCount(model: GraphModel): number {
  return model.topology.links.length / 2;
}

const EMPTY = new Float32Array(0);

/** The style's sizes and widths, and its colors as painted by the visible collections. */
function setStyle(graph: Graph, style: GraphStyle, colors: PaintedColors): void {
  graph.setConfigPartial({ pointDefaultSize: style.node.defaultSize });
  // An empty array means "no per-item values": cosmos.gl then draws that channel with the config default.
  graph.setPointSizes(style.node.sizes ?? EMPTY);
  graph.setLinkWidths(style.edge.widths ?? EMPTY);
  graph.setLinkStrength(style.edge.strength ?? EMPTY);
  setColors(graph, colors);
}

function setColors(graph: Graph, colors: PaintedColors): void {
  graph.setConfigPartial({ linkColorInterpolateFromEndpoints: colors.interpolate });
  graph.setPointColors(colors.node ?? EMPTY);
  graph.setLinkColors(colors.edge ?? EMPTY);
}
