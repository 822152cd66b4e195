import type { ModelPrice, PriceTable } from "./model-price.ts";

/**
 * The day the default prices were read, and where from. Standard (on-demand, not batch, not
 * priority) prices in USD per million tokens. The providers' own pages could not be fetched
 * from where this table was written; the figures were read from copies of those pages and
 * from price tables that cite them, and a figure was only taken where they agreed. Check
 * them against the pages before relying on a total, and override them in
 * ADRANK_MODEL_PRICES_FILE (docs/ledger-mirror.md#prices).
 */
export const DEFAULT_PRICES_READ_ON = "2026-11-26";
export const DEFAULT_PRICE_SOURCES: Readonly<Record<string, string>> = {
  openai: "https://developers.openai.com/api/docs/pricing",
  anthropic: "https://platform.claude.com/docs/en/about-claude/pricing",
  gemini: "https://ai.google.dev/gemini-api/docs/pricing",
  bedrock: "https://aws.amazon.com/bedrock/pricing/",
};

/** A provider that bills no cache writes: they cost what uncached input costs. */
const noWritePremium = (input: number, cachedInput: number, output: number): ModelPrice => ({ input, cachedInput, cacheWrite: input, output });
/** An embedding model: input only, no cache. */
const embedding = (input: number): ModelPrice => ({ input, cachedInput: input, cacheWrite: input, output: 0 });
/** Anthropic's 5-minute cache writes (the default TTL) cost 1.25 × input, cache hits 0.1 ×. */
const anthropic = (input: number, cachedInput: number, cacheWrite: number, output: number): ModelPrice => ({ input, cachedInput, cacheWrite, output });

/**
 * The models this service is configured with in its docs and examples, and their near
 * relations. Left out for want of a figure the sources agreed on: openai:o4-mini's cached
 * input, gemini:gemini-embedding-001, Bedrock's Opus and Nova models. Not modelled: Gemini
 * 2.5 Pro's higher rate for prompts over 200k tokens (an evaluation's prompt is far smaller),
 * Anthropic's 1-hour cache writes (2 × input) and Gemini's explicit-cache storage per hour.
 */
export const DEFAULT_MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  // OpenAI: cache writes are not billed apart; cached input is 10 % (GPT-5), 25 % (GPT-4.1), 50 % (GPT-4o).
  "openai:gpt-5-mini": noWritePremium(0.25, 0.025, 2),
  "openai:gpt-4.1": noWritePremium(2, 0.5, 8),
  "openai:gpt-4o": noWritePremium(2.5, 1.25, 10),
  "openai:gpt-4o-mini": noWritePremium(0.15, 0.075, 0.6),
  "openai:text-embedding-3-small": embedding(0.02),
  "openai:text-embedding-3-large": embedding(0.13),
  // Anthropic: base input, cache hits, 5-minute cache writes, output.
  "anthropic:claude-haiku-4-5": anthropic(1, 0.1, 1.25, 5),
  "anthropic:claude-sonnet-4-5": anthropic(3, 0.3, 3.75, 15),
  "anthropic:claude-sonnet-4-6": anthropic(3, 0.3, 3.75, 15),
  "anthropic:claude-opus-4-5": anthropic(5, 0.5, 6.25, 25),
  "anthropic:claude-opus-4-6": anthropic(5, 0.5, 6.25, 25),
  "anthropic:claude-opus-4-7": anthropic(5, 0.5, 6.25, 25),
  // Gemini: implicit caching bills no writes; text, image and video input share one price (prompts up to 200k tokens).
  "gemini:gemini-2.5-flash": noWritePremium(0.3, 0.03, 2.5),
  "gemini:gemini-2.5-pro": noWritePremium(1.25, 0.125, 10),
  // Bedrock, Claude 4.5 and later: the "global." inference profile at Anthropic's prices; in-region
  // and geographic profiles ("us.", "eu.", …, priced as in-region by priceOf) 10 % above them.
  "bedrock:global.anthropic.claude-haiku-4-5": anthropic(1, 0.1, 1.25, 5),
  "bedrock:anthropic.claude-haiku-4-5": anthropic(1.1, 0.11, 1.375, 5.5),
  "bedrock:global.anthropic.claude-sonnet-4-5": anthropic(3, 0.3, 3.75, 15),
  "bedrock:anthropic.claude-sonnet-4-5": anthropic(3.3, 0.33, 4.125, 16.5),
  "bedrock:global.anthropic.claude-sonnet-4-6": anthropic(3, 0.3, 3.75, 15),
  "bedrock:anthropic.claude-sonnet-4-6": anthropic(3.3, 0.33, 4.125, 16.5),
};

/** The default table; `sim:*` needs no entry (priceOf prices it at 0). */
export const DEFAULT_PRICE_TABLE: PriceTable = { models: DEFAULT_MODEL_PRICES, providers: {} };
