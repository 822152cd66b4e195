import type { Delivery, DeliveryAttempt } from "../api.ts";

/** What the receiver last answered: "HTTP 500", the error ("timed out after 10 s"), or that nothing was tried yet. */
export function lastOutcome(d: Pick<Delivery, "attempts" | "lastStatus" | "lastError">): string {
  if (d.attempts === 0) return "not tried yet";
  if (d.lastStatus !== null) return `HTTP ${d.lastStatus}`;
  return d.lastError ?? "no answer";
}

const took = (ms: number) => (ms < 1_000 ? `${ms} ms` : `${(ms / 1_000).toFixed(1)} s`);

/** One attempt and how long it took: "HTTP 500 in 31 ms" or "connection refused (4 ms)". */
export function attemptOutcome(a: Pick<DeliveryAttempt, "status" | "error" | "durationMs">): string {
  if (a.status !== null) return `HTTP ${a.status} in ${took(a.durationMs)}`;
  return `${a.error ?? "no answer"} (${took(a.durationMs)})`;
}
