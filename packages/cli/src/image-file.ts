import { readFile, stat } from "node:fs/promises";
import { basename } from "node:path";
import { UsageError } from "./usage-error.ts";

/** The server's own limit for one image; checked here so a huge file fails before any upload. */
export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;

/** The image type from the file's first bytes (never from its name): PNG, JPEG, WebP or GIF. */
export function sniffImageType(bytes: Uint8Array): string | null {
  const starts = (...sig: number[]) => sig.every((b, i) => bytes[i] === b);
  if (starts(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return "image/png";
  if (starts(0xff, 0xd8, 0xff)) return "image/jpeg";
  if (starts(0x52, 0x49, 0x46, 0x46) && bytes[8] === 0x57 && bytes[9] === 0x45 && bytes[10] === 0x42 && bytes[11] === 0x50) return "image/webp";
  if (starts(0x47, 0x49, 0x46, 0x38)) return "image/gif";
  return null;
}

export interface ImageFile {
  path: string;
  name: string;
  dataUri: string;
}

/** Reads a local image as a data URI, refusing what the API would refuse with a clear sentence. */
export async function readImageFile(path: string): Promise<ImageFile> {
  const info = await stat(path).catch(() => null);
  if (!info?.isFile()) throw new UsageError(`${path}: no such file`);
  if (info.size > MAX_IMAGE_BYTES) throw new UsageError(`${path}: ${(info.size / 1048576).toFixed(1)} MiB is more than the 10 MiB an image may have`);
  const bytes = await readFile(path);
  const mime = sniffImageType(bytes);
  if (!mime) throw new UsageError(`${path}: not a PNG, JPEG, WebP or GIF image`);
  return { path, name: basename(path), dataUri: `data:${mime};base64,${bytes.toString("base64")}` };
}
