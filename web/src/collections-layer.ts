// Keeps the page's collections current: lists them in the panel, fetches the matches of the visible ones and hands
// them to the view to paint. Fetched on load and again on every live COLLECTIONS event; the newest answer wins.
import { type PaintLayer, parseRgba } from "./collections-paint.ts";
import { createCollectionsPanel } from "./collections-panel.ts";
import { type Ask, type CollectionInfo, fetchCollections, fetchMatches, inRenderOrder, type Matches } from "./collections-query.ts";
import { requestGraphQL } from "./graphql-client.ts";
import { readPageParams } from "./page-params.ts";

export type CollectionsLayer = {
  /**
   * Fetches the list again (with `via`, else over HTTP; HTTP again when `via` fails) and repaints; never throws
   * (a failure is logged and the last picture stays).
   */
  refresh(via?: Ask): Promise<void>;
  /** Shows a list the server already sent (with a live event), without asking again. */
  apply(next: readonly CollectionInfo[]): Promise<void>;
};

export function createCollectionsLayer(sessionId: string, paint: (layers: PaintLayer[]) => void): CollectionsLayer {
  let list: CollectionInfo[] = [];
  /** Hidden by this viewer; a new collection starts visible. */
  const hidden = new Set<string>();
  /** Matches by collection id and version: a replaced collection (same id) has a new updatedAt. */
  const cache = new Map<string, Promise<Matches>>();
  let listed = 0;
  let painted = 0;
  const panel = createCollectionsPanel(
    (id, visible) => {
      if (visible) hidden.delete(id);
      else hidden.add(id);
      void repaint();
    },
    document.body,
    readPageParams().showCollections,
  );
  const keyOf = (c: CollectionInfo) => `${c.id}@${c.updatedAt ?? ""}`;

  const matchesOf = (c: CollectionInfo & { matchesUrl: string }): Promise<Matches> => {
    const key = keyOf(c);
    let found = cache.get(key);
    if (!found) {
      found = fetchMatches(c.matchesUrl);
      found.catch(() => cache.delete(key));
      cache.set(key, found);
    }
    return found;
  };

  async function repaint(): Promise<void> {
    const turn = ++painted;
    const shown = list.filter((c): c is CollectionInfo & { matchesUrl: string } => !hidden.has(c.id) && c.matchesUrl !== null);
    const answers = await Promise.all(
      shown.map((c) =>
        matchesOf(c).catch((error: unknown) => {
          console.warn(`collection ${c.name}: its matches could not be read`, error);
          return undefined;
        }),
      ),
    );
    if (turn !== painted) return;
    const layers: PaintLayer[] = [];
    shown.forEach((c, i) => {
      const matches = answers[i];
      const rgba = parseRgba(c.color);
      if (matches && rgba) layers.push({ id: c.id, rgba, nodeRows: matches.nodes, edgeRows: matches.edges });
    });
    paint(layers);
    // For tests and tools: which collections are painted, top first.
    document.documentElement.dataset.collectionsPainted = layers.map((layer) => layer.id).join(" ");
  }

  async function ask(via: Ask | undefined): Promise<CollectionInfo[]> {
    if (!via) return fetchCollections(sessionId, requestGraphQL);
    try {
      return await fetchCollections(sessionId, via);
    } catch (error) {
      console.warn("collections over the live connection failed; asking over HTTP", error);
      return fetchCollections(sessionId, requestGraphQL);
    }
  }

  async function show(next: CollectionInfo[]): Promise<void> {
    list = next;
    const current = new Set(next.map(keyOf));
    for (const key of cache.keys()) if (!current.has(key)) cache.delete(key);
    panel.render(list, (id) => !hidden.has(id));
    await repaint();
  }

  return {
    async refresh(via) {
      const turn = ++listed;
      try {
        const next = await ask(via);
        if (turn !== listed) return;
        await show(next);
      } catch (error) {
        console.warn("collections could not be read", error);
      }
    },
    async apply(next) {
      ++listed;
      await show(inRenderOrder(next)).catch((error: unknown) => console.warn("collections could not be shown", error));
    },
  };
}
