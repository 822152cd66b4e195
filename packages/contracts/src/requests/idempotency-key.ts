/** The header that makes a POST safe to retry (RFC draft "The Idempotency-Key HTTP Header Field"). */
export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";
export const IDEMPOTENCY_KEY_MAX_CHARS = 255;
/** How long a key is remembered: a repeat after this runs as a new request. */
export const IDEMPOTENCY_KEY_TTL_HOURS = 24;
/** How long a finished request's result can be fetched again, at least. */
export const REQUEST_RETENTION_DAYS = 30;

/** Visible ASCII only (0x21–0x7E), 1 to 255 characters: what every HTTP stack carries unchanged. */
export function idempotencyKeyProblem(value: string): string | null {
  if (value.length === 0) return "must not be empty";
  if (value.length > IDEMPOTENCY_KEY_MAX_CHARS) return `must be at most ${IDEMPOTENCY_KEY_MAX_CHARS} characters long`;
  if (!/^[\x21-\x7e]+$/.test(value)) return "must be visible ASCII characters only (no spaces or control characters); a UUID is a good choice";
  return null;
}
