import type { OutcomeRow } from "./dataset.ts";

/**
 * What makes two outcome rows the same creative: the same image (the same file, or the same
 * URL) with the same copy. Row ids are no help here: a dataset with one row per (image,
 * audience) gives each audience's row an id of its own.
 */
export function creativeKeyOf(row: Pick<OutcomeRow, "source" | "copy">): string {
  const image = row.source.kind === "file" ? ["file", row.source.path] : ["url", row.source.url];
  // Key order is how the file happened to write the copy, not part of it.
  const copy = row.copy === null ? null : Object.entries(row.copy).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify([image, copy]);
}
