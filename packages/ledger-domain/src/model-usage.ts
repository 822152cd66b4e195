import type { ModelUsage } from "./events.ts";

const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;

/**
 * The model usage a settle records: entries of one model summed into one (in order of first
 * appearance), entries of all zeros dropped. A string says why the list is malformed. A list
 * that merely repeats a model is not refused: the settlement charges credits, and refusing it
 * over bookkeeping would let the reservation expire uncharged.
 *
 * @example
 * normalizeModelUsage([{ model: "sim:a", calls: 1, inputTokens: 5, outputTokens: 1 }, { model: "sim:a", calls: 1, inputTokens: 5, outputTokens: 2 }]);
 * // [{ model: "sim:a", calls: 2, inputTokens: 10, outputTokens: 3 }]
 */
export function normalizeModelUsage(list: unknown): ModelUsage[] | string {
  if (!Array.isArray(list)) return "modelUsage must be a list";
  const byModel = new Map<string, ModelUsage>();
  for (const u of list as unknown[]) {
    const e = (u ?? {}) as Partial<Record<keyof ModelUsage, unknown>>;
    if (typeof e.model !== "string" || e.model.length === 0) return "modelUsage[].model must be a non-empty string";
    if (!isCount(e.calls) || !isCount(e.inputTokens) || !isCount(e.outputTokens)) return "modelUsage[].calls, inputTokens and outputTokens must be integers >= 0";
    if (e.calls === 0 && e.inputTokens === 0 && e.outputTokens === 0) continue;
    const seen = byModel.get(e.model);
    const next = seen
      ? { model: e.model, calls: seen.calls + e.calls, inputTokens: seen.inputTokens + e.inputTokens, outputTokens: seen.outputTokens + e.outputTokens }
      : { model: e.model, calls: e.calls, inputTokens: e.inputTokens, outputTokens: e.outputTokens };
    if (!isCount(next.calls) || !isCount(next.inputTokens) || !isCount(next.outputTokens)) return `modelUsage of ${e.model} sums beyond a safe integer`;
    byModel.set(e.model, next);
  }
  return [...byModel.values()];
}
