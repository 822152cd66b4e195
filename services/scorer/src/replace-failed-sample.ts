import { isModelError, type ModelErrorKind } from "@adrank/models";

/**
 * Only an unusable answer (empty, cut off, unreadable after the adapter's own re-asks) is
 * replaced: another draw may well answer. Timeouts, outages and rate limits have already been
 * retried by the provider's call policy, and a second round of those would only push the
 * evaluation past the request's limit; a refused image, refused credentials or a cancelled
 * request would fail the same way again.
 */
const REPLACEABLE: ReadonlySet<ModelErrorKind> = new Set(["bad_response"]);

/**
 * Runs one generator sample; when its answer is unusable, it is replaced by exactly one more
 * call. The second failure is the one thrown, so the asset's error names the provider's
 * latest reason.
 */
export async function withOneReplacement<T>(sample: () => Promise<T>, signal: AbortSignal, onReplace?: (err: unknown) => void): Promise<T> {
  try {
    return await sample();
  } catch (err) {
    if (signal.aborted || !isModelError(err) || !REPLACEABLE.has(err.kind)) throw err;
    onReplace?.(err);
    return sample();
  }
}
