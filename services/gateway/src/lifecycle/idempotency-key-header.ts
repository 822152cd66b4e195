import type { IncomingHttpHeaders } from "node:http";
import { IDEMPOTENCY_KEY_HEADER, idempotencyKeyProblem } from "@adrank/contracts";
import { BodyValidationError } from "../errors/api-errors.ts";

/** The request's Idempotency-Key, or null without one; a malformed one is a 422 naming the header. */
export function idempotencyKeyOf(headers: IncomingHttpHeaders): string | null {
  const raw = headers[IDEMPOTENCY_KEY_HEADER.toLowerCase()];
  if (raw === undefined) return null;
  if (Array.isArray(raw)) throw new BodyValidationError(`${IDEMPOTENCY_KEY_HEADER} was sent ${raw.length} times; send it once.`, IDEMPOTENCY_KEY_HEADER);
  const problem = idempotencyKeyProblem(raw);
  if (problem) throw new BodyValidationError(`${IDEMPOTENCY_KEY_HEADER} ${problem}.`, IDEMPOTENCY_KEY_HEADER);
  return raw;
}
