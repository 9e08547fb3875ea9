// igraph's Kamada-Kawai in 2D (src/layout/kamada_kawai.c), ported operation for operation so positions match
// python-igraph's: each iteration moves the vertex with the largest energy gradient by one Newton-Raphson step
// (eqs. 11-12 of the paper), clamps it to its bounds, and updates every gradient for that move only.
import type { KkMover, Springs } from "./springs.ts";
import type { Bounds } from "./start.ts";

/** Gradients below this are zero (igraph's KK_EPS): a vertex in equilibrium does not move. */
const KK_EPS = 1e-13;

/**
 * igraph's moves on `pos` (node-major x, y; changed in place), one per `move()`, which answers false (and moves
 * nothing) once the largest squared gradient is below `epsilon`.
 */
export function createKamadaKawai2d(s: Springs, pos: Float64Array, bounds: Bounds, epsilon: number): KkMover {
  const { n, d, L, kkconst } = s;
  if (n <= 1) return { move: () => false };
  const [minx, miny] = bounds.min;
  const [maxx, maxy] = bounds.max;
  const D1 = new Float64Array(n);
  const D2 = new Float64Array(n);
  for (let m = 0; m < n; m++) {
    let myD1 = 0;
    let myD2 = 0;
    for (let i = 0; i < n; i++) {
      if (i === m) continue;
      const dmi = d[m * n + i] as number;
      const k = kkconst / (dmi * dmi);
      const l = L * dmi;
      const dx = (pos[m * 2] as number) - (pos[i * 2] as number);
      const dy = (pos[m * 2 + 1] as number) - (pos[i * 2 + 1] as number);
      const dist = Math.sqrt(dx * dx + dy * dy);
      myD1 += k * (dx - (l * dx) / dist);
      myD2 += k * (dy - (l * dy) / dist);
    }
    D1[m] = myD1;
    D2[m] = myD2;
  }

  const move = (): boolean => {
    let m = 0;
    let maxDelta = -1;
    for (let i = 0; i < n; i++) {
      const delta = (D1[i] as number) * (D1[i] as number) + (D2[i] as number) * (D2[i] as number);
      if (delta > maxDelta) {
        m = i;
        maxDelta = delta;
      }
    }
    if (maxDelta < epsilon) return false;
    const oldX = pos[m * 2] as number;
    const oldY = pos[m * 2 + 1] as number;
    const row = m * n;

    let A = 0;
    let B = 0;
    let C = 0;
    for (let i = 0; i < n; i++) {
      if (i === m) continue;
      const dmi = d[row + i] as number;
      const k = kkconst / (dmi * dmi);
      const l = L * dmi;
      const dx = oldX - (pos[i * 2] as number);
      const dy = oldY - (pos[i * 2 + 1] as number);
      const dist = Math.sqrt(dx * dx + dy * dy);
      const den = dist * (dx * dx + dy * dy);
      A += k * (1 - (l * dy * dy) / den);
      B += (k * l * dx * dy) / den;
      C += k * (1 - (l * dx * dx) / den);
    }
    const myD1 = D1[m] as number;
    const myD2 = D2[m] as number;

    // Solve A·δx + B·δy = D1, B·δx + C·δy = D2; a zero gradient stays put (a path in equilibrium has det = 0).
    let deltaX = 0;
    let deltaY = 0;
    if (!(myD1 * myD1 + myD2 * myD2 < KK_EPS * KK_EPS)) {
      const det = C * A - B * B;
      deltaY = (B * myD1 - A * myD2) / det;
      deltaX = (B * myD2 - C * myD1) / det;
    }
    let newX = oldX + deltaX;
    let newY = oldY + deltaY;
    if (minx && newX < (minx[m] as number)) newX = minx[m] as number;
    if (maxx && newX > (maxx[m] as number)) newX = maxx[m] as number;
    if (miny && newY < (miny[m] as number)) newY = miny[m] as number;
    if (maxy && newY > (maxy[m] as number)) newY = maxy[m] as number;

    D1[m] = 0;
    D2[m] = 0;
    for (let i = 0; i < n; i++) {
      if (i === m) continue;
      const dmi = d[row + i] as number;
      const k = kkconst / (dmi * dmi);
      const l = L * dmi;
      const xi = pos[i * 2] as number;
      const yi = pos[i * 2 + 1] as number;
      const oldDx = oldX - xi;
      const oldDy = oldY - yi;
      const oldDist = Math.sqrt(oldDx * oldDx + oldDy * oldDy);
      const newDx = newX - xi;
      const newDy = newY - yi;
      const newDist = Math.sqrt(newDx * newDx + newDy * newDy);
      D1[i] = (D1[i] as number) - k * (-oldDx + (l * oldDx) / oldDist);
      D2[i] = (D2[i] as number) - k * (-oldDy + (l * oldDy) / oldDist);
      D1[i] = (D1[i] as number) + k * (-newDx + (l * newDx) / newDist);
      D2[i] = (D2[i] as number) + k * (-newDy + (l * newDy) / newDist);
      D1[m] = (D1[m] as number) + k * (newDx - (l * newDx) / newDist);
      D2[m] = (D2[m] as number) + k * (newDy - (l * newDy) / newDist);
    }
    pos[m * 2] = newX;
    pos[m * 2 + 1] = newY;
    return true;
  };
  return { move };
}
