export { priceOf, SIM_PROVIDER, type ModelPrice, type PriceTable } from "./model-price.ts";
export { DEFAULT_PRICE_TABLE, DEFAULT_MODEL_PRICES, DEFAULT_PRICES_READ_ON, DEFAULT_PRICE_SOURCES } from "./default-prices.ts";
export { spendOf, uncachedInputTokens, usdOf, formatUsd, isExactPrice, PICO_USD_PER_USD, type TokenCounts } from "./spend.ts";
