import type { Rgb } from "@adrank/images";

// The drift watch's five synthetic creatives (examples/drift/*.png, written by
// make-synthetic-set.ts): flat blocks only, so each file stays a few kilobytes, and each
// unlike the others in colours, contrast and layout, so the batch has an order to keep.

/** One synthetic creative: its file name (without .png) and its pixels. */
export interface SyntheticCreative {
  name: string;
  width: number;
  height: number;
  pixel(x: number, y: number): Rgb;
}

const SIDE = 256;

const inBox = (x: number, y: number, left: number, top: number, right: number, bottom: number) => x >= left && x < right && y >= top && y < bottom;
const inDisc = (x: number, y: number, cx: number, cy: number, r: number) => (x - cx) ** 2 + (y - cy) ** 2 <= r * r;

export const SYNTHETIC_CREATIVES: readonly SyntheticCreative[] = [
  {
    // Strong contrast: a yellow product block and a white call-to-action bar on black.
    name: "bold-contrast",
    width: SIDE,
    height: SIDE,
    pixel: (x, y) => (inBox(x, y, 64, 40, 192, 150) ? [250, 204, 21] : inBox(x, y, 48, 186, 208, 218) ? [255, 255, 255] : [12, 12, 14]),
  },
  {
    // Low contrast: a small pale pink disc and a faint bar on beige.
    name: "muted-pastel",
    width: SIDE,
    height: SIDE,
    pixel: (x, y) => (inDisc(x, y, 170, 96, 34) ? [238, 214, 214] : inBox(x, y, 40, 196, 150, 212) ? [222, 218, 206] : [240, 234, 220]),
  },
  {
    // Two halves: deep blue left with a white headline block, orange right with a product square.
    name: "split-layout",
    width: SIDE,
    height: SIDE,
    pixel: (x, y) => {
      if (x < SIDE / 2) return inBox(x, y, 20, 60, 108, 84) || inBox(x, y, 20, 96, 88, 110) ? [255, 255, 255] : [24, 48, 140];
      return inBox(x, y, 150, 70, 234, 154) ? [250, 250, 245] : [244, 120, 32];
    },
  },
  {
    // A three by three grid of teal, white and coral tiles: busy, no single subject. Each row
    // starts one colour on, so no two neighbours share a colour.
    name: "tile-grid",
    width: SIDE,
    height: SIDE,
    pixel: (x, y) => {
      const palette: readonly Rgb[] = [[20, 150, 140], [250, 250, 250], [240, 110, 95]];
      return palette[(Math.floor(x / 86) + Math.floor(y / 86)) % 3]!;
    },
  },
  {
    // Minimal and dark: a small red disc in a corner of charcoal, nothing else.
    name: "dark-minimal",
    width: SIDE,
    height: SIDE,
    pixel: (x, y) => (inDisc(x, y, 206, 206, 20) ? [200, 30, 40] : [44, 46, 50]),
  },
];
