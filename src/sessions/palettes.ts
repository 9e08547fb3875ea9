// Named palettes a collection may be painted with instead of a literal color. A collection is one set, so it takes
// the palette's representative color; the names are those assistants commonly ask for.

export const PALETTES: Readonly<Record<string, string>> = {
  tableau10: "#4e79a7",
  category10: "#1f77b4",
  set1: "#e41a1c",
  set2: "#66c2a5",
  dark2: "#1b9e77",
  paired: "#1f78b4",
  pastel1: "#fbb4ae",
  viridis: "#21918c",
  magma: "#b73779",
  plasma: "#cc4778",
  inferno: "#bc3754",
  cividis: "#7c7b78",
  turbo: "#1ae4b6",
  blues: "#4292c6",
  greens: "#41ab5d",
  reds: "#ef3b2c",
  oranges: "#f16913",
  purples: "#807dba",
  greys: "#737373",
};

export const PALETTE_NAMES = Object.keys(PALETTES);

/** The palette's color, matching names without regard to case, spaces, dashes or underscores. */
export function paletteColor(name: string): string | undefined {
  return PALETTES[name.toLowerCase().replace(/[\s_-]/g, "")];
}

export const HEX_COLOR = /^#(?:[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/;
