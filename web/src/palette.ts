// The page's colors: a categorical palette, a continuous ramp, and literal #rrggbb parsing, all as 0..1 RGB.

export type Rgb = readonly [number, number, number];

/** Tableau 10 with two extras: distinct on a dark background and kind to common color blindness. */
export const CATEGORICAL: readonly string[] = [
  "#4e79a7",
  "#f28e2b",
  "#e15759",
  "#76b7b2",
  "#59a14f",
  "#edc948",
  "#b07aa1",
  "#ff9da7",
  "#9c755f",
  "#bab0ac",
  "#86bcb6",
  "#d4a6c8",
];

/** Viridis, lifted at the dark end so low values stay visible on the dark canvas. */
export const RAMP: readonly string[] = ["#482878", "#3e4989", "#31688e", "#26828e", "#1f9e89", "#35b779", "#6ece58", "#b5de2b", "#fde725"];

export const MISSING = "#5b6270";
export const DEFAULT_NODE = "#8fa3bf";
export const DEFAULT_EDGE = "#4b5565";

const HEX = /^#?([0-9a-f]{3}|[0-9a-f]{6})$/i;

export function parseHex(value: string): Rgb | undefined {
  const match = HEX.exec(value.trim());
  if (!match?.[1]) return undefined;
  const digits = match[1].length === 3 ? [...match[1]].map((d) => d + d).join("") : match[1];
  const n = Number.parseInt(digits, 16);
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}

export function isHexColor(value: string): boolean {
  return HEX.test(value.trim()) && value.trim().startsWith("#");
}

const rampRgb = RAMP.map((c) => parseHex(c) ?? [0, 0, 0]);

/** The ramp's color at t in [0, 1], written into out at offset. */
export function rampInto(t: number, out: Float32Array, offset: number): void {
  const x = Math.min(1, Math.max(0, Number.isFinite(t) ? t : 0)) * (rampRgb.length - 1);
  const i = Math.min(rampRgb.length - 2, Math.floor(x));
  const f = x - i;
  const a = rampRgb[i] ?? [0, 0, 0];
  const b = rampRgb[i + 1] ?? a;
  out[offset] = a[0] + (b[0] - a[0]) * f;
  out[offset + 1] = a[1] + (b[1] - a[1]) * f;
  out[offset + 2] = a[2] + (b[2] - a[2]) * f;
}

export function rampCss(): string {
  return `linear-gradient(to right, ${RAMP.join(", ")})`;
}

export function categoricalRgb(index: number): Rgb {
  return parseHex(CATEGORICAL[index % CATEGORICAL.length] ?? MISSING) ?? [0.5, 0.5, 0.5];
}
