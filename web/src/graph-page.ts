// The page controller: loads the session and its graph, wires selection, search, inspector and live updates.
import { createCollectionsLayer } from "./collections-layer.ts";
import type { PaintLayer } from "./collections-paint.ts";
import { createDataRoutes, type DataRoutes } from "./data-routes.ts";
import { type GraphModel, loadGraph, reloadStyle, shapeSignature, styleSignature } from "./graph-model.ts";
import { createGraphView, type GraphView } from "./graph-view.ts";
import { createInspector, type Inspector } from "./inspector.ts";
import { createLabelLayer, type LabelLayer } from "./label-layer.ts";
import { planLayout } from "./layout-plan.ts";
import { renderLegend } from "./legend.ts";
import { isCollectionsChange, type SessionChange, subscribeToSession } from "./live-updates.ts";
import { nodeLabel } from "./node-text.ts";
import { createPageStatus, type PageStatus } from "./page-status.ts";
import { createSearchBox, type SearchBox } from "./search-box.ts";
import { fetchSession, type VizSession } from "./session-query.ts";

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
};

type Selection = { kind: "node"; index: number } | { kind: "link"; index: number } | undefined;

export async function startGraphPage(sessionId: string, elements: PageElements): Promise<void> {
  const status = createPageStatus(elements.status, elements.message);
  const routes = createDataRoutes(sessionId);
  let session = await fetchSession(sessionId);
  const page = new GraphPage(session, routes, status, elements);
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
    queue = queue
      .then(async () => {
        const next = await fetchSession(sessionId);
        await page.update(session, next, change);
        session = next;
      })
      .catch((error: unknown) => console.warn("live update failed", error));
  });
  try {
    await loaded;
  } catch (error) {
    live.stop();
    throw error;
  }
}

class GraphPage {
  private model: GraphModel | undefined;
  private readonly view: GraphView;
  private readonly labels: LabelLayer;
  private readonly search: SearchBox;
  private readonly inspector: Inspector;
  private selection: Selection;
  private hovered: number | undefined;
  private shownPercent = -1;
  private session: VizSession;
  private readonly routes: DataRoutes;
  private readonly status: PageStatus;
  private readonly elements: PageElements;

  constructor(session: VizSession, routes: DataRoutes, status: PageStatus, elements: PageElements) {
    this.session = session;
    this.routes = routes;
    this.status = status;
    this.elements = elements;
    this.labels = createLabelLayer(elements.labels);
    this.search = createSearchBox(elements.search, elements.searchResults, (index) => this.selectNode(index, true));
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
    this.view = createGraphView(elements.graph, {
      nodeClick: (index) => this.selectNode(index, false),
      linkClick: (index) => this.selectLink(index),
      backgroundClick: () => this.clearSelection(),
      nodeHover: (index) => this.hoverNode(index),
      layoutProgress: (progress) => this.showProgress(progress),
      layoutSettled: () => void this.settled(),
    });
    elements.fit.addEventListener("click", () => this.view.fit());
    window.addEventListener("keydown", (event) => this.onKey(event));
  }

  async load(): Promise<void> {
    this.showName();
    this.status.set("loading", "Loading graph…");
    const [model, saved] = await Promise.all([loadGraph(this.routes, this.session), this.routes.loadLayout().catch(() => undefined)]);
    performance.mark("graph-data-loaded");
    await this.show(model, saved);
  }

  /** Applies one live change: the tables again when they changed, else only the look, labels or field filters. */
  async update(previous: VizSession, next: VizSession, change: SessionChange): Promise<void> {
    this.session = next;
    this.showName();
    if (!this.model || shapeSignature(previous) !== shapeSignature(next)) {
      this.clearSelection();
      await this.load();
      return;
    }
    // The owner stored a layout: everyone else on the session moves to the same picture.
    if (change.kind === "LAYOUT" && !next.isOwner) await this.showSharedLayout();
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

  paintCollections(layers: PaintLayer[]): void {
    this.view.setCollections(layers);
  }

  private async show(model: GraphModel, saved: Float32Array | undefined): Promise<void> {
    this.model = model;
    if (model.topology.nodeCount === 0) {
      this.status.fail("This graph has no nodes to draw.");
      return;
    }
    const plan = planLayout(model, saved);
    this.status.layout(plan.source);
    await this.view.show(model, plan);
    this.labels.setModel(model, this.view.graph);
    this.search.setModel(model);
    this.showLegend(model);
    await firstFrame(this.elements.graph);
    performance.mark("graph-first-frame");
    this.shownPercent = -1;
    if (plan.simulate) this.status.set("laying-out", `${this.counts()} · laying out`);
    else this.status.set("ready", this.counts());
  }

  /** The status line follows the layout in whole percents (it is told every frame). */
  private showProgress(progress: number): void {
    const percent = Math.round(progress * 100);
    if (percent === this.shownPercent) return;
    this.shownPercent = percent;
    this.status.set("laying-out", `${this.counts()} · laying out ${percent}%`);
  }

  private async showSharedLayout(): Promise<void> {
    const positions = await this.routes.loadLayout().catch(() => undefined);
    if (!this.model || !positions || positions.length !== this.model.topology.nodeCount * 2) return;
    this.view.showPositions(positions);
    this.view.refitIfUntouched();
    this.status.layout("shared");
    this.status.set("ready", this.counts());
  }

  private async settled(): Promise<void> {
    this.status.set("ready", this.counts());
    this.view.refitIfUntouched();
    if (!this.session.isOwner || !this.model) return;
    // Only the owner may store the layout; anyone else's reload simply lays out again.
    const positions = this.view.readPositions();
    if (positions.length !== this.model.topology.nodeCount * 2) return;
    const stored = await this.routes.saveLayout(positions).catch(() => false);
    document.documentElement.dataset.layoutSaved = String(stored);
  }

  private selectNode(index: number, focus: boolean): void {
    this.selection = { kind: "node", index };
    this.view.setFocus(index, undefined);
    this.labels.setSelected(index);
    this.highlight(index);
    if (focus) this.view.focusNode(index);
    void this.inspector.open({ kind: "node", index });
  }

  private selectLink(linkIndex: number): void {
    const rows = this.model?.topology.linkRows;
    const row = rows ? (rows[linkIndex] ?? linkIndex) : linkIndex;
    this.selection = { kind: "link", index: linkIndex };
    this.view.setFocus(undefined, linkIndex);
    this.labels.setSelected(undefined);
    const ends = this.view.graph.getConnectedPointIndices(linkIndex);
    this.view.setHighlight(ends, [linkIndex]);
    this.labels.setHighlighted(ends);
    const links = this.model?.topology.links;
    const end = (k: number) => (this.model && links ? nodeLabel(this.model, links[linkIndex * 2 + k] ?? 0) : "?");
    void this.inspector.open({ kind: "edge", row, ends: [end(0), end(1)] });
  }

  private clearSelection(): void {
    this.selection = undefined;
    this.view.setFocus(undefined, undefined);
    this.labels.setSelected(undefined);
    this.inspector.close();
    this.highlight(this.hovered);
  }

  private hoverNode(index: number | undefined): void {
    this.hovered = index;
    this.labels.setHovered(index);
    this.highlight(index ?? (this.selection?.kind === "node" ? this.selection.index : undefined));
  }

  /** Greys out everything but a node and its neighbors (hover, or the selection when nothing is hovered). */
  private highlight(index: number | undefined): void {
    if (index === undefined) {
      if (this.selection?.kind === "link") return;
      this.view.setHighlight(undefined, undefined);
      this.labels.setHighlighted(undefined);
      return;
    }
    const graph = this.view.graph;
    const nodes = [index, ...graph.getNeighboringPointIndices(index)];
    this.view.setHighlight(nodes, graph.getConnectedLinkIndices(nodes));
    this.labels.setHighlighted(nodes);
  }

  private onKey(event: KeyboardEvent): void {
    const target = event.target as HTMLElement | null;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable)) return;
    if (event.metaKey || event.ctrlKey || event.altKey) return;
    if (event.key === "f") this.view.fit();
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
