import { readFile, stat } from "node:fs/promises";
import { ImageError } from "./image-error.ts";

/** The server's limit for one image (its decoded bytes); checked here so a huge file fails before any upload. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** The image types the API decodes. */
export type ImageMimeType = "image/png" | "image/jpeg" | "image/webp" | "image/gif";

/** The image type from the first bytes (never from a file name): PNG, JPEG, WebP or GIF, else null. */
export function sniffImageType(bytes: Uint8Array): ImageMimeType | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return "image/webp";
  if (starts(0x47, 0x49, 0x46, 0x38)) return "image/gif";
  return null;
}

// Rounded up: a file one byte over the limit must not read as "10.0 MiB, more than 10 MiB".
const mib = (bytes: number) => `${(Math.ceil((bytes / 1048576) * 10) / 10).toFixed(1)} MiB`;
const LIMIT = `the ${MAX_IMAGE_BYTES / 1048576} MiB the API accepts for one image`;

function toDataUri(bytes: Uint8Array, path: string | null): string {
  const what = path === null ? "The image" : `The image file ${path}`;
  if (bytes.byteLength > MAX_IMAGE_BYTES) throw new ImageError(`${what} is ${mib(bytes.byteLength)}, more than ${LIMIT}.`, { kind: "too-large", path, size: bytes.byteLength });
  const mime = sniffImageType(bytes);
  if (!mime) throw new ImageError(`${what} is not a PNG, JPEG, WebP or GIF image.`, { kind: "not-an-image", path, size: bytes.byteLength });
  return `data:${mime};base64,${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64")}`;
}

/**
 * Image bytes as a `data:image/…;base64,` URI for an asset's `url`; the type comes from the
 * bytes. Throws an `ImageError` for bytes that are no PNG, JPEG, WebP or GIF, or over 10 MiB.
 *
 * @example
 * const url = imageBytesToDataUri(await response.bytes());
 */
export function imageBytesToDataUri(bytes: Uint8Array): string {
  return toDataUri(bytes, null);
}

/**
 * Reads a local image file as a data URI. Throws an `ImageError` naming the file when it
 * cannot be read, is over 10 MiB (checked before reading it) or is not an image.
 *
 * @example
 * await adrank.rank({ assets: [{ url: await imageFileToDataUri("hero.png"), id: "hero" }], audience: { name: "Runners" } });
 */
export async function imageFileToDataUri(path: string): Promise<string> {
  const info = await stat(path).catch((err: unknown) => {
    throw unreadable(path, err);
  });
  if (!info.isFile()) throw new ImageError(`The image file ${path} is not a file.`, { kind: "unreadable", path });
  if (info.size > MAX_IMAGE_BYTES) throw new ImageError(`The image file ${path} is ${mib(info.size)}, more than ${LIMIT}.`, { kind: "too-large", path, size: info.size });
  const bytes = await readFile(path).catch((err: unknown) => {
    throw unreadable(path, err);
  });
  return toDataUri(bytes, path);
}

function unreadable(path: string, err: unknown): ImageError {
  const code = (err as { code?: unknown } | null)?.code;
  const reason = code === "ENOENT" ? "does not exist" : `cannot be read (${typeof code === "string" ? code : String(err)})`;
  return new ImageError(`The image file ${path} ${reason}.`, { kind: "unreadable", path }, { cause: err });
}
