import { stat } from "node:fs/promises";
import { isAbsolute, resolve } from "node:path";
import { LIMITS } from "@adrank/sdk";
import { firstBytes, MAX_IMAGE_BYTES, sniffImageType } from "../image-file.ts";

/** Where a dataset row's image is: a local file (sent as a data URI) or an https URL (fetched by the API). */
export type ImageSource = { kind: "file"; path: string /* absolute */ } | { kind: "url"; url: string };

// "c:\ads\a.png" is a Windows path, not a URL with the scheme "c": a scheme needs two letters.
const SCHEME = /^([a-z][a-z0-9+.-]+):/i;

/**
 * What a dataset's image cell points at, checked now so a typo fails before the first credit is
 * spent: an https URL as written, or a file (relative to the dataset's folder) that exists and
 * is a PNG, JPEG, WebP or GIF of at most 10 MiB. Returns a sentence saying what to fix instead
 * when it is none of these; the caller adds the file and line.
 */
export async function resolveImageSource(cell: string, datasetFolder: string): Promise<ImageSource | string> {
  const scheme = SCHEME.exec(cell)?.[1]?.toLowerCase();
  if (scheme === "https") {
    if (cell.length > LIMITS.httpsUrlMaxChars) return `the URL is longer than the ${LIMITS.httpsUrlMaxChars} characters the API accepts`;
    if (!URL.canParse(cell)) return `"${cell}" is not a valid URL`;
    return { kind: "url", url: cell };
  }
  if (scheme === "http") return `"${cell}" is an http:// URL; the API fetches only https:// URLs (or give a local file)`;
  if (scheme !== undefined) return `"${cell}" is a ${scheme}: URL; give an https:// URL or a file path`;

  const path = isAbsolute(cell) ? cell : resolve(datasetFolder, cell);
  const info = await stat(path).catch(() => null);
  if (info === null) return `no such image file "${cell}" (looked for ${path})`;
  if (!info.isFile()) return `"${cell}" is not a file`;
  if (info.size > MAX_IMAGE_BYTES) return `"${cell}" is more than the ${MAX_IMAGE_BYTES / 1048576} MiB the API accepts for one image`;
  const bytes = await firstBytes(path).catch(() => null);
  if (bytes === null) return `cannot read "${cell}"`;
  if (sniffImageType(bytes) === null) return `"${cell}" is not a PNG, JPEG, WebP or GIF image`;
  return { kind: "file", path };
}
