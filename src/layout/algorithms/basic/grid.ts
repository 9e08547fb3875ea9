// igraph's layout_grid and layout_grid_3d: vertices in id order on the integer lattice, row by row (x first, then
// y, then z), unit spacing, from the origin. width 0 (2D) is ceil(sqrt(n)); in 3D, width and height 0 are both
// ceil(cbrt(n)), and one of them 0 is ceil(sqrt(n / the other)), as igraph computes them.

export function gridPositions(n: number, width: number): Float64Array {
  const w = width <= 0 ? Math.ceil(Math.sqrt(n)) : width;
  const out = new Float64Array(n * 2);
  let x = 0;
  let y = 0;
  for (let i = 0; i < n; i++) {
    out[i * 2] = x++;
    out[i * 2 + 1] = y;
    if (x === w) {
      x = 0;
      y++;
    }
  }
  return out;
}

export function grid3dPositions(n: number, width: number, height: number): Float64Array {
  let w = width;
  let h = height;
  if (w <= 0 && h <= 0) w = h = Math.ceil(n ** (1 / 3));
  else if (w <= 0) w = Math.ceil(Math.sqrt(n / h));
  else if (h <= 0) h = Math.ceil(Math.sqrt(n / w));
  const out = new Float64Array(n * 3);
  let x = 0;
  let y = 0;
  let z = 0;
  for (let i = 0; i < n; i++) {
    out[i * 3] = x++;
    out[i * 3 + 1] = y;
    out[i * 3 + 2] = z;
    if (x === w) {
      x = 0;
      y++;
      if (y === h) {
        y = 0;
        z++;
      }
    }
  }
  return out;
}
