// Wraps cosmos.gl: draws the model's typed arrays at the positions it is given (the server lays graphs out; cosmos.gl's
// own simulation stays off), moves them as layout frames come, and forwards pointer events.
import { Graph, type GraphConfig } from "@cosmos.gl/graph";
import { type PaintedColors, type PaintLayer, paintColors } from "./collections-paint.ts";
import type { GraphModel } from "./graph-model.ts";
import type { GraphStyle } from "./graph-style.ts";
import type { Topology } from "./graph-topology.ts";
import { DEFAULT_EDGE, DEFAULT_NODE } from "./palette.ts";
import { governRendering, type RenderGovernor } from "./render-governor.ts";
import { SPACE_SIZE } from "./space-fit.ts";
import { canvasTheme, onThemeChange } from "./theme.ts";

/** The dark theme's background (theme.ts holds both themes' canvas colors). */
export const BACKGROUND = "#15181d";

export type GraphViewEvents = {
  nodeClick(index: number): void;
  linkClick(linkIndex: number): void;
  backgroundClick(): void;
  nodeHover(index: number | undefined): void;
};

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
  setHighlight(nodes: number[] | undefined, links: number[] | undefined): void;
  /** Moves every node to the given positions at once (a layout frame; kept by cosmos.gl, not copied). */
  showPositions(positions: Float32Array): void;
  /** Resolves once the canvas has been drawn again (after showPositions: with the new positions). */
  nextRender(): Promise<void>;
  destroy(): void;
};

export function createGraphView(container: HTMLDivElement, events: GraphViewEvents): GraphView {
  let graph: Graph | undefined;
  let governor: RenderGovernor | undefined;
  let linksVisible = true;
  let arrows = false;
  const root = document.documentElement;
  let drawn: { style: GraphStyle; topology: Topology } | undefined;
  let layers: readonly PaintLayer[] = [];
  let touched = false;
  /** The zoom level of the whole-graph view, so focusing a node zooms in relative to it. */
  let overview: number | undefined;
  const noteOverview = (after: number) =>
    window.setTimeout(() => {
      overview = graph?.getZoomLevel();
    }, after);

  onThemeChange(() => {
    graph?.setConfigPartial(canvasTheme());
    governor?.wake();
  });

  const baseConfig = (model: GraphModel): GraphConfig => ({
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
    renderHoveredPointRing: true,
    hoveredPointCursor: "pointer",
    hoveredLinkCursor: "pointer",
    hoveredLinkWidthIncrease: 2,
    focusedLinkWidthIncrease: 2,
    fitViewOnInit: true,
    fitViewDelay: 0,
    fitViewDuration: 0,
    fitViewPadding: 0.12,
    attribution: "",
    // Parameter types are spelled out: under NodeNext resolution cosmos.gl's extensionless type imports do not resolve.
    // Indices are rounded: cosmos.gl reads them back from float textures (a link can come back as 5.0000029).
    onPointClick: (index: number) => events.nodeClick(Math.round(index)),
    onLinkClick: (index: number) => events.linkClick(Math.round(index)),
    onBackgroundClick: () => events.backgroundClick(),
    onPointMouseOver: (index: number) => events.nodeHover(Math.round(index)),
    onPointMouseOut: () => events.nodeHover(undefined),
    // Pans, zooms and fit transitions need frames drawn (cosmos.gl's own loop is governed, see render-governor.ts).
    onZoom: () => governor?.wake(150),
    onZoomStart: (_event: unknown, userDriven: boolean) => {
      if (userDriven) touched = true;
    },
  });

  const view: GraphView = {
    get graph() {
      if (!graph) throw new Error("the graph is not shown yet");
      return graph;
    },
    async show(model, positions, links = true) {
      linksVisible = links;
      governor?.destroy();
      graph?.destroy();
      container.replaceChildren();
      graph = new Graph(container, baseConfig(model));
      governor = governRendering(graph, container, (renders) => {
        root.dataset.graphRenders = String(renders);
      });
      await graph.ready;
      graph.setPointPositions(positions, true);
      graph.setLinks(model.topology.links);
      drawn = { style: model.style, topology: model.topology };
      setStyle(graph, model.style, paintColors(model.style, model.topology, layers));
      touched = false;
      graph.render(0, 0);
      noteOverview(100);
    },
    setArrows(on) {
      arrows = on;
      if (!graph) return;
      graph.setConfigPartial({ linkDefaultArrows: on });
      graph.render();
    },
    applyStyle(style) {
      if (!graph || !drawn) return;
      drawn = { ...drawn, style };
      setStyle(graph, style, paintColors(style, drawn.topology, layers));
      graph.render();
    },
    setCollections(next) {
      layers = next;
      if (!graph || !drawn) return;
      setColors(graph, paintColors(drawn.style, drawn.topology, layers));
      graph.render();
    },
    showPositions(positions) {
      if (!graph) return;
      graph.setPointPositions(positions, true);
      graph.render(undefined, 0);
    },
    fit(duration = 400) {
      graph?.fitView(duration, 0.12, false);
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
      graph.zoomToPointByIndex(index, 600, target, false, false);
    },
    // Config changes draw nothing by themselves: each wakes the governed loop for a frame.
    setFocus(node, link) {
      graph?.setConfigPartial({ focusedPointIndex: node, focusedLinkIndex: link });
      governor?.wake();
    },
    setHighlight(nodes, links) {
      graph?.setConfigPartial({ highlightedPointIndices: nodes, highlightedLinkIndices: links });
      governor?.wake();
    },
    setLinksVisible(visible) {
      if (visible === linksVisible) return;
      linksVisible = visible;
      graph?.setConfigPartial({ renderLinks: visible });
      governor?.wake();
    },
    nextRender() {
      return governor ? governor.nextRender() : Promise.resolve();
    },
    destroy() {
      governor?.destroy();
      governor = undefined;
      graph?.destroy();
      graph = undefined;
      drawn = undefined;
    },
  };
  return view;
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
