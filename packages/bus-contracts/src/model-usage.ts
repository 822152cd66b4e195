import { z } from "zod";

/**
 * What one model cost a piece of work: calls made and tokens in and out (reasoning counted as
 * output, as providers bill it). It travels with job results to the gateway, which sums a
 * request's usage and hands it to the ledger with the settlement.
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
      } else {
        byModel.set(u.model, { ...u });
      }
    }
  }
  return [...byModel.values()];
}

/** One model call's usage; a provider that reports no tokens counts as 0 of each. */
export function callUsage(model: string, tokens: { inputTokens?: number | undefined; outputTokens?: number | undefined } | undefined): ModelUsage {
  return { model, calls: 1, inputTokens: tokens?.inputTokens ?? 0, outputTokens: tokens?.outputTokens ?? 0 };
}
