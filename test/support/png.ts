import { encodeRgbPng } from "@adrank/images";

/**
 * RGB PNG for test creatives, so the system tests send real decodable images without an
 * image library. Pixels come from a function of (x, y); zlib's default level keeps the bytes
 * (and so the image hashes) the tests have always sent.
 */
export function encodePng(width: number, height: number, pixel: (x: number, y: number) => [number, number, number]): Buffer {
  return encodeRgbPng(width, height, pixel, { level: -1 });
}

export const pngDataUri = (png: Buffer): string => `data:image/png;base64,${png.toString("base64")}`;

/**
 * A creative with a subject: a coloured disc and a bar on a light ground. `variant` changes
 * hues, sizes and positions so every variant scores differently under the sim model.
 */
export function creative(variant: number, width = 96, height = 96): string {
  const hue = (variant * 47) % 360;
  const [br, bg, bb] = hsl(hue, 0.7, 0.9);
  const [dr, dg, db] = hsl((hue + 180) % 360, 0.85, 0.45);
  const [sr, sg, sb] = hsl((hue + 90) % 360, 0.9, 0.3 + (variant % 5) * 0.08);
  const cx = width * (0.3 + ((variant * 13) % 40) / 100);
  const cy = height * 0.4;
  const radius = Math.min(width, height) * (0.12 + ((variant * 7) % 15) / 100);
  return pngDataUri(
    encodePng(width, height, (x, y) => {
      if ((x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2) return [dr, dg, db];
      if (y > height * 0.75 && y < height * 0.88 && x > width * 0.1 && x < width * (0.5 + (variant % 4) * 0.1)) return [sr, sg, sb];
      return [br, bg, bb];
    }),
  );
}

/** One flat colour: an image with no visual content (the copy-only layer with copy_context). */
export function flatColour(rgb: [number, number, number] = [200, 40, 40], size = 64): string {
  return pngDataUri(encodePng(size, size, () => rgb));
}

function hsl(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  return [f(0), f(8), f(4)];
}
