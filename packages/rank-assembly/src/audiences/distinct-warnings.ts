import type { AnswerWarning } from "@adrank/contracts";

/** Each warning once by code and message, in the order first seen: several rankings that say the same thing say it once. */
export function distinctWarnings(warnings: readonly AnswerWarning[]): AnswerWarning[] {
  const seen = new Map<string, AnswerWarning>();
  for (const w of warnings) {
    const key = JSON.stringify([w.code, w.message]);
    if (!seen.has(key)) seen.set(key, w);
  }
  return [...seen.values()];
}
