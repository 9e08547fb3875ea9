// The page controller: loads the session and its graph, wires selection, search, inspector and live updates.

import { nodeColumnsOf } from "./bindings.ts";
import { createCollectionsLayer } from "./collections-layer.ts";
import type { PaintLayer } from "./collections-paint.ts";
import { createDataRoutes, type DataRoutes } from "./data-routes.ts";
import { createEncodingPanel } from "./encoding-panel.ts";
import { drawGraphNow } from "./export-png.ts";
import { attachExportTools } from "./export-tools.ts";
import { createFilterPanel, type FilterPanel } from "./filter-panel.ts";
import type { ColumnFilter } from "./filter-state.ts";
import { createFilterTable, type FilterTable } from "./filter-table.ts";
import { datasetLayoutColumns, type GraphModel, loadGraph, reloadStyle, shapeSignature, styleSignature } from "./graph-model.ts";
import { createGraphView, type GraphView, type HoverChange } from "./graph-view.ts";
import { createHoverCard, type HoverCard } from "./hover-card.ts";
import { createInspector, type Inspector } from "./inspector.ts";
import { neighboursOf } from "./inspector-neighbour-ids.ts";
import { createNeighbourList, type NeighbourList } from "./inspector-neighbours.ts";
import { createLabelControl, type LabelControl } from "./label-control.ts";
import { createLabelLayer, type LabelLayer } from "./label-layer.ts";
import { type LayoutFrame, planarPositions } from "./layout-frames.ts";
import type { LayoutPanelElements, PanelState } from "./layout-panel.ts";
import { planLayout, seedPositions } from "./layout-plan.ts";
import { renderLegend } from "./legend.ts";
import { isCollectionsChange, isLayoutJobChange, type SessionChange, subscribeToSession } from "./live-updates.ts";
import { nodeLabel } from "./node-text.ts";
import { createPageStatus, type PageStatus } from "./page-status.ts";
import { createSearchBox, type SearchBox } from "./search-box.ts";
import { createSearchFields } from "./search-columns.ts";
import { createSelectionTable, type SelectionTable } from "./selection-table.ts";
import { createServerLayout, type ServerLayout } from "./server-layout.ts";
import { fetchSession, type VizSession } from "./session-query.ts";
import { createSharedState } from "./session-shared.ts";
import { fitIntoSpace } from "./space-fit.ts";
import { createTimebar, type Timebar } from "./timebar.ts";

export type PageElements = {
  graph: HTMLDivElement;
  labels: HTMLElement;
  name: HTMLElement;
  status: HTMLElement;
  message: HTMLElement;
  search: HTMLInputElement;
  searchResults: HTMLElement;
  fit: HTMLButtonElement;
  legend: HTMLElement;
  inspector: { panel: HTMLElement; kind: HTMLElement; title: HTMLElement; fields: HTMLElement; close: HTMLElement };
  layout: LayoutPanelElements;
};

/** How long a selection's canvas draw waits for the inspector's answer at most (see afterInspector). */
const INSPECTOR_WAIT_MS = 400;

/** Graphs with at least this many links draw them only while no layout moves their nodes. */
const LINKS_WHILE_MOVING = 5_000;

type Selection = { kind: "node"; index: number } | { kind: "link"; index: number } | undefined;

export async function startGraphPage(sessionId: string, elements: PageElements): Promise<void> {
  const status = createPageStatus(elements.status, elements.message);
  const routes = createDataRoutes(sessionId);
  // The viewer's encoding choices (encoding-panel.ts) lie over the dataset's bindings; `raw` is the server's answer.
  let raw = await fetchSession(sessionId);
  // The session's shared filters and encodings (session-shared.ts): read after the load, sent on change.
  const shared = createSharedState(sessionId, {
    filters: (filters) => page.setFilters(filters),
    encodings: (choices) => encodings.setChoices(choices),
  });
  const encodings = createEncodingPanel(
    sessionId,
    document.querySelector<HTMLElement>(".topbar .tools"),
    () => {
      page.setArrows(encodings.arrows);
      queue = queue
        .then(async () => {
          const next = encodings.apply(raw);
          await page.update(session, next, { kind: "ENCODINGS", revision: null });
          session = next;
        })
        .catch((error: unknown) => console.warn("encoding change failed", error));
    },
    (choices) => shared.sendEncodings(choices),
  );
  encodings.setSession(raw);
  let session = encodings.apply(raw);
  const page = new GraphPage(sessionId, session, routes, status, elements);
  page.onFiltersChanged = (filters) => shared.sendFilters(filters);
  page.setArrows(encodings.arrows);
  const loaded = page.load();
  // Collections are listed at once and painted whenever the graph is there (the view keeps them until it is).
  const collections = createCollectionsLayer(sessionId, (layers) => page.paintCollections(layers));
  void collections.refresh();
  // Subscribed before the first load ends, so no change is missed; events wait behind the load and each other,
  // so a slow reload is never overtaken by the next one. Collection changes touch nothing else: they skip the queue.
  let queue: Promise<void> = loaded.catch(() => {});
  const live = subscribeToSession(sessionId, (change) => {
    // Asked over the socket the event came on: an HTTP request waits more turns on a page busy drawing.
    if (isCollectionsChange(change)) {
      // The event carries the list; ask again only when it could not.
      if (change.collections) void collections.apply(change.collections);
      else void collections.refresh((query, variables) => live.query(query, variables));
      return;
    }
    // Another viewer (or this one) started, paused, resumed or retuned the layout: only the job is read again.
    if (isLayoutJobChange(change)) {
      void page.layout.refresh((query, variables) => live.query(query, variables));
      return;
    }
    // Another viewer changed the shared filters or encodings: only those are read again.
    if (change.kind === "FILTERS" || change.kind === "ENCODINGS") {
      queue = queue.then(() => shared.refresh()).catch((error: unknown) => console.warn("shared state update failed", error));
      return;
    }
    if (change.kind === "RECONNECTED") void page.layout.refresh((query, variables) => live.query(query, variables));
    queue = queue
      .then(async () => {
        raw = await fetchSession(sessionId);
        encodings.setSession(raw);
        const next = encodings.apply(raw);
        await page.update(session, next, change);
        session = next;
      })
      .catch((error: unknown) => console.warn("live update failed", error));
  });
  queue = queue.then(() => shared.refresh()).catch((error: unknown) => console.warn("shared state read failed", error));
  try {
    await loaded;
  } catch (error) {
    live.stop();
    page.layout.stop();
    throw error;
  }
}

class GraphPage {
  private model: GraphModel | undefined;
  private readonly view: GraphView;
  private readonly labels: LabelLayer;
  private readonly labelControl: LabelControl;
  private readonly search: SearchBox;
  private readonly inspector: Inspector;
  private readonly neighbours: NeighbourList;
  private readonly hoverCard: HoverCard;
  private readonly selectionTable: SelectionTable;
  /** The Filters panel (filter-panel.ts): its layer hides filtered-out rows over the collections. */
  private readonly filterPanel: FilterPanel;
  private filterLayer: PaintLayer | undefined;
  /** The timebar and the filter table: views of the Filters panel's state. */
  private readonly timebar: Timebar;
  private readonly filterTable: FilterTable;
  /** Called when the filters change (session-shared.ts shares them with the session). */
  onFiltersChanged: ((filters: readonly ColumnFilter[]) => void) | undefined;

  /** Takes the session's shared filters (another viewer's). */
  setFilters(filters: readonly ColumnFilter[]): void {
    this.filterPanel.setFilters(filters);
  }
  private collectionLayers: PaintLayer[] = [];
  private selection: Selection;
  /** Counts selections, so a selection's canvas draw waiting for the inspector is dropped when another comes. */
  private selectionTicket = 0;
  private hovered: number | undefined;
  private shownPercent = -1;
  /** Whether the graph is on the canvas (the first positions were drawn). */
  private drawn = false;
  /** Resolves the wait for the first server frame, when the graph has no positions of its own. */
  private firstDrawn: (() => void) | undefined;
  /** The first draw while it is under way. */
  private drawing: Promise<void> | undefined;
  /** Whether this load asked the server to lay the graph out. */
  private startAsked = false;
  /** Why the server layout failed or could not start, once it has. */
  private layoutError: string | undefined;
  readonly layout: ServerLayout;
  private session: VizSession;
  private readonly routes: DataRoutes;
  private readonly status: PageStatus;
  private readonly elements: PageElements;

  constructor(sessionId: string, session: VizSession, routes: DataRoutes, status: PageStatus, elements: PageElements) {
    this.session = session;
    this.routes = routes;
    this.status = status;
    this.elements = elements;
    this.labels = createLabelLayer(elements.labels);
    const textFields = createSearchFields(routes, () => this.session);
    this.search = createSearchBox(elements.search, elements.searchResults, (index) => this.selectNode(index, true), textFields);
    this.labelControl = createLabelControl(document.querySelector(".topbar .tools"), this.labels, textFields, () => ({
      model: this.model,
      session: this.session,
    }));
    this.inspector = createInspector(
      elements.inspector,
      routes,
      () => ({
        filters: this.session.dataset.fieldFilters,
        nodeColumns: this.model?.nodeColumns ?? { id: "" },
        edgeColumns: this.model?.edgeColumns,
      }),
      () => this.clearSelection(),
    );
    this.neighbours = createNeighbourList(elements.inspector.panel, (index) => this.selectNode(index, true));
    this.hoverCard = createHoverCard(elements.graph, routes, () => ({
      filters: this.session.dataset.fieldFilters,
      label: (index) => (this.model ? nodeLabel(this.model, index) : ""),
    }));
    this.selectionTable = createSelectionTable(document.querySelector(".topbar .tools"), routes, () => ({
      filters: this.session.dataset.fieldFilters,
      label: (index) => (this.model ? nodeLabel(this.model, index) : ""),
    }));
    this.view = createGraphView(elements.graph, {
      nodeClick: (index) => this.selectNode(index, false),
      linkClick: (index) => this.selectLink(index),
      backgroundClick: () => this.clearSelection(),
      nodeHover: (index) => this.hoverNode(index),
    });
    attachExportTools({
      sessionId,
      datasetId: () => this.session.dataset.id,
      canvas: () => elements.graph.querySelector("canvas"),
      labels: elements.labels,
      drawNow: () => drawGraphNow(this.view.graph),
      csvSource: () =>
        this.model && {
          routes,
          session: this.session,
          model: this.model,
          selection: this.selection,
          hidden: this.filterPanel.hidden(),
        },
    });
    this.filterPanel = createFilterPanel({
      routes,
      session: () => this.session,
      model: () => this.model,
      apply: (layer) => {
        this.filterLayer = layer;
        this.labels.setHidden(layer ? this.filterPanel.hidden()?.nodes : undefined);
        this.paintCollections(this.collectionLayers);
      },
      changed: (filters) => this.onFiltersChanged?.(filters),
    });
    const views = { panel: this.filterPanel, session: () => this.session, model: () => this.model };
    this.timebar = createTimebar(views);
    this.filterTable = createFilterTable({ ...views, routes, selectNode: (index) => this.selectNode(index, true) });
    // Always listening: another viewer may start or resume a layout at any time.
    this.layout = createServerLayout(sessionId, elements.layout, {
      drawFrame: (frame) => this.drawFrame(frame),
      progress: (state, iteration, maxIter) => this.showProgress(state, iteration, maxIter),
      failed: (message) => void this.layoutFailed(message),
    });
    elements.fit.addEventListener("click", () => this.view.fit());
    window.addEventListener("keydown", (event) => this.onKey(event));
  }

  async load(): Promise<void> {
    this.showName();
    this.status.set("loading", "Loading graph…");
    this.drawn = false;
    this.layoutError = undefined;
    this.layout.hold();
    const saved = this.routes.loadLayout().catch(() => undefined);
    // The server layout starts while the tables download, when nothing else will give positions.
    this.startAsked = false;
    if (!this.hasOwnPositions()) void saved.then((stored) => (stored ? undefined : this.startServerLayout()));
    const [model, positions] = await Promise.all([loadGraph(this.routes, this.session), saved]);
    performance.mark("graph-data-loaded");
    await this.show(model, positions);
  }

  private startServerLayout(): Promise<void> {
    this.startAsked = true;
    return this.layout.ensureStarted();
  }

  /** Bound node_x/node_y or the dataset's layout columns: known from the session, before any table arrives. */
  private hasOwnPositions(): boolean {
    const columns = nodeColumnsOf(this.session);
    return !!columns && ((!!columns.x && !!columns.y) || datasetLayoutColumns(this.session, columns) !== undefined);
  }

  /** Applies one live change: the tables again when they changed, else only the look, labels or field filters. */
  async update(previous: VizSession, next: VizSession, change: SessionChange): Promise<void> {
    this.hoverCard.clear();
    this.session = next;
    this.showName();
    if (!this.model || shapeSignature(previous) !== shapeSignature(next)) {
      this.clearSelection();
      await this.load();
      return;
    }
    // A layout was stored: every page moves to it, unless a server layout is moving the nodes (its frames rule).
    if (change.kind === "LAYOUT" && this.layout.state !== "running" && this.layout.state !== "paused") await this.showSharedLayout();
    const tablesChanged = previous.dataset.dataVersion !== next.dataset.dataVersion;
    if (tablesChanged || styleSignature(previous) !== styleSignature(next)) {
      await reloadStyle(this.routes, next, this.model, tablesChanged);
      this.view.applyStyle(this.model.style);
      this.labels.setModel(this.model, this.view.graph);
      this.search.setModel(this.model);
      this.showLegend(this.model);
    }
    if (JSON.stringify(previous.dataset.fieldFilters) !== JSON.stringify(next.dataset.fieldFilters)) await this.inspector.refresh();
  }

  setArrows(on: boolean): void {
    this.view.setArrows(on);
  }

  paintCollections(layers: PaintLayer[]): void {
    this.collectionLayers = layers;
    this.view.setCollections(this.filterLayer ? [this.filterLayer, ...layers] : layers);
  }

  private async show(model: GraphModel, saved: Float32Array | undefined): Promise<void> {
    this.model = model;
    this.filterPanel.reset();
    this.timebar.reset();
    this.filterTable.reset();
    if (model.topology.nodeCount === 0) {
      this.status.fail("This graph has no nodes to draw.");
      return;
    }
    const plan = planLayout(model, saved);
    this.status.layout(plan.source);
    this.shownPercent = -1;
    if (plan.positions) {
      await this.draw(model, plan.positions);
      this.showProgress(this.layout.state, 0, 0);
      this.layout.resume();
      return;
    }
    // No positions of its own: the first server frame draws the graph (no layout pass here). A stored layout that
    // did not fit the graph (another node count) did not start one while the tables loaded: start it now.
    if (!this.startAsked) void this.startServerLayout();
    this.status.set("laying-out", `${this.counts()} · waiting for the server's layout…`);
    const drawn = new Promise<void>((resolve) => {
      this.firstDrawn = resolve;
    });
    this.layout.resume();
    if (this.layoutError) await this.drawUnlaidOut();
    await drawn;
  }

  /** Puts the graph on the canvas at the given positions (inside the space), fitted to the window. */
  private draw(model: GraphModel, positions: Float32Array, state: PanelState = this.layout.state): Promise<void> {
    this.drawing = this.drawOnce(model, positions, state).finally(() => {
      this.drawing = undefined;
    });
    return this.drawing;
  }

  private async drawOnce(model: GraphModel, positions: Float32Array, state: PanelState): Promise<void> {
    await this.view.show(model, positions, this.linksShown(state));
    this.drawn = true;
    this.labels.setModel(model, this.view.graph);
    this.labels.setPositions(positions);
    this.labelControl.refresh();
    this.search.setModel(model);
    this.showLegend(model);
    await firstFrame(this.elements.graph);
    performance.mark("graph-first-frame");
    this.firstDrawn?.();
    this.firstDrawn = undefined;
  }

  /** One frame of the stream: the first draws the graph, the rest move its nodes (written straight into cosmos.gl). */
  private async drawFrame(frame: LayoutFrame): Promise<boolean> {
    const model = this.model;
    if (!model || frame.nodeCount !== model.topology.nodeCount) return false;
    const positions = fitIntoSpace(planarPositions(frame));
    // A draw under way (the disc of a failed start) finishes first; the frame then moves its nodes.
    if (this.drawing) await this.drawing;
    // The frame's own state decides the first draw's links: the job's may not be known yet (its request still under
    // way), and a running layout's first frame drawn with 100k links holds a software-WebGL page for half a minute.
    if (!this.drawn) await this.draw(model, positions, frame.state);
    else {
      this.view.showPositions(positions);
      this.labels.setPositions(positions);
      // The next frame waits until this one is on the canvas (and the governor's pause after it).
      await this.view.nextRender();
    }
    return true;
  }

  /**
   * Whether links are drawn: not while a layout moves the nodes of a graph with many links. With software WebGL, links
   * between far-apart nodes (a layout's early frames) cost seconds a frame; they come back when it pauses or ends.
   */
  private linksShown(state: PanelState): boolean {
    return state !== "running" || (this.model?.topology.links.length ?? 0) / 2 < LINKS_WHILE_MOVING;
  }

  /** The status line follows the server layout in whole percents (frames come many times a second). */
  private showProgress(state: PanelState, iteration: number, maxIter: number): void {
    if (!this.drawn) return;
    this.view.setLinksVisible(this.linksShown(state));
    if (state !== "running") {
      this.shownPercent = -1;
      this.status.set("ready", this.counts());
      return;
    }
    const percent = maxIter > 0 ? Math.round((Math.min(iteration, maxIter) / maxIter) * 100) : -2;
    if (percent === this.shownPercent) return;
    this.shownPercent = percent;
    this.status.set("laying-out", `${this.counts()} · laying out${percent >= 0 ? ` ${percent}%` : ""}`);
  }

  /** The server could not lay the graph out: say so, and still draw it (around a disc) if nothing is drawn yet. */
  private async layoutFailed(message: string): Promise<void> {
    this.layoutError = message;
    this.elements.layout.error.textContent = message;
    this.elements.layout.error.hidden = false;
    this.elements.layout.panel.hidden = false;
    // Before the tables are there, `show` draws it once they are.
    if (this.firstDrawn) await this.drawUnlaidOut();
  }

  /** The graph around a disc, when the server layout it was waiting for failed. */
  private async drawUnlaidOut(): Promise<void> {
    if (this.drawn || this.drawing || !this.model) return;
    await this.draw(this.model, seedPositions(this.model.topology.nodeCount));
    this.status.set("ready", `${this.counts()} · not laid out`);
  }

  private async showSharedLayout(): Promise<void> {
    const positions = await this.routes.loadLayout().catch(() => undefined);
    if (!this.model || !this.drawn || !positions || positions.length !== this.model.topology.nodeCount * 2) return;
    const fitted = fitIntoSpace(positions);
    this.view.showPositions(fitted);
    this.labels.setPositions(fitted);
    this.view.refitIfUntouched();
    this.status.layout("saved");
  }

  /**
   * Draws a selection on the canvas once the inspector shows it, or after INSPECTOR_WAIT_MS: with software WebGL a big
   * graph's frame holds every later change to the page for seconds, so the inspector's answer comes first. A newer
   * selection (or none) drops the draw.
   */
  private afterInspector(opened: Promise<void>, draw: () => void): void {
    const ticket = ++this.selectionTicket;
    const wait = new Promise<void>((resolve) => window.setTimeout(resolve, INSPECTOR_WAIT_MS));
    const go = () => {
      if (ticket === this.selectionTicket) draw();
    };
    void Promise.race([opened, wait]).then(go, go);
  }

  private selectNode(index: number, focus: boolean): void {
    this.selection = { kind: "node", index };
    this.labels.setSelected(index);
    this.afterInspector(this.inspector.open({ kind: "node", index }), () => {
      this.view.setFocus(index, undefined);
      this.highlight(index);
      if (focus) this.view.focusNode(index);
    });
    const model = this.model;
    if (model) this.neighbours.showNode(model.topology, index, (other) => nodeLabel(model, other));
    this.selectionTable.show(index, model ? neighboursOf(model.topology, index) : []);
  }

  private selectLink(linkIndex: number): void {
    const rows = this.model?.topology.linkRows;
    const row = rows ? (rows[linkIndex] ?? linkIndex) : linkIndex;
    this.selection = { kind: "link", index: linkIndex };
    this.labels.setSelected(undefined);
    const ends = this.view.graph.getConnectedPointIndices(linkIndex);
    this.labels.setHighlighted(ends);
    const links = this.model?.topology.links;
    const end = (k: number) => (this.model && links ? nodeLabel(this.model, links[linkIndex * 2 + k] ?? 0) : "?");
    this.afterInspector(this.inspector.open({ kind: "edge", row, ends: [end(0), end(1)] }), () => {
      this.view.setFocus(undefined, linkIndex);
      this.view.setHighlight(ends, [linkIndex]);
    });
    const model = this.model;
    if (model && links)
      this.neighbours.showEdge(links[linkIndex * 2] ?? 0, links[linkIndex * 2 + 1] ?? 0, (other) => nodeLabel(model, other));
  }

  private clearSelection(): void {
    this.selection = undefined;
    this.selectionTicket++;
    this.selectionTable.show(undefined, []);
    this.view.setFocus(undefined, undefined);
    this.labels.setSelected(undefined);
    this.inspector.close();
    this.neighbours.clear();
    this.highlight(this.hovered);
  }

  private hoverNode(index: number | undefined): void {
    this.hovered = index;
    this.labels.setHovered(index);
    this.hoverCard.show(index);
    this.highlight(
      index ?? (this.selection?.kind === "node" ? this.selection.index : undefined),
      index === undefined ? "unhover" : "hover",
    );
  }

  /** Greys out everything but a node and its neighbors (hover, or the selection when nothing is hovered). */
  private highlight(index: number | undefined, hover?: HoverChange): void {
    if (index === undefined) {
      if (this.selection?.kind === "link") return;
      this.view.setHighlight(undefined, undefined, hover);
      this.labels.setHighlighted(undefined);
      return;
    }
    const graph = this.view.graph;
    const nodes = [index, ...graph.getNeighboringPointIndices(index)];
    this.view.setHighlight(nodes, graph.getConnectedLinkIndices(nodes), hover);
    this.labels.setHighlighted(nodes);
  }

  private onKey(event: KeyboardEvent): void {
    const target = event.target as HTMLElement | null;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable)) return;
    if (event.metaKey || event.ctrlKey || event.altKey) return;
    if (event.key === "f") this.view.fit();
    else if (event.key === "p") this.layout.toggle();
    else if (event.key === "/") {
      event.preventDefault();
      this.search.focus();
    } else if (event.key === "Escape") this.clearSelection();
  }

  private showName(): void {
    this.elements.name.textContent = this.session.dataset.name || "Untitled graph";
    document.title = `${this.session.dataset.name || "Graph"} · Graph`;
  }

  private showLegend(model: GraphModel): void {
    renderLegend(this.elements.legend, [
      { title: "Node", legend: model.style.node.legend },
      { title: "Edge", legend: model.style.edge.legend },
    ]);
  }

  private counts(): string {
    const topology = this.model?.topology;
    if (!topology) return "";
    const edges = topology.links.length / 2;
    return `${topology.nodeCount.toLocaleString("en-US")} nodes · ${edges.toLocaleString("en-US")} edges`;
  }
}

/** Resolves once the canvas has its full size and a frame has been drawn at it (cosmos.gl starts at 300x150). */
async function firstFrame(container: HTMLElement): Promise<void> {
  const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));
  for (let tries = 0; tries < 600; tries++) {
    await frame();
    const canvas = container.querySelector("canvas");
    if (canvas && canvas.clientWidth === container.clientWidth && canvas.clientHeight === container.clientHeight && canvas.width > 300)
      break;
  }
  await frame();
}
