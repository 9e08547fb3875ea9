// igraph's Kamada-Kawai in 3D (igraph_layout_kamada_kawai_3d), ported operation for operation: the vertex with the
// largest gradient takes one Newton-Raphson step (the 3×3 system solved by Cramer's rule), clamped to its bounds.
import type { KkMover, Springs } from "./springs.ts";
import type { Bounds } from "./start.ts";

const KK_EPS = 1e-13;

const det3 = (a: number, b: number, c: number, d: number, e: number, f: number, g: number, h: number, i: number) =>
  a * e * i + b * f * g + c * d * h - (c * e * g + b * d * i + a * f * h);

/**
 * igraph's moves on `pos` (node-major x, y, z; changed in place), one per `move()`, which answers false (and moves
 * nothing) once the largest squared gradient is below `epsilon`.
 */
export function createKamadaKawai3d(s: Springs, pos: Float64Array, bounds: Bounds, epsilon: number): KkMover {
  const { n, d, L, kkconst } = s;
  if (n <= 1) return { move: () => false };
  const D = [new Float64Array(n), new Float64Array(n), new Float64Array(n)] as const;
  const [D1, D2, D3] = D;
  for (let m = 0; m < n; m++) {
    let myD1 = 0;
    let myD2 = 0;
    let myD3 = 0;
    for (let i = 0; i < n; i++) {
      if (i === m) continue;
      const dmi = d[m * n + i] as number;
      const k = kkconst / (dmi * dmi);
      const l = L * dmi;
      const dx = (pos[m * 3] as number) - (pos[i * 3] as number);
      const dy = (pos[m * 3 + 1] as number) - (pos[i * 3 + 1] as number);
      const dz = (pos[m * 3 + 2] as number) - (pos[i * 3 + 2] as number);
      const dist = Math.sqrt(dx * dx + dy * dy + dz * dz);
      myD1 += k * (dx - (l * dx) / dist);
      myD2 += k * (dy - (l * dy) / dist);
      myD3 += k * (dz - (l * dz) / dist);
    }
    D1[m] = myD1;
    D2[m] = myD2;
    D3[m] = myD3;
  }

  const move = (): boolean => {
    let m = 0;
    let maxDelta = -1;
    for (let i = 0; i < n; i++) {
      const delta = (D1[i] as number) * (D1[i] as number) + (D2[i] as number) * (D2[i] as number) + (D3[i] as number) * (D3[i] as number);
      if (delta > maxDelta) {
        m = i;
        maxDelta = delta;
      }
    }
    if (maxDelta < epsilon) return false;
    const oldX = pos[m * 3] as number;
    const oldY = pos[m * 3 + 1] as number;
    const oldZ = pos[m * 3 + 2] as number;
    const row = m * n;

    let Axx = 0;
    let Axy = 0;
    let Axz = 0;
    let Ayy = 0;
    let Ayz = 0;
    let Azz = 0;
    for (let i = 0; i < n; i++) {
      if (i === m) continue;
      const dmi = d[row + i] as number;
      const k = kkconst / (dmi * dmi);
      const l = L * dmi;
      const dx = oldX - (pos[i * 3] as number);
      const dy = oldY - (pos[i * 3 + 1] as number);
      const dz = oldZ - (pos[i * 3 + 2] as number);
      const dist = Math.sqrt(dx * dx + dy * dy + dz * dz);
      const den = dist * (dx * dx + dy * dy + dz * dz);
      Axx += k * (1 - (l * (dy * dy + dz * dz)) / den);
      Ayy += k * (1 - (l * (dx * dx + dz * dz)) / den);
      Azz += k * (1 - (l * (dx * dx + dy * dy)) / den);
      Axy += (k * l * dx * dy) / den;
      Axz += (k * l * dx * dz) / den;
      Ayz += (k * l * dy * dz) / den;
    }
    const Ax = -(D1[m] as number);
    const Ay = -(D2[m] as number);
    const Az = -(D3[m] as number);

    let deltaX = 0;
    let deltaY = 0;
    let deltaZ = 0;
    if (!(Ax * Ax + Ay * Ay + Az * Az < KK_EPS * KK_EPS)) {
      const detnum = det3(Axx, Axy, Axz, Axy, Ayy, Ayz, Axz, Ayz, Azz);
      deltaX = det3(Ax, Ay, Az, Axy, Ayy, Ayz, Axz, Ayz, Azz) / detnum;
      deltaY = det3(Axx, Axy, Axz, Ax, Ay, Az, Axz, Ayz, Azz) / detnum;
      deltaZ = det3(Axx, Axy, Axz, Axy, Ayy, Ayz, Ax, Ay, Az) / detnum;
    }
    const next = [oldX + deltaX, oldY + deltaY, oldZ + deltaZ];
    for (let a = 0; a < 3; a++) {
      const lo = bounds.min[a];
      const hi = bounds.max[a];
      if (lo && (next[a] as number) < (lo[m] as number)) next[a] = lo[m] as number;
      if (hi && (next[a] as number) > (hi[m] as number)) next[a] = hi[m] as number;
    }
    const [newX, newY, newZ] = next as [number, number, number];

    D1[m] = 0;
    D2[m] = 0;
    D3[m] = 0;
    for (let i = 0; i < n; i++) {
      if (i === m) continue;
      const dmi = d[row + i] as number;
      const k = kkconst / (dmi * dmi);
      const l = L * dmi;
      const xi = pos[i * 3] as number;
      const yi = pos[i * 3 + 1] as number;
      const zi = pos[i * 3 + 2] as number;
      const oldDx = oldX - xi;
      const oldDy = oldY - yi;
      const oldDz = oldZ - zi;
      const oldDist = Math.sqrt(oldDx * oldDx + oldDy * oldDy + oldDz * oldDz);
      const newDx = newX - xi;
      const newDy = newY - yi;
      const newDz = newZ - zi;
      const newDist = Math.sqrt(newDx * newDx + newDy * newDy + newDz * newDz);
      D1[i] = (D1[i] as number) - k * (-oldDx + (l * oldDx) / oldDist);
      D2[i] = (D2[i] as number) - k * (-oldDy + (l * oldDy) / oldDist);
      D3[i] = (D3[i] as number) - k * (-oldDz + (l * oldDz) / oldDist);
      D1[i] = (D1[i] as number) + k * (-newDx + (l * newDx) / newDist);
      D2[i] = (D2[i] as number) + k * (-newDy + (l * newDy) / newDist);
      D3[i] = (D3[i] as number) + k * (-newDz + (l * newDz) / newDist);
      D1[m] = (D1[m] as number) + k * (newDx - (l * newDx) / newDist);
      D2[m] = (D2[m] as number) + k * (newDy - (l * newDy) / newDist);
      D3[m] = (D3[m] as number) + k * (newDz - (l * newDz) / newDist);
    }
    pos[m * 3] = newX;
    pos[m * 3 + 1] = newY;
    pos[m * 3 + 2] = newZ;
    return true;
  };
  return { move };
}
