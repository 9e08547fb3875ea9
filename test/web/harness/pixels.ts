// Test harness for graph.html: counts screenshot pixels that differ from the canvas background.
import { PNG } from "pngjs";

export type Region = { x: number; y: number; width: number; height: number };

/** Pixels in the region whose color is further than `tolerance` (per channel) from the background color. */
export function countDrawnPixels(png: Buffer, background: [number, number, number], region?: Region, tolerance = 12): number {
  const image = PNG.sync.read(png);
  const area = region ?? { x: 0, y: 0, width: image.width, height: image.height };
  let drawn = 0;
  for (let y = area.y; y < Math.min(image.height, area.y + area.height); y++) {
    for (let x = area.x; x < Math.min(image.width, area.x + area.width); x++) {
      const at = (y * image.width + x) * 4;
      const dr = Math.abs((image.data[at] ?? 0) - background[0]);
      const dg = Math.abs((image.data[at + 1] ?? 0) - background[1]);
      const db = Math.abs((image.data[at + 2] ?? 0) - background[2]);
      if (dr > tolerance || dg > tolerance || db > tolerance) drawn++;
    }
  }
  return drawn;
}

/** Pixels whose color differs by more than `tolerance` in some channel between two screenshots of one size. */
export function differingPixels(a: Buffer, b: Buffer, tolerance = 40): number {
  const first = PNG.sync.read(a);
  const second = PNG.sync.read(b);
  if (first.width !== second.width || first.height !== second.height) throw new Error("the screenshots differ in size");
  let differing = 0;
  for (let at = 0; at < first.data.length; at += 4) {
    for (let c = 0; c < 3; c++) {
      if (Math.abs((first.data[at + c] ?? 0) - (second.data[at + c] ?? 0)) > tolerance) {
        differing++;
        break;
      }
    }
  }
  return differing;
}

/** Pixels close to the given color (within `tolerance` in every channel). */
export function pixelsNear(png: Buffer, color: [number, number, number], tolerance = 60): number {
  const image = PNG.sync.read(png);
  let count = 0;
  for (let at = 0; at < image.data.length; at += 4) {
    const near =
      Math.abs((image.data[at] ?? 0) - color[0]) <= tolerance &&
      Math.abs((image.data[at + 1] ?? 0) - color[1]) <= tolerance &&
      Math.abs((image.data[at + 2] ?? 0) - color[2]) <= tolerance;
    if (near) count++;
  }
  return count;
}
