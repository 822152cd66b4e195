/**
 * When the next webhook delivery attempt runs: exponential backoff from `baseMs`, capped at
 * `maxDelayMs`, with up to 10 % jitter so receivers coming back are not hit by every sender at
 * once. Delivery is given up only after `retryForMs` (at least 24 h in production).
 */
export interface WebhookSchedule {
  baseMs: number;
  maxDelayMs: number;
  retryForMs: number;
}

export const PRODUCTION_SCHEDULE: WebhookSchedule = { baseMs: 10_000, maxDelayMs: 3_600_000, retryForMs: 26 * 3_600_000 };

/** Delay before attempt `attempt + 1`, after `attempt` failed ones (1-based); `random` in [0, 1). */
export function retryDelayMs(attempt: number, schedule: WebhookSchedule, random: number): number {
  const exp = schedule.baseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 30);
  const capped = Math.min(exp, schedule.maxDelayMs);
  return Math.round(capped * (1 + 0.1 * random));
}

/** The next attempt's time, or null when the retry period is over and the delivery has failed. */
export function nextAttemptAt(firstAttemptAt: number, failedAt: number, attempt: number, schedule: WebhookSchedule, random: number): number | null {
  const next = failedAt + retryDelayMs(attempt, schedule, random);
  return next > firstAttemptAt + schedule.retryForMs ? null : next;
}
