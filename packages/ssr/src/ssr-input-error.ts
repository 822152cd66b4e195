/**
 * Raised when rating inputs have the wrong shape (not 5 levels, not 3 repetitions of 2
 * samples, vectors of different lengths, non-finite numbers). It means a caller or a model
 * adapter broke the contract, never that the creative is bad, so it is not a user error.
 */
export class SsrInputError extends RangeError {
  override name = "SsrInputError";
}

export function isSsrInputError(error: unknown): error is SsrInputError {
  return error instanceof SsrInputError;
}
