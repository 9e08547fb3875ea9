// Maps positions in any coordinates (a server layout, bound columns) into cosmos.gl's square space, keeping the shape.

/** cosmos.gl's simulation space (the page never runs the simulation, but positions must lie inside it). */
export const SPACE_SIZE = 4096;
/** The layout's larger side spans this share of the space, centered. */
const FILL = 0.8;

/**
 * Rewrites x,y pairs in place so their bounding box is centered in the space with its larger side at FILL of it.
 * Non-finite values are left as they are (cosmos.gl treats a NaN position as an absent point). Answers `positions`.
 */
export function fitIntoSpace(positions: Float32Array, space = SPACE_SIZE): Float32Array {
  let minX = Number.POSITIVE_INFINITY;
  let maxX = Number.NEGATIVE_INFINITY;
  let minY = Number.POSITIVE_INFINITY;
  let maxY = Number.NEGATIVE_INFINITY;
  for (let i = 0; i + 1 < positions.length; i += 2) {
    const x = positions[i] as number;
    const y = positions[i + 1] as number;
    if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  if (!Number.isFinite(minX)) return positions;
  const extent = Math.max(maxX - minX, maxY - minY);
  const scale = extent > 0 ? (space * FILL) / extent : 1;
  const offsetX = space / 2 - ((minX + maxX) / 2) * scale;
  const offsetY = space / 2 - ((minY + maxY) / 2) * scale;
  for (let i = 0; i + 1 < positions.length; i += 2) {
    positions[i] = (positions[i] as number) * scale + offsetX;
    positions[i + 1] = (positions[i + 1] as number) * scale + offsetY;
  }
  return positions;
}
