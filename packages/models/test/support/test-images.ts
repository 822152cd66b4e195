import sharp from "sharp";

/**
 * Test creatives drawn with sharp, so the sim is exercised on real decoded pixels. Sizes are
 * small to keep the suite quick; the sim scales everything to 256 px anyway.
 */
function compositionSvg(width: number, height: number, variant = 0): string {
  const u = Math.min(width, height);
  const hue = (variant * 67) % 360;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <rect width="100%" height="100%" fill="hsl(${hue}, 85%, 92%)"/>
  <circle cx="${width * 0.32}" cy="${height * 0.42}" r="${u * 0.22}" fill="hsl(${(hue + 350) % 360}, 90%, 48%)"/>
  <rect x="${width * 0.55}" y="${height * 0.2}" width="${u * 0.3}" height="${u * 0.42}" rx="${u * 0.03}" fill="hsl(${(hue + 210) % 360}, 85%, 40%)"/>
  <rect x="${width * 0.1}" y="${height * 0.74}" width="${width * 0.8}" height="${u * 0.12}" rx="${u * 0.06}" fill="hsl(${(hue + 45) % 360}, 95%, 52%)"/>
  <rect x="${width * 0.3}" y="${height * 0.77}" width="${width * 0.4}" height="${u * 0.05}" fill="#111"/>
</svg>`;
}

/** A crisp, colourful, high-contrast, uncluttered composition. */
export async function crispCreative(width = 480, height = 480, variant = 0): Promise<Uint8Array> {
  return new Uint8Array(await sharp(Buffer.from(compositionSvg(width, height, variant))).png().toBuffer());
}

/** One flat mid-grey field. */
export async function flatGrey(width = 480, height = 480): Promise<Uint8Array> {
  return new Uint8Array(await sharp({ create: { width, height, channels: 3, background: { r: 128, g: 128, b: 128 } } }).png().toBuffer());
}

/** The crisp composition, darkened and heavily blurred. */
export async function darkBlurred(width = 480, height = 480): Promise<Uint8Array> {
  const crisp = Buffer.from(compositionSvg(width, height));
  return new Uint8Array(await sharp(crisp).blur(12).modulate({ brightness: 0.22 }).jpeg({ quality: 85 }).toBuffer());
}

/** Colour noise from a seeded generator: busy, with no subject. */
export async function noisy(width = 480, height = 480, seed = 7): Promise<Uint8Array> {
  const data = Buffer.alloc(width * height * 3);
  let s = seed >>> 0;
  for (let i = 0; i < data.length; i++) {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    data[i] = s >>> 24;
  }
  return new Uint8Array(await sharp(data, { raw: { width, height, channels: 3 } }).png().toBuffer());
}

/** The crisp composition made worse in one way, to check that each flaw costs something. */
export async function degradedCreative(flaw: "soft" | "muted" | "dim" | "flat"): Promise<Uint8Array> {
  const image = sharp(Buffer.from(compositionSvg(480, 480)));
  const worse = {
    soft: () => image.blur(2.5),
    muted: () => image.modulate({ saturation: 0.2 }),
    dim: () => image.modulate({ brightness: 0.45 }),
    flat: () => image.linear(0.35, 90),
  }[flaw]();
  return new Uint8Array(await worse.png().toBuffer());
}
