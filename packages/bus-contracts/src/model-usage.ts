import { z } from "zod";

/**
 * What one model cost a piece of work: calls made and tokens in and out (reasoning counted as
 * output, as providers bill it). It travels with job results to the gateway, which sums a
 * request's usage and hands it to the ledger with the settlement.
 *
 * `inputTokens` is every prompt token, cached or not, whatever the provider's own usage calls
 * it (Anthropic and Bedrock report cache reads and writes beside `input_tokens`, OpenAI and
 * Gemini inside it). `cachedInputTokens` and `cacheWriteInputTokens` are parts of it: the
 * tokens read from the provider's prompt cache (billed at its discount) and the tokens written
 * to it (billed at a premium by Anthropic and Bedrock). Absent means 0, as from older workers.
 */
export const ModelUsage = z.object({
  /** "provider:model"; a provider's model names carry dots, slashes and colons (Ollama tags). */
  model: z
    .string()
    .min(3)
    .max(200)
    .regex(/^[a-z][a-z0-9-]*:[\x21-\x7e]+$/, 'model must be "provider:model" in printable characters'),
  calls: z.number().int().nonnegative(),
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
  cachedInputTokens: z.number().int().nonnegative().optional(),
  cacheWriteInputTokens: z.number().int().nonnegative().optional(),
});
export type ModelUsage = z.infer<typeof ModelUsage>;

/**
 * Sums usage lists by model, in order of first appearance, so a request's usage lists each
 * model once however many jobs it ran.
 *
 * @example
 * mergeModelUsage([[{ model: "sim:a", calls: 6, inputTokens: 0, outputTokens: 0 }], [{ model: "sim:a", calls: 6, inputTokens: 0, outputTokens: 0 }]]);
 * // [{ model: "sim:a", calls: 12, inputTokens: 0, outputTokens: 0 }]
 */
export function mergeModelUsage(lists: ReadonlyArray<ReadonlyArray<ModelUsage> | undefined>): ModelUsage[] {
  const byModel = new Map<string, ModelUsage>();
  for (const list of lists) {
    for (const u of list ?? []) {
      const seen = byModel.get(u.model);
      if (seen) {
        seen.calls += u.calls;
        seen.inputTokens += u.inputTokens;
        seen.outputTokens += u.outputTokens;
        addCacheCounts(seen, u);
      } else {
        byModel.set(u.model, { ...u });
      }
    }
  }
  return [...byModel.values()];
}

/** Adds the cache counts of `u` to `into`, keeping both absent while neither has any. */
function addCacheCounts(into: ModelUsage, u: ModelUsage): void {
  if (u.cachedInputTokens !== undefined) into.cachedInputTokens = (into.cachedInputTokens ?? 0) + u.cachedInputTokens;
  if (u.cacheWriteInputTokens !== undefined) into.cacheWriteInputTokens = (into.cacheWriteInputTokens ?? 0) + u.cacheWriteInputTokens;
}

export interface CallTokens {
  inputTokens?: number | undefined;
  outputTokens?: number | undefined;
  cachedInputTokens?: number | undefined;
  cacheWriteInputTokens?: number | undefined;
}

/**
 * One model call's usage; a provider that reports no tokens counts as 0 of each. Cache counts
 * are carried only when the provider reported them.
 */
export function callUsage(model: string, tokens: CallTokens | undefined): ModelUsage {
  return {
    model,
    calls: 1,
    inputTokens: tokens?.inputTokens ?? 0,
    outputTokens: tokens?.outputTokens ?? 0,
    ...(tokens?.cachedInputTokens === undefined ? {} : { cachedInputTokens: tokens.cachedInputTokens }),
    ...(tokens?.cacheWriteInputTokens === undefined ? {} : { cacheWriteInputTokens: tokens.cacheWriteInputTokens }),
  };
}
