// Moves the drawn nodes to new positions (a layout frame) by writing cosmos.gl's position textures, instead of its
// setPointPositions + render(): that path rebuilds every point and link buffer, the adjacency lists and a search
// texture and framebuffer per frame, and creating a framebuffer waits for the GPU side to finish its queued draws
// (seconds at 100k edges with software WebGL), holding the page's main thread each layout frame.
import type { Graph } from "@cosmos.gl/graph";

type PositionTexture = {
  destroyed: boolean;
  width: number;
  copyImageData(options: { data: Float32Array; bytesPerRow: number; mipLevel: number; x: number; y: number }): void;
};

/** The parts of cosmos.gl's Graph written here (private members of its classes, stable across 3.x). */
type CosmosPositions = {
  graph: { inputPointPositions: Float32Array | undefined; pointPositions: Float32Array | undefined; pointsNumber: number | undefined };
  store: { pointsTextureSize: number | undefined };
  points?: { currentPositionTexture?: PositionTexture; previousPositionTexture?: PositionTexture; isPositionsUpToDate: boolean };
  transition: { isActive: boolean };
};

/**
 * Writes x,y per node (space coordinates) straight into the textures cosmos.gl draws from, as its own snap (no
 * transition) would. Answers false, writing nothing, when it cannot: another node count, a node without a finite
 * position (cosmos.gl fades absent nodes out), textures not made yet, or a transition under way; the caller then
 * takes cosmos.gl's own path.
 */
export function writePositions(graph: Graph, positions: Float32Array): boolean {
  const cosmos = graph as unknown as CosmosPositions;
  const size = cosmos.store.pointsTextureSize;
  const current = cosmos.points?.currentPositionTexture;
  const previous = cosmos.points?.previousPositionTexture;
  const count = positions.length >> 1;
  if (!size || !cosmos.points || !current || !previous || current.destroyed || previous.destroyed) return false;
  if (current.width !== size || previous.width !== size || cosmos.graph.pointsNumber !== count || cosmos.transition.isActive) return false;
  // The texture layout of cosmos.gl's buildPositionTextureData: x, y, index, 0 per texel.
  const data = new Float32Array(size * size * 4);
  for (let i = 0; i < count; i++) {
    const x = positions[i * 2] ?? Number.NaN;
    const y = positions[i * 2 + 1] ?? Number.NaN;
    if (!Number.isFinite(x) || !Number.isFinite(y)) return false;
    data[i * 4] = x;
    data[i * 4 + 1] = y;
    data[i * 4 + 2] = i;
  }
  const write = { data, bytesPerRow: size * 16, mipLevel: 0, x: 0, y: 0 };
  current.copyImageData(write);
  previous.copyImageData(write);
  // cosmos.gl's next update() (a style change) then finds these positions already in place.
  cosmos.graph.inputPointPositions = positions;
  cosmos.graph.pointPositions = positions;
  cosmos.points.isPositionsUpToDate = false;
  return true;
}
