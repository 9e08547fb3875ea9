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
