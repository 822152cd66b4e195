import type { ModelError } from "./model-error.ts";

/**
 * One sentence a user can read about a failed model call, naming the model's role
 * ("scoring model", "voter model") and provider, and for an unusable answer our reason,
 * never the provider's raw message (it may echo a prompt or a key). A misconfiguration is the
 * operator's to fix: the customer learns only that the service's configuration failed.
 *
 * @example
 * describeModelError(err, "voter model"); // "The voter model (openai) did not answer in time."
 * describeModelError(empty, "scoring model");
 * // "The scoring model (openai) returned an answer that could not be used: no text, the output limit was used up by reasoning (finish reason length)."
 */
export function describeModelError(err: ModelError, role: string): string {
  switch (err.kind) {
    case "timeout":
      return `The ${role} (${err.provider}) did not answer in time.`;
    case "rate_limited":
      return `The ${role} (${err.provider}) is rate limiting us; please retry later.`;
    case "unavailable":
      return `The ${role} (${err.provider}) is unavailable.`;
    case "bad_response":
      return `The ${role} (${err.provider}) returned an answer that could not be used${err.reason ? `: ${err.reason}` : ""}.`;
    case "aborted":
      return "The model call was cancelled.";
    case "misconfigured":
      return `The service's model configuration failed (${role}, ${err.provider}); the operator has been told what to fix.`;
    case "refused":
      return `The ${role} (${err.provider}) refused this image or text${err.reason ? ` (${err.reason})` : ""}.`;
    default: {
      const never: never = err.kind;
      return `The ${role} failed (${String(never)}).`;
    }
  }
}
