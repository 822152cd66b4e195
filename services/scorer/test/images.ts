import sharp from "sharp";

/** A crisp, colourful, well-exposed composition: what a good creative looks like to sim. */
export async function crispCreative(width = 800, height = 800): Promise<Uint8Array> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
    <rect width="100%" height="100%" fill="#f4f1ea"/>
    <circle cx="${width * 0.35}" cy="${height * 0.45}" r="${width * 0.22}" fill="#e63946"/>
    <rect x="${width * 0.55}" y="${height * 0.3}" width="${width * 0.3}" height="${height * 0.35}" fill="#1d3557"/>
    <rect x="${width * 0.1}" y="${height * 0.8}" width="${width * 0.8}" height="${height * 0.08}" fill="#2a9d8f"/>
  </svg>`;
  return new Uint8Array(await sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer());
}

export async function flatGrey(width = 800, height = 800): Promise<Uint8Array> {
  return new Uint8Array(await sharp({ create: { width, height, channels: 3, background: { r: 128, g: 128, b: 128 } } }).jpeg().toBuffer());
}

export async function darkBlurred(width = 800, height = 800): Promise<Uint8Array> {
  const crisp = await crispCreative(width, height);
  return new Uint8Array(await sharp(crisp).modulate({ brightness: 0.25 }).blur(12).jpeg().toBuffer());
}

/** The crisp design softened and desaturated: a middling creative whose score copy can move. */
export async function softCreative(width = 800, height = 800): Promise<Uint8Array> {
  const crisp = await crispCreative(width, height);
  return new Uint8Array(await sharp(crisp).blur(4).modulate({ brightness: 0.7, saturation: 0.5 }).jpeg().toBuffer());
}
