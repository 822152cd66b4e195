import { AudienceNotFoundError, BodyValidationError, InsufficientCreditsError, MeteringUnavailableError, RateLimitedError, VotersUnavailableError } from "../errors/api-errors.ts";

/** An asynchronous request is given this many attempts (the first and two takeovers) before it is failed. */
export const MAX_ATTEMPTS = 3;

/** An asynchronous request interrupted by gateway restarts more often than MAX_ATTEMPTS allows. */
export class AttemptsExhaustedError extends Error {
  override name = "AttemptsExhaustedError";
  constructor() {
    super(`interrupted ${MAX_ATTEMPTS} times`);
  }
}

/** The refusals whose own sentence tells an asynchronous request's caller what to do. */
const PUBLIC_REFUSALS = [InsufficientCreditsError, RateLimitedError, AudienceNotFoundError, MeteringUnavailableError, VotersUnavailableError, BodyValidationError] as const;

/** What a failed asynchronous request tells its caller (GET and the webhook): a typed refusal's own sentence, else a generic one. */
export function publicReasonOf(err: unknown): string {
  if (PUBLIC_REFUSALS.some((refusal) => err instanceof refusal)) return (err as Error).message;
  if (err instanceof AttemptsExhaustedError) return `The request was interrupted ${MAX_ATTEMPTS} times by gateway restarts and was given up; nothing was charged for work that did not finish. Submit it again.`;
  return "The request failed inside the service; nothing was charged for work that did not finish. Submit it again.";
}
