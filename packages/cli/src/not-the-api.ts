import { AdRankError, UnexpectedResponseError } from "@adrank/sdk";

// Every answer of the adrank API carries X-Request-Id (header, or body for a 5xx through a proxy).
const looksLikeHtml = (body: unknown) => typeof body === "string" && /^\s*<(!doctype|html)/i.test(body);

/**
 * A hint for when ADRANK_BASE_URL points at something that is not the adrank API (most often
 * the account console): it answered, but without the request id the API puts on every answer,
 * with a 404 or an HTML page. Null when the answer looks like the API's, or no answer came.
 * Based on the answer, not the port: the console may run anywhere.
 */
export function notTheApiHint(err: unknown, baseUrl: string): string | null {
  if (!(err instanceof AdRankError) || err.status === 0 || err.requestId !== null) return null;
  const html = looksLikeHtml(err.body);
  // A 5xx without an id is most likely a proxy in front of the API, not another service.
  if (!html && err.status >= 500) return null;
  if (!html && err.status !== 404 && !(err instanceof UnexpectedResponseError)) return null;
  const what = html ? "it answered with an HTML page" : "no X-Request-Id in its answer";
  return `${baseUrl} does not look like the adrank API (${what}); the API is usually on port 8080 — the console is on 8090`;
}
