import type { Progress, RequestOperation } from "../api.ts";

/** What the history and a request's page call each operation. */
export const OPERATION_TITLES: Record<RequestOperation, string> = { rank: "Rank", rank_audiences: "Rank across audiences", pairwise: "Pairwise" };

/** "8 of 8 assets", "1 of 1 pair": how far a request got, in the unit it is billed by. */
export function progressText(p: Progress): string {
  const unit = p.total === 1 ? p.unit.slice(0, -1) : p.unit;
  return `${p.done} of ${p.total} ${unit}`;
}

/** "850 ms", "12.4 s", "2 min 5 s"; null while the request runs. */
export function durationText(createdAt: string, finishedAt: string | null): string | null {
  if (!finishedAt) return null;
  const ms = Math.max(0, Date.parse(finishedAt) - Date.parse(createdAt));
  if (ms < 1_000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1_000).toFixed(1)} s`;
  const s = Math.round(ms / 1_000);
  return `${Math.floor(s / 60)} min ${s % 60} s`;
}

/** The stored JSON indented for reading; text that is not JSON is shown as it is. */
export function prettyJson(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

/** How a caller fetches the request from the public API, written as the API reference writes its samples. */
export function fetchSamples(requestId: string): Array<{ label: string; source: string }> {
  return [
    { label: "curl", source: `curl "$ADRANK_BASE_URL/api/v1/requests/${requestId}" \\\n  -H "Authorization: Bearer $ADRANK_API_KEY"` },
    { label: "TypeScript SDK", source: `const outcome = await adrank.getRequest("${requestId}");\nif (outcome.status === "succeeded") console.log(outcome.result);` },
    { label: "CLI", source: `adrank get ${requestId} --wait` },
  ];
}
