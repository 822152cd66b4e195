import { bedrockBaseModelId } from "./bedrock.ts";

/**
 * The smallest prompt prefix each provider caches for a model, in tokens; null when the model
 * has no prompt caching we can use (or we do not know its minimum). Sources:
 * - OpenAI: https://developers.openai.com/api/docs/guides/prompt-caching ("enabled automatically
 *   for prompts that are 1024 tokens or longer", gpt-4o and newer); Azure OpenAI caches alike.
 * - Anthropic: https://platform.claude.com/docs/en/build-with-claude/prompt-caching ("minimum
 *   cacheable prompt length": 4096 for Opus 4.5-4.7, Haiku 4.5 and Mythos Preview; 1024 for
 *   Sonnet 4-4.6, Opus 4/4.1/4.8 and Sonnet 5; 512 for Opus 5, Fable 5 and Mythos 5).
 * - Gemini (API and Vertex): https://ai.google.dev/gemini-api/docs/caching (implicit caching on
 *   Gemini 2.5 and newer; minimum 2048 for 2.5 Flash and Pro, 4096 for the 3.x models).
 * - Bedrock: https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html (cache
 *   checkpoints on Claude; minimum 1024 for Sonnet 4-4.6, 4096 for Haiku 4.5 and Opus 4.5-4.7).
 */

/**
 * What our stable prefix comes to: the system text (~250-400 tokens) and one image normalized
 * to at most 1024 x 1024 px (OpenAI gpt-4.1 765 tokens, Claude ~1,400, Gemini 2.5 1,032). A
 * model whose cache minimum is above this never caches it, so calls there gain nothing from
 * being started one after another.
 */
export const SCORING_PREFIX_TOKENS = 1024;

/** Whether calls that share a system text and an image are worth starting one first on a model with this minimum. */
export function cachesScoringPrefix(minimum: number | null): boolean {
  return minimum !== null && minimum <= SCORING_PREFIX_TOKENS;
}

export const OPENAI_PROMPT_CACHE_MINIMUM = 1024;

const ANTHROPIC_MINIMUMS: ReadonlyArray<[RegExp, number]> = [
  [/^claude-(opus-4-[567]|haiku-4-5|mythos-preview)/, 4096],
  [/^claude-(sonnet-4|opus-4-1|opus-4-8|opus-4-\d{8}|sonnet-5(?!-5))/, 1024],
  [/^claude-(opus-5(?!-5)|fable-5|mythos-5)/, 512],
];

/** Anthropic's minimum cacheable prompt length for a model id; null when the docs give none for it. */
export function anthropicPromptCacheMinimum(model: string): number | null {
  return ANTHROPIC_MINIMUMS.find(([match]) => match.test(model))?.[1] ?? null;
}

/** Gemini's implicit-caching minimum by model family (capabilities/gemini.ts); null for 2.0 and families the docs do not list. */
export function geminiPromptCacheMinimum(family: string): number | null {
  if (family === "gemini-2.5-flash" || family === "gemini-2.5-pro") return 2048;
  if (family.startsWith("gemini-3")) return 4096;
  return null;
}

const BEDROCK_MINIMUMS: ReadonlyArray<[RegExp, number]> = [
  [/^anthropic\.claude-(opus-4-[567]|haiku-4-5)/, 4096],
  [/^anthropic\.claude-(sonnet-4|opus-4-1|opus-4-\d{8})/, 1024],
];

/**
 * The cache-checkpoint minimum of a Bedrock model or inference profile id; null when the model
 * takes no `cachePoint` (Converse refuses one there) or we do not send one. Nova also caches,
 * but only its text is documented as cacheable, so no checkpoint is placed after its image.
 */
export function bedrockPromptCacheMinimum(modelId: string): number | null {
  const baseId = bedrockBaseModelId(modelId);
  return BEDROCK_MINIMUMS.find(([match]) => match.test(baseId))?.[1] ?? null;
}
