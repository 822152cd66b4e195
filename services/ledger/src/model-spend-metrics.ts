import type { Metrics } from "@adrank/telemetry";
import { priceOf, spendOf, uncachedInputTokens, usdOf, type PriceTable, type UsageSettled } from "@adrank/ledger-domain";

/** Spend of one request in USD: a tenth of a cent to a dollar covers one asset to a full batch on the priced models. */
const PER_REQUEST_BUCKETS = [0.0001, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * Model tokens and spend as settlements report them, per model only: an account label would
 * make a series per customer. Counted by the replica that decided the settlement, once (a
 * repeated settle is answered without a new event and is not counted), so the counters are
 * per replica and approximate like any process counter; the exact figures are the mirror's
 * (`npm run model-usage`). A model without a price adds tokens but no spend, and a request
 * that used one is left out of the per-request histogram rather than shown cheaper than it was.
 *
 * @example
 * const record = modelSpendMetrics(createMetrics("ledger"), DEFAULT_PRICE_TABLE);
 * record(settledEvent);
 */
export function modelSpendMetrics(metrics: Metrics, prices: PriceTable): (event: UsageSettled) => void {
  const tokens = metrics.counter("adrank_model_tokens_total", "Model tokens of settled requests, by model and kind (uncached_input, cached_input, cache_write_input, output).", ["model", "kind"]);
  const spend = metrics.counter("adrank_model_spend_usd_total", "Model spend of settled requests in USD at the configured prices, by model (models without a price are not counted).", ["model"]);
  const perRequest = metrics.histogram("adrank_model_spend_per_request_usd", "Model spend of one settled request in USD, for requests whose models all have a price.", [], PER_REQUEST_BUCKETS);
  return (event) => {
    const usage = event.modelUsage ?? [];
    if (usage.length === 0) return;
    let total = 0n;
    let priced = true;
    for (const u of usage) {
      tokens.inc({ model: u.model, kind: "uncached_input" }, uncachedInputTokens(u));
      tokens.inc({ model: u.model, kind: "cached_input" }, u.cachedInputTokens ?? 0);
      tokens.inc({ model: u.model, kind: "cache_write_input" }, u.cacheWriteInputTokens ?? 0);
      tokens.inc({ model: u.model, kind: "output" }, u.outputTokens);
      const price = priceOf(prices, u.model);
      if (price === null) {
        priced = false;
        continue;
      }
      const pico = spendOf(u, price);
      spend.inc({ model: u.model }, usdOf(pico));
      total += pico;
    }
    if (priced) perRequest.observe(usdOf(total));
  };
}
