import { createHash } from "node:crypto";
import sharp from "sharp";
import type { Metadata, OutputInfo } from "sharp";
import { FORMAT_NAMES, type ImageFormat } from "./image-format.ts";
import { intakeFailure, type IntakeFailure } from "./intake-refusal.ts";
import { channelStdDevs, hasVisualContent } from "./visual-content.ts";

/** An image ready for the models, stored and passed around by `ref`. */
export interface PreparedImage {
  /** sha256 hex of `bytes`. */
  ref: string;
  bytes: Uint8Array;
  mime: "image/jpeg";
  width: number;
  height: number;
  source: { format: ImageFormat; width: number; height: number; byteLength: number };
  /** False for a uniform colour or an image of at most 8 x 8 px: the `copy-only` layer. */
  hasVisualContent: boolean;
}

export const MODEL_MAX_SIDE = 1024;
export const JPEG_QUALITY = 85;

function megapixels(n: number): string {
  const mp = n / 1_000_000;
  return Number.isInteger(mp) ? String(mp) : mp.toFixed(1);
}

type Header = { ok: true; width: number; height: number } | IntakeFailure;

/** Reads only the header: a decompression bomb is refused here, before any pixel is decoded. */
async function readHeader(bytes: Buffer, format: ImageFormat, maxInputPixels: number): Promise<Header> {
  let meta: Metadata;
  try {
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    return intakeFailure("undecodable", `the ${FORMAT_NAMES[format]} image is corrupt: its header could not be read`);
  }
  if (meta.format !== format) {
    return intakeFailure("undecodable", `the ${FORMAT_NAMES[format]} image is corrupt: its header could not be read`);
  }
  // For animated images this is one frame; only the first is decoded.
  const { width, height } = meta.autoOrient;
  if (width * height > maxInputPixels) {
    return intakeFailure(
      "too-many-pixels",
      `the image is ${width} x ${height} pixels (${megapixels(width * height)} megapixels), over the ${megapixels(maxInputPixels)} megapixel limit`,
    );
  }
  return { ok: true, width, height };
}

/**
 * Decodes source bytes (already sniffed as `format`) and normalizes them once for the models:
 * EXIF orientation applied, first frame only, alpha flattened onto white, fit inside
 * 1024 x 1024 without enlarging, sRGB JPEG at quality 85 with no metadata.
 *
 * @example const prepared = await prepareImage(pngBytes, "png", 40_000_000);
 */
export async function prepareImage(bytes: Buffer, format: ImageFormat, maxInputPixels: number): Promise<{ ok: true; image: PreparedImage } | IntakeFailure> {
  const header = await readHeader(bytes, format, maxInputPixels);
  if (!header.ok) return header;

  let pixels: { data: Buffer; info: OutputInfo };
  try {
    pixels = await sharp(bytes, { limitInputPixels: maxInputPixels, failOn: "warning", pages: 1 })
      .autoOrient()
      .resize({ width: MODEL_MAX_SIDE, height: MODEL_MAX_SIDE, fit: "inside", withoutEnlargement: true })
      .flatten({ background: "#ffffff" })
      .toColourspace("srgb")
      .raw({ depth: "uchar" })
      .toBuffer({ resolveWithObject: true });
  } catch {
    return intakeFailure("undecodable", `the ${FORMAT_NAMES[format]} image is truncated or corrupt and could not be decoded`);
  }

  const { width, height, channels } = pixels.info;
  const jpeg = await sharp(pixels.data, { raw: { width, height, channels } }).jpeg({ quality: JPEG_QUALITY }).toBuffer();
  return {
    ok: true,
    image: {
      ref: createHash("sha256").update(jpeg).digest("hex"),
      bytes: new Uint8Array(jpeg.buffer, jpeg.byteOffset, jpeg.byteLength),
      mime: "image/jpeg",
      width,
      height,
      source: { format, width: header.width, height: header.height, byteLength: bytes.byteLength },
      hasVisualContent: hasVisualContent(header, channelStdDevs(pixels.data, channels)),
    },
  };
}
