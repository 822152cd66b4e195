/** The four formats we accept. */
export type ImageFormat = "png" | "jpeg" | "webp" | "gif";

export const FORMAT_NAMES: Readonly<Record<ImageFormat, string>> = {
  png: "PNG",
  jpeg: "JPEG",
  webp: "WebP",
  gif: "GIF",
};

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  if (bytes.length < at + signature.length) return false;
  return signature.every((b, i) => bytes[at + i] === b);
}

function ascii(text: string): number[] {
  return [...text].map((c) => c.charCodeAt(0));
}

/**
 * Names the format by its magic bytes, whatever a header or data URI claims.
 * @example sniffImageFormat(pngBytes) // "png"
 */
export function sniffImageFormat(bytes: Uint8Array): ImageFormat | null {
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return "png";
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return "jpeg";
  if (startsWith(bytes, ascii("GIF87a")) || startsWith(bytes, ascii("GIF89a"))) return "gif";
  if (startsWith(bytes, ascii("RIFF")) && startsWith(bytes, ascii("WEBP"), 8)) return "webp";
  return null;
}

/** Words for bytes we refuse, so the user learns what they actually sent. */
function describeOther(bytes: Uint8Array): string {
  if (bytes.length === 0) return "empty";
  if (startsWith(bytes, ascii("%PDF"))) return "a PDF document";
  if (startsWith(bytes, ascii("BM"))) return "a BMP image, which is not accepted";
  if (startsWith(bytes, [0x49, 0x49, 0x2a, 0x00]) || startsWith(bytes, [0x4d, 0x4d, 0x00, 0x2a])) return "a TIFF image, which is not accepted";
  if (startsWith(bytes, ascii("ftyp"), 4)) return "an HEIC/AVIF or video file, which is not accepted";
  if (startsWith(bytes, [0x00, 0x00, 0x01, 0x00])) return "an icon file, which is not accepted";
  const head = new TextDecoder("utf-8", { fatal: false }).decode(bytes.subarray(0, 512)).trimStart().toLowerCase();
  if (head.startsWith("<svg") || (head.startsWith("<?xml") && head.includes("<svg"))) return "an SVG image, which is not accepted";
  if (head.startsWith("<!doctype html") || head.startsWith("<html")) return "an HTML page";
  if (isMostlyText(bytes.subarray(0, 512))) return "text";
  return "not an image in a known format";
}

function isMostlyText(sample: Uint8Array): boolean {
  let printable = 0;
  for (const b of sample) if (b === 9 || b === 10 || b === 13 || (b >= 32 && b < 127) || b >= 128) printable++;
  return printable / sample.length > 0.95;
}

/** "a JPEG image", "an HTML page", "text", ... for error sentences. */
export function describeBytes(bytes: Uint8Array): string {
  const format = sniffImageFormat(bytes);
  return format ? `a ${FORMAT_NAMES[format]} image` : describeOther(bytes);
}
