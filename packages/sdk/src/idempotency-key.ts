import { IDEMPOTENCY_KEY_HEADER, idempotencyKeyProblem } from "@adrank/contracts";
import { ValidationError } from "./errors.ts";

/**
 * The Idempotency-Key one POST call sends on every attempt: the caller's key as given, else a
 * fresh UUID when the call may be retried (so a retry after a lost answer is replayed, not run
 * and billed again), else none. A key the server would refuse, or that fetch could not even
 * send, fails here as the `ValidationError` the server would answer (`status` 0: nothing sent).
 *
 * @example
 * idempotencyKeyFor(undefined, true); // "0b6f…", a new UUID for this call
 * idempotencyKeyFor("order-42", false); // "order-42"
 */
export function idempotencyKeyFor(callerKey: string | undefined, mayRetry: boolean, newKey: () => string = () => crypto.randomUUID()): string | null {
  if (callerKey === undefined) return mayRetry ? newKey() : null;
  const problem = idempotencyKeyProblem(callerKey);
  if (problem) throw new ValidationError(`${IDEMPOTENCY_KEY_HEADER} ${problem}.`, { status: 0, requestId: null, body: null, field: IDEMPOTENCY_KEY_HEADER });
  return callerKey;
}
