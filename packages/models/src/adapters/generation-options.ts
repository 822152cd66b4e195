/** Answer budget when none is configured: enough for a persona answer plus two labelled lines. */
export const DEFAULT_MAX_OUTPUT_TOKENS = 1024;

/** Further attempts after an empty or cut-off answer when none is configured. */
export const DEFAULT_ANSWER_RETRIES = 2;

/** How every generator adapter answers, whatever its provider: budget, sampling and re-asking. */
export interface GenerationOptions {
  /** Tokens for the answer alone; a provider's reasoning or thinking budget is added on top, so reasoning never eats it. Default 1024. */
  maxOutputTokens?: number;
  /** Sent on every call unless a request overrides it; absent: none is sent and the provider's default applies. */
  temperature?: number;
  /** Further attempts after an empty or cut-off answer (a refusal is never asked again). Default 2. */
  answerRetries?: number;
}
