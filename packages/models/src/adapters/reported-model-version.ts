/**
 * Longest model version we keep. Real ones are short ids ("gpt-4o-2024-08-06",
 * "claude-sonnet-4-5-20250929", "gemini-2.5-flash"); anything longer is not a model name.
 */
export const MODEL_VERSION_MAX_LENGTH = 200;

// Control and invisible format characters (bidi overrides, zero-width): none belongs in a model
// id, and in a receipt they could hide or reorder what is shown.
const UNPRINTABLE = /[\p{Cc}\p{Cf}]/gu;

/**
 * The model version a provider's reply names, fit to go on a receipt: control characters
 * removed, surrounding space trimmed; undefined when nothing is left, when the value is not a
 * string, or when it is longer than MODEL_VERSION_MAX_LENGTH. A too-long value is dropped, not
 * cut: a shortened id would name a model that never answered.
 *
 * @example
 * reportedModelVersion("gpt-4o-2024-08-06"); // "gpt-4o-2024-08-06"
 * reportedModelVersion("x".repeat(10_000)); // undefined
 */
export function reportedModelVersion(value: unknown): string | undefined {
  if (typeof value !== "string") return undefined;
  const cleaned = value.replace(UNPRINTABLE, "").trim();
  return cleaned.length > 0 && cleaned.length <= MODEL_VERSION_MAX_LENGTH ? cleaned : undefined;
}

/**
 * `{ modelVersion }` when the reply names a usable version, else `{}`: to spread into an
 * AnswerAttempt, so an absent version leaves no key behind.
 */
export function modelVersionField(value: unknown): { modelVersion?: string } {
  const version = reportedModelVersion(value);
  return version === undefined ? {} : { modelVersion: version };
}
