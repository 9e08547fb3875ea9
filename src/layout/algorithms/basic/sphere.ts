// igraph's layout_sphere (python-igraph's layout_circle(dim=3)): vertices spread over the unit sphere along a
// spiral from the south pole (vertex 0) to the north pole (vertex n-1), after Saff and Kuijlaars (1997).

export function spherePositions(n: number): Float64Array {
  // Polar angle theta and azimuth phi per vertex first, as igraph computes them, then Cartesian coordinates.
  const theta = new Float64Array(n);
  const phi = new Float64Array(n);
  if (n !== 0) {
    theta[0] = Math.PI;
    phi[0] = 0;
  }
  for (let i = 1; i < n - 1; i++) {
    const h = -1 + (2 * i) / (n - 1);
    theta[i] = Math.acos(h);
    phi[i] = ((phi[i - 1] as number) + 3.6 / Math.sqrt(n * (1 - h * h))) % (2 * Math.PI);
  }
  if (n >= 2) {
    theta[n - 1] = 0;
    phi[n - 1] = 0;
  }
  const out = new Float64Array(n * 3);
  for (let i = 0; i < n; i++) {
    const t = theta[i] as number;
    const p = phi[i] as number;
    out[i * 3] = Math.cos(p) * Math.sin(t);
    out[i * 3 + 1] = Math.sin(p) * Math.sin(t);
    out[i * 3 + 2] = Math.cos(t);
  }
  return out;
}
