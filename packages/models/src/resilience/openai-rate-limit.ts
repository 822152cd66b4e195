import { retryAfterMs, type HeaderReader } from "./retry-after.ts";

/**
 * How long an OpenAI-style 429 asks us to wait.
 *
 * OpenAI sends `retry-after-ms` / `retry-after` on some 429s and always the rate-limit headers
 * `x-ratelimit-{limit,remaining,reset}-{requests,tokens}`, where a reset is a Go-style duration
 * such as "1s", "6m0s" or "120ms" (https://developers.openai.com/api/docs/guides/rate-limits,
 * "Rate limits in headers"). OpenRouter and Azure send `retry-after`.
 */

const UNIT_MS: Record<string, number> = { h: 3_600_000, m: 60_000, s: 1_000, ms: 1, us: 0.001, "µs": 0.001, ns: 0.000001 };
const DURATION = /^(?:\d+(?:\.\d+)?(?:h|ms|m|s|us|µs|ns))+$/;
const PART = /(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g;

/**
 * A reset duration in milliseconds (rounded up), or undefined when it is not one.
 *
 * @example
 * parseResetDuration("6m0s"); // 360000
 * parseResetDuration("1h2m3.5s"); // 3723500
 */
export function parseResetDuration(value: string | null | undefined): number | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  // A bare number is seconds, as some proxies write it.
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  if (!DURATION.test(text)) return undefined;
  let ms = 0;
  for (const [, amount, unit] of text.matchAll(PART)) ms += Number(amount) * UNIT_MS[unit!]!;
  return Math.ceil(ms);
}

/**
 * The wait a 429 asks for: `retry-after-ms` or `retry-after` when present; otherwise the reset
 * of the limit that ran out (remaining 0), or the larger of the two resets when neither says,
 * since a retry before both have reset would meet the same limit.
 */
export function openAIRetryAfterMs(headers: HeaderReader | null | undefined, nowMs: number): number | undefined {
  if (!headers) return undefined;
  const explicit = retryAfterMs(headers, nowMs);
  if (explicit !== undefined) return explicit;
  const requests = parseResetDuration(headers.get("x-ratelimit-reset-requests"));
  const tokens = parseResetDuration(headers.get("x-ratelimit-reset-tokens"));
  const exhausted = (name: string) => headers.get(name)?.trim() === "0";
  const applying = [exhausted("x-ratelimit-remaining-requests") ? requests : undefined, exhausted("x-ratelimit-remaining-tokens") ? tokens : undefined].filter((v) => v !== undefined);
  const candidates = applying.length > 0 ? applying : [requests, tokens].filter((v) => v !== undefined);
  return candidates.length > 0 ? Math.max(...candidates) : undefined;
}
