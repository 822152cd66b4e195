import type { ModelUsage } from "./events.ts";

const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isOptionalCount = (v: unknown): v is number | undefined => v === undefined || isCount(v);

type Entry = Partial<Record<keyof ModelUsage, unknown>>;

/**
 * The model usage a settle records: entries of one model summed into one (in order of first
 * appearance), entries of all zeros dropped. A string says why the list is malformed. A list
 * that merely repeats a model is not refused: the settlement charges credits, and refusing it
 * over bookkeeping would let the reservation expire uncharged.
 *
 * Cache counts (`cachedInputTokens`, `cacheWriteInputTokens`) are parts of `inputTokens`: they
 * are summed like the others and stay absent while no entry of the model reports them. For the
 * same reason as above, an entry whose cache counts add up to more than its `inputTokens` (a
 * provider adapter's mistake, not the caller's) is not refused: both its cache counts are
 * dropped, so its input counts as uncached. Dropping rather than clamping keeps every recorded
 * figure one the provider reported, and errs towards a higher spend (uncached input is priced
 * at the full rate), never a lower one.
 *
 * @example
 * normalizeModelUsage([{ model: "sim:a", calls: 1, inputTokens: 5, outputTokens: 1 }, { model: "sim:a", calls: 1, inputTokens: 5, outputTokens: 2, cachedInputTokens: 4 }]);
 * // [{ model: "sim:a", calls: 2, inputTokens: 10, outputTokens: 3, cachedInputTokens: 4 }]
 */
export function normalizeModelUsage(list: unknown): ModelUsage[] | string {
  if (!Array.isArray(list)) return "modelUsage must be a list";
  const byModel = new Map<string, ModelUsage>();
  for (const u of list as unknown[]) {
    const e = (u ?? {}) as Entry;
    if (typeof e.model !== "string" || e.model.length === 0) return "modelUsage[].model must be a non-empty string";
    if (!isCount(e.calls) || !isCount(e.inputTokens) || !isCount(e.outputTokens)) return "modelUsage[].calls, inputTokens and outputTokens must be integers >= 0";
    if (!isOptionalCount(e.cachedInputTokens) || !isOptionalCount(e.cacheWriteInputTokens)) return "modelUsage[].cachedInputTokens and cacheWriteInputTokens must be absent or integers >= 0";
    if (e.calls === 0 && e.inputTokens === 0 && e.outputTokens === 0) continue;
    const entry = consistentEntry({ model: e.model, calls: e.calls, inputTokens: e.inputTokens, outputTokens: e.outputTokens, cachedInputTokens: e.cachedInputTokens, cacheWriteInputTokens: e.cacheWriteInputTokens });
    const seen = byModel.get(e.model);
    const next = seen ? sum(seen, entry) : entry;
    if (![next.calls, next.inputTokens, next.outputTokens, next.cachedInputTokens ?? 0, next.cacheWriteInputTokens ?? 0].every(isCount)) return `modelUsage of ${e.model} sums beyond a safe integer`;
    byModel.set(e.model, next);
  }
  return [...byModel.values()];
}

interface Counted {
  model: string;
  calls: number;
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number | undefined;
  cacheWriteInputTokens: number | undefined;
}

/** The entry without absent cache counts, and without both of them when they exceed its input. */
function consistentEntry(e: Counted): ModelUsage {
  const base = { model: e.model, calls: e.calls, inputTokens: e.inputTokens, outputTokens: e.outputTokens };
  if ((e.cachedInputTokens ?? 0) + (e.cacheWriteInputTokens ?? 0) > e.inputTokens) return base;
  return {
    ...base,
    ...(e.cachedInputTokens === undefined ? {} : { cachedInputTokens: e.cachedInputTokens }),
    ...(e.cacheWriteInputTokens === undefined ? {} : { cacheWriteInputTokens: e.cacheWriteInputTokens }),
  };
}

/** Two entries of one model as one; a cache count is present when either has it. */
function sum(a: ModelUsage, b: ModelUsage): ModelUsage {
  const add = (x: number | undefined, y: number | undefined) => (x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0));
  const cached = add(a.cachedInputTokens, b.cachedInputTokens);
  const writes = add(a.cacheWriteInputTokens, b.cacheWriteInputTokens);
  return {
    model: a.model,
    calls: a.calls + b.calls,
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    ...(cached === undefined ? {} : { cachedInputTokens: cached }),
    ...(writes === undefined ? {} : { cacheWriteInputTokens: writes }),
  };
}
