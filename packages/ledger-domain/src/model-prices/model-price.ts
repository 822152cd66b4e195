/**
 * What a model's tokens cost, in USD per million tokens, by how the provider bills them:
 * uncached prompt tokens, prompt tokens read from its cache, prompt tokens written to its cache
 * (Anthropic and Bedrock bill a premium; elsewhere it is the input price) and output tokens
 * (reasoning included).
 */
export interface ModelPrice {
  input: number;
  cachedInput: number;
  cacheWrite: number;
  output: number;
}

/**
 * Prices by "provider:model" (or "provider:*" for every model of a provider), and providers
 * priced as another: a provider profile's name is the operator's choice (docs/models.md names
 * its Bedrock profile "aws"), the price table's entries use the provider's own ("bedrock").
 */
export interface PriceTable {
  models: Readonly<Record<string, ModelPrice>>;
  providers: Readonly<Record<string, string>>;
}

/** The simulator's models: ours, answered in process, billed by no one. */
export const SIM_PROVIDER = "sim";
const FREE: ModelPrice = { input: 0, cachedInput: 0, cacheWrite: 0, output: 0 };

/** Cross-region inference profile prefixes of Bedrock that are geographic (global. is priced on its own). */
const GEO_PROFILE = /^(us|us-gov|eu|apac|jp|au|ca)\./;
/**
 * A dated version at the end of a model id: Anthropic's "-20250929", OpenAI's "-2024-08-06",
 * Vertex's "@20250929", each optionally followed by Bedrock's "-v1:0". A bare "-v2" is not
 * taken off: it names another model ("titan-embed-text-v2").
 */
const DATED_VERSION = /(?:-\d{8}|-\d{4}-\d{2}-\d{2}|@\d{8})(?:-v\d+(?::\d+)?)?$/;

/**
 * The price of a "provider:model", or null when the table has none: an unknown model is
 * shown as having no price, never guessed as free. `sim:*` always costs 0. Otherwise the
 * provider is first replaced by the one it is priced as (`table.providers`), then the first
 * entry found of:
 * 1. the model id as given;
 * 2. without a geographic Bedrock inference-profile prefix ("us.", "eu.", …): those cost what
 *    the in-region model costs (the price pages' 10 % over "global.");
 * 3. either of them without a dated version ("claude-sonnet-4-5-20250929" → "claude-sonnet-4-5");
 * 4. "provider:*".
 *
 * @example
 * priceOf(DEFAULT_PRICE_TABLE, "anthropic:claude-sonnet-4-5-20250929"); // { input: 3, cachedInput: 0.3, cacheWrite: 3.75, output: 15 }
 * priceOf(DEFAULT_PRICE_TABLE, "openai:llava:13b"); // null
 */
export function priceOf(table: PriceTable, model: string): ModelPrice | null {
  const colon = model.indexOf(":");
  if (colon <= 0) return null;
  const named = model.slice(0, colon);
  if (named === SIM_PROVIDER) return FREE;
  const provider = Object.hasOwn(table.providers, named) ? table.providers[named]! : named;
  const id = model.slice(colon + 1);
  const ids = [id, id.replace(GEO_PROFILE, "")];
  const candidates = [...ids, ...ids.map((i) => i.replace(DATED_VERSION, ""))];
  for (const key of [...candidates.map((c) => `${provider}:${c}`), `${provider}:*`]) {
    if (Object.hasOwn(table.models, key)) return table.models[key]!;
  }
  return null;
}
