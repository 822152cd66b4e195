import { readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { firstBytes, sniffImageType } from "./image-file.ts";
import { UsageError } from "./usage-error.ts";

/** A folder's entries that were left out, and why: a note for stderr, not an error. */
export interface SkippedEntries {
  folder: string;
  notImages: string[];
  folders: string[];
}

// ad-2.png before ad-10.png, as a person would list them.
const byName = (a: string, b: string) => a.localeCompare(b, "en", { numeric: true });

/** The images directly in a folder (by content, not name), sorted by name; hidden files are ignored. */
async function imagesInFolder(folder: string): Promise<{ paths: string[]; skipped: SkippedEntries }> {
  const entries = (await readdir(folder, { withFileTypes: true })).filter((e) => !e.name.startsWith(".")).sort((a, b) => byName(a.name, b.name));
  const skipped: SkippedEntries = { folder, notImages: [], folders: [] };
  const paths: string[] = [];
  for (const entry of entries) {
    const path = join(folder, entry.name);
    // Links are followed: stat says what they point at.
    const info = await stat(path).catch(() => null);
    if (info?.isDirectory()) skipped.folders.push(entry.name);
    else if (info?.isFile() && sniffImageType(await firstBytes(path))) paths.push(path);
    else skipped.notImages.push(entry.name);
  }
  return { paths, skipped };
}

/**
 * The image files the arguments name: a file stays as given (it is checked when read), a
 * folder becomes the images directly inside it, sorted by name. A folder without any image is
 * refused. What a folder held besides images is returned, for a note.
 *
 * @example
 * await expandImagePaths(["hero.png", "ads"]); // { paths: ["hero.png", "ads/a.png", "ads/b.jpg"], skipped: [...] }
 */
export async function expandImagePaths(args: string[]): Promise<{ paths: string[]; skipped: SkippedEntries[] }> {
  const paths: string[] = [];
  const skipped: SkippedEntries[] = [];
  for (const arg of args) {
    const info = await stat(arg).catch(() => null);
    if (!info?.isDirectory()) {
      paths.push(arg);
      continue;
    }
    const found = await imagesInFolder(arg);
    if (found.paths.length === 0) throw new UsageError(`${arg}: no PNG, JPEG, WebP or GIF images in this folder`);
    paths.push(...found.paths);
    if (found.skipped.notImages.length + found.skipped.folders.length > 0) skipped.push(found.skipped);
  }
  return { paths, skipped };
}

/** The stderr line for what a folder held besides images: "adrank: ads: skipped notes.txt (not an image) and old/ (folders are not searched)". */
export function skippedNote({ folder, notImages, folders }: SkippedEntries): string {
  const parts = [
    notImages.length > 0 ? `${notImages.join(", ")} (${notImages.length === 1 ? "not an image" : "not images"})` : null,
    folders.length > 0 ? `${folders.map((f) => `${f}/`).join(", ")} (folders are not searched)` : null,
  ].filter((p) => p !== null);
  return `adrank: ${folder}: skipped ${parts.join(" and ")}`;
}
