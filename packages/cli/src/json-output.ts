import { summarizeDataUri } from "./data-uri-summary.ts";

/** The value with every data-URI string inside it (at any depth) summarized; all else unchanged. */
export function withDataUrisSummarized(value: unknown): unknown {
  if (typeof value === "string") return summarizeDataUri(value);
  if (Array.isArray(value)) return value.map(withDataUrisSummarized);
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withDataUrisSummarized(v)]));
  return value;
}

/**
 * What --json prints: the API's response as it came, except that the images it echoes as data
 * URIs (`asset_url`) shrink to `data:image/png;base64,… (34 KiB)`; their file names are in
 * `asset_id` already, and a terminal or a log should not fill with base64.
 */
export const jsonOutput = (data: unknown): string => `${JSON.stringify(withDataUrisSummarized(data), null, 2)}\n`;
