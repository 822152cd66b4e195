/** The spec's preferred copy keys, in the order a reader meets them in an ad. */
const COPY_LABELS: ReadonlyArray<readonly [string, string]> = [
  ["pageName", "Advertiser"],
  ["adHeadline", "Headline"],
  ["adBody", "Body text"],
  ["adCaption", "Caption"],
  ["adDescription", "Description"],
];

/**
 * Normalized ad copy as labelled lines: known keys first in reading order, extra keys after
 * them as given; blank values left out. Null when nothing is left. The result is untrusted
 * text and must be fenced.
 */
export function copyText(copy: Readonly<Record<string, string>> | null | undefined): string | null {
  if (!copy) return null;
  const known = new Set(COPY_LABELS.map(([key]) => key));
  const lines = [
    ...COPY_LABELS.filter(([key]) => Object.hasOwn(copy, key)).map(([key, label]) => [label, copy[key]!] as const),
    ...Object.entries(copy).filter(([key]) => !known.has(key)),
  ]
    .filter(([, value]) => typeof value === "string" && value.trim() !== "")
    .map(([label, value]) => `${label}: ${value.trim()}`);
  return lines.length ? lines.join("\n") : null;
}
