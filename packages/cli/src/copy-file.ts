import { readFile } from "node:fs/promises";
import { UsageError } from "./usage-error.ts";

export type Copy = Record<string, string>;

const isCopy = (v: unknown): v is Copy => typeof v === "object" && v !== null && !Array.isArray(v) && Object.values(v).every((x) => typeof x === "string");

/**
 * The copy of each image from a --copy file. Either one copy object for every image
 * (`{"headline": "…", "body": "…"}`) or an object keyed by image file name
 * (`{"a.png": {"headline": "…"}}`); images the map does not name run without copy.
 */
export function copyForImages(parsed: unknown, names: string[]): Array<Copy | null> {
  if (isCopy(parsed)) return names.map(() => parsed);
  if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) && Object.values(parsed).every(isCopy)) {
    const byName = parsed as Record<string, Copy>;
    const unknown = Object.keys(byName).filter((k) => !names.includes(k));
    if (unknown.length > 0) throw new UsageError(`--copy names ${unknown.join(", ")}, which ${unknown.length === 1 ? "is" : "are"} not among the images`);
    return names.map((n) => byName[n] ?? null);
  }
  throw new UsageError("--copy must hold one copy object of strings, or an object of them keyed by image file name");
}

export async function readCopyFile(path: string, names: string[]): Promise<Array<Copy | null>> {
  const text = await readFile(path, "utf8").catch(() => {
    throw new UsageError(`--copy ${path}: no such file`);
  });
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`--copy ${path}: not valid JSON`);
  }
  return copyForImages(parsed, names);
}
