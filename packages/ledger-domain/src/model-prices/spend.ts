import type { ModelPrice } from "./model-price.ts";

/** The token counts a spend is computed from (a settlement's ModelUsage or a sum of them). */
export interface TokenCounts {
  /** Every prompt token, cached or not. */
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens?: number | undefined;
  cacheWriteInputTokens?: number | undefined;
}

/** Prices have at most 6 decimals (USD per million tokens): in micro-dollars per million tokens they are integers. */
const MICRO = 1_000_000;
/** 1 USD in the unit spends are summed in: pico-dollars (10⁻¹² USD), one token at one micro-dollar per million tokens. */
export const PICO_USD_PER_USD = 1_000_000_000_000n;

const micros = (usdPerMillion: number): bigint => BigInt(Math.round(usdPerMillion * MICRO));

/** Whether a price per million tokens is a finite amount of at most 6 decimals, as spendOf computes exactly. */
export const isExactPrice = (usdPerMillion: number): boolean => Number.isFinite(usdPerMillion) && usdPerMillion >= 0 && Math.abs(usdPerMillion * MICRO - Math.round(usdPerMillion * MICRO)) < 1e-6;

/**
 * Input that was neither read from nor written to the cache. Never below 0: the ledger keeps
 * cache counts within the input (normalizeModelUsage), and a sum read back stays so.
 */
export const uncachedInputTokens = (u: TokenCounts): number => Math.max(0, u.inputTokens - (u.cachedInputTokens ?? 0) - (u.cacheWriteInputTokens ?? 0));

/**
 * What the tokens cost, exactly, in pico-dollars: uncached input × input price + cached input ×
 * cached price + cache writes × write price + output × output price. Integer arithmetic, so
 * sums of many rows lose nothing; usdOf turns a sum into dollars.
 *
 * @example
 * spendOf({ inputTokens: 1_000_000, cachedInputTokens: 600_000, outputTokens: 10_000 }, { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 });
 * // 1_530_000_000_000n: $1.20 + $0.18 + $0.15 = $1.53
 */
export function spendOf(u: TokenCounts, price: ModelPrice): bigint {
  return (
    BigInt(uncachedInputTokens(u)) * micros(price.input) +
    BigInt(u.cachedInputTokens ?? 0) * micros(price.cachedInput) +
    BigInt(u.cacheWriteInputTokens ?? 0) * micros(price.cacheWrite) +
    BigInt(u.outputTokens) * micros(price.output)
  );
}

/** Pico-dollars as dollars (a number: exact to the pico-dollar up to $9,007). */
export const usdOf = (picoUsd: bigint): number => Number(picoUsd) / Number(PICO_USD_PER_USD);

/**
 * Pico-dollars as a decimal string with `decimals` places (at most 12), rounded half up,
 * computed on the integer so a large total prints exactly.
 *
 * @example
 * formatUsd(1_234_567_500_000n, 6); // "1.234568"
 */
export function formatUsd(picoUsd: bigint, decimals = 6): string {
  const step = 10n ** BigInt(12 - decimals);
  const sign = picoUsd < 0n ? "-" : "";
  const abs = picoUsd < 0n ? -picoUsd : picoUsd;
  const rounded = (abs + step / 2n) / step;
  const scale = 10n ** BigInt(decimals);
  const whole = (rounded / scale).toString();
  return decimals === 0 ? `${sign}${whole}` : `${sign}${whole}.${(rounded % scale).toString().padStart(decimals, "0")}`;
}
