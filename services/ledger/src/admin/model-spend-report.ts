import { formatUsd, priceOf, spendOf, uncachedInputTokens, usdOf, type PriceTable, type TokenCounts } from "@adrank/ledger-domain";
import type { DailyModelSpend } from "@adrank/db/repositories";

/** What a report row sums its usage by. */
export type SpendGrouping = "model" | "account" | "day";
export const SPEND_GROUPINGS: readonly SpendGrouping[] = ["model", "account", "day"];

/** Token counts and spend of a group of usage rows. */
export interface SpendTotals {
  calls: number;
  /** Every prompt token, cached or not. */
  inputTokens: number;
  uncachedInputTokens: number;
  cachedInputTokens: number;
  cacheWriteInputTokens: number;
  outputTokens: number;
  /** USD at the table's prices, of the priced models only; null when none of the group's models has a price. */
  spendUsd: number | null;
  /** Models of the group without a price: their tokens are counted, their spend is not. */
  unpricedModels: string[];
}

/** A report row: the group's key fields, then its totals. */
export type SpendRow = { day?: string; accountId?: string; model?: string; kind?: string } & SpendTotals;

/** Sums usage into totals, in exact pico-dollars until the end. */
class Summer {
  private calls = 0;
  private input = 0;
  private uncached = 0;
  private cached = 0;
  private writes = 0;
  private output = 0;
  private pico = 0n;
  private priced = false;
  private readonly unpriced = new Set<string>();
  private readonly prices: PriceTable;
  constructor(prices: PriceTable) {
    this.prices = prices;
  }

  add(model: string, u: TokenCounts & { calls: number }): void {
    this.calls += u.calls;
    this.input += u.inputTokens;
    this.uncached += uncachedInputTokens(u);
    this.cached += u.cachedInputTokens ?? 0;
    this.writes += u.cacheWriteInputTokens ?? 0;
    this.output += u.outputTokens;
    const price = priceOf(this.prices, model);
    if (price === null) this.unpriced.add(model);
    else {
      this.priced = true;
      this.pico += spendOf(u, price);
    }
  }

  totals(): SpendTotals {
    return {
      calls: this.calls,
      inputTokens: this.input,
      uncachedInputTokens: this.uncached,
      cachedInputTokens: this.cached,
      cacheWriteInputTokens: this.writes,
      outputTokens: this.output,
      spendUsd: this.priced ? usdOf(this.pico) : null,
      unpricedModels: [...this.unpriced].sort(),
    };
  }

  /** The spend as the text report prints it: 6 decimals, "no price", or a "*" when part of it has none. */
  spendText(): string {
    if (!this.priced) return "no price";
    return `${formatUsd(this.pico, 6)}${this.unpriced.size > 0 ? "*" : ""}`;
  }
}

export interface SpendReport {
  rows: Array<SpendRow & { spendText: string }>;
  total: SpendTotals & { spendText: string };
}

/**
 * Usage rows of the mirror (one per UTC day, account, model and kind) summed per account,
 * model and kind (`model`), per account (`account`) or per day (`day`), each priced with the
 * table, and their total. Rows keep the order of their first usage row: by day, account,
 * model and kind as the repository reads them, so `model` rows are resorted by account,
 * model and kind.
 */
export function spendReport(usage: readonly DailyModelSpend[], by: SpendGrouping, prices: PriceTable): SpendReport {
  const groups = new Map<string, { key: Omit<SpendRow, keyof SpendTotals>; sum: Summer }>();
  const total = new Summer(prices);
  for (const u of usage) {
    const key = by === "model" ? { accountId: u.accountId, model: u.model, kind: u.kind } : by === "account" ? { accountId: u.accountId } : { day: u.day };
    const id = JSON.stringify(key);
    const group = groups.get(id) ?? { key, sum: new Summer(prices) };
    groups.set(id, group);
    group.sum.add(u.model, u);
    total.add(u.model, u);
  }
  const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const rows = [...groups.values()]
    .sort((a, b) => order(a.key.day ?? "", b.key.day ?? "") || order(a.key.accountId ?? "", b.key.accountId ?? "") || order(a.key.model ?? "", b.key.model ?? "") || order(a.key.kind ?? "", b.key.kind ?? ""))
    .map((g) => ({ ...g.key, ...g.sum.totals(), spendText: g.sum.spendText() }));
  return { rows, total: { ...total.totals(), spendText: total.spendText() } };
}

/** One settlement's usage priced per model, and its total. */
export function settlementSpend(usage: ReadonlyArray<TokenCounts & { model: string; calls: number }>, prices: PriceTable): { models: Array<{ model: string } & SpendTotals & { spendText: string }>; total: SpendTotals & { spendText: string } } {
  const total = new Summer(prices);
  const models = usage.map((u) => {
    const one = new Summer(prices);
    one.add(u.model, u);
    total.add(u.model, u);
    return { model: u.model, ...one.totals(), spendText: one.spendText() };
  });
  return { models, total: { ...total.totals(), spendText: total.spendText() } };
}
