// Changes the drawn colors, sizes and widths (a filter, a timebar step, a color or size encoding) without cosmos.gl's
// render(): that always runs its GraphData.update(), which rebuilds every per-item array, the adjacency lists and
// degrees over all links (about 0.2 s at 100k edges), then create() and initPrograms(). Here only the channels that
// changed are brought up to date, the way cosmos.gl's own setConfigPartial does for a new pointDefaultColor or
// pointDefaultSize (graph.updatePointColor(); points.updateColor()), and the caller wakes the draw loop for a frame.
import type { Graph } from "@cosmos.gl/graph";

/** The parts of cosmos.gl's Graph used here (members of its classes, not its documented API; stable across 3.x). */
type CosmosPaint = {
  graph: {
    pointsNumber: number | undefined;
    linksNumber: number | undefined;
    inputPointColors: Float32Array | undefined;
    inputLinkColors: Float32Array | undefined;
    inputPointSizes: Float32Array | undefined;
    inputLinkWidths: Float32Array | undefined;
    updatePointColor(): void;
    updateLinkColor(): void;
    updatePointSize(): void;
    updateLinkWidth(): void;
  };
  points?: { updateColor(): void; updateSize(): void };
  lines?: { updateColor(): void; updateWidth(): void };
  transition: { isActive: boolean; isPending: boolean };
};

/** What is painted: per-point and per-link values (an empty array: cosmos.gl's defaults for that channel). */
export type Paint = { pointColors?: Float32Array; linkColors?: Float32Array; pointSizes?: Float32Array; linkWidths?: Float32Array };

function cosmosOf(graph: Graph): CosmosPaint | undefined {
  const cosmos = graph as unknown as Partial<CosmosPaint>;
  const data = cosmos.graph;
  if (!data || !cosmos.points || !cosmos.lines || !cosmos.transition) return undefined;
  const methods = [data.updatePointColor, data.updateLinkColor, data.updatePointSize, data.updateLinkWidth];
  if (methods.some((method) => typeof method !== "function")) return undefined;
  if (typeof cosmos.points.updateColor !== "function" || typeof cosmos.points.updateSize !== "function") return undefined;
  if (typeof cosmos.lines.updateColor !== "function" || typeof cosmos.lines.updateWidth !== "function") return undefined;
  // A graph not drawn yet, or one with a transition queued or running: cosmos.gl's own path (setX + render) then.
  if (data.pointsNumber === undefined || cosmos.transition.isActive || cosmos.transition.isPending) return undefined;
  return cosmos as CosmosPaint;
}

/**
 * Uploads the given channels to the GPU buffers cosmos.gl draws from. Answers false, writing nothing, when cosmos.gl's
 * members are not as expected or the graph is not drawn yet; the caller then takes the documented path
 * (setPointColors, ... and render()). Draws nothing itself: the caller asks for a frame.
 */
export function writePaint(graph: Graph, paint: Paint): boolean {
  const cosmos = cosmosOf(graph);
  if (!cosmos) return false;
  const { graph: data, points, lines } = cosmos;
  if (!points || !lines) return false;
  if (paint.pointColors) {
    data.inputPointColors = paint.pointColors;
    data.updatePointColor();
    points.updateColor();
  }
  if (paint.pointSizes) {
    data.inputPointSizes = paint.pointSizes;
    data.updatePointSize();
    points.updateSize();
  }
  if (data.linksNumber !== undefined) {
    if (paint.linkColors) {
      data.inputLinkColors = paint.linkColors;
      data.updateLinkColor();
      lines.updateColor();
    }
    if (paint.linkWidths) {
      data.inputLinkWidths = paint.linkWidths;
      data.updateLinkWidth();
      lines.updateWidth();
    }
  }
  return true;
}
