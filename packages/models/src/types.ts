import type { Goal } from "@adrank/contracts";

/** Image bytes as the adapters send them: already fetched, decoded and normalized upstream. */
export interface ImageInput {
  bytes: Uint8Array;
  mime: "image/jpeg" | "image/png" | "image/webp";
}

/** Ad copy fields by their preferred keys (pageName, adBody, adHeadline, adCaption, adDescription). */
export type CopyFields = Record<string, string>;

/**
 * Structured context that only the offline sim reads; real models read the prompt. It lets
 * the sim answer like a persona without parsing prose.
 */
export interface SimHints {
  task: "rate" | "vote";
  goal: Goal;
  assetType: string;
  platform: string | null;
  /** Copy of the rated ad; for a vote, the copy shared by both images when `copyPerImage` is absent. */
  copy: CopyFields | null;
  /** For a vote: the copy of each image, in prompt order. Overrides `copy`. */
  copyPerImage?: [CopyFields | null, CopyFields | null];
  /** For a vote: each image's own asset type, in prompt order ("" when none was stated). Overrides `assetType`. */
  assetTypePerImage?: [string, string];
  demographics: Record<string, string>;
  /** 0-based repetition of a scoring evaluation; for a vote, the voter's index in the panel. */
  repetition: number;
  /** 0-based index of the generator within its pair (0 or 1); 0 for a voter. */
  generatorIndex: number;
}

export interface GenerateRequest {
  system: string;
  user: string;
  /** 0, 1 (scoring) or 2 (a panel vote, labelled "Image 1" and "Image 2" by position). */
  images: ImageInput[];
  /** Tokens for the answer itself, overriding the generator's answer budget; reasoning budgets come on top. */
  maxOutputTokens?: number;
  /** Overrides the generator's own temperature; ignored where the model takes none (`Generator.temperature` is null because reasoning is on, or sim). */
  temperature?: number;
  signal?: AbortSignal;
  /** Epoch ms by which an answer is needed (the job's deadline): no retry waits past it. */
  deadlineAt?: number;
  /** Structured context that only the offline sim reads (real models read the prompt). */
  simHints?: SimHints;
}

/** Tokens one generate call cost, summed over every attempt it made (an empty or cut-off answer is billed too). */
export interface TokenUsage {
  /** Every prompt token, cached or not: Anthropic's and Bedrock's cache reads and writes are added to their `input_tokens`. */
  inputTokens: number;
  /** Every generated token the provider bills, reasoning included. */
  outputTokens: number;
  /** The part of `outputTokens` spent reasoning or thinking, when the provider reports it. */
  reasoningTokens?: number;
  /**
   * The part of `inputTokens` read from the provider's prompt cache (billed at its discount),
   * when the provider reports it: OpenAI `prompt_tokens_details.cached_tokens`, Anthropic
   * `cache_read_input_tokens`, Gemini `cachedContentTokenCount`, Bedrock `cacheReadInputTokens`.
   */
  cachedInputTokens?: number;
  /**
   * The part of `inputTokens` written to the prompt cache (billed at a premium), when the
   * provider reports it: Anthropic `cache_creation_input_tokens`, Bedrock `cacheWriteInputTokens`.
   */
  cacheWriteInputTokens?: number;
}

export interface GenerateResult {
  text: string;
  provider: string;
  model: string;
  simulated: boolean;
  /**
   * The exact model the provider reported answering with (e.g. "gpt-4o-2024-08-06" when
   * "gpt-4o" was asked), from the reply of the attempt that gave `text`. Absent when the
   * provider reports none (Bedrock Converse). Never the configured name copied. At most 200
   * characters, without control characters.
   */
  modelVersion?: string;
  /** Absent, or zeros, when the model reports none (the sim). */
  usage?: TokenUsage;
}

export interface Generator {
  readonly provider: string;
  readonly model: string;
  /**
   * The sampling temperature sent on every call unless a request overrides it. Null when none
   * is sent: the model takes none (OpenAI reasoning effort or Anthropic thinking on), the
   * provider's default applies, or the model is the deterministic sim.
   */
  readonly temperature: number | null;
  /**
   * The reasoning or thinking control sent on every call, as the body carries it, e.g.
   * "reasoning_effort=low" or "thinking.type=enabled, thinking.budget_tokens=2048". Null when
   * no such control is sent (the model's own default applies, or the model is the sim).
   */
  readonly thinking: string | null;
  /**
   * Whether the provider discounts a repeated prompt prefix for this model (OpenAI and Azure
   * automatically, Anthropic at our cache breakpoint, Gemini 2.5 and later implicitly, Bedrock
   * at our cache point), so that calls sharing an image are worth starting one first: a cache
   * entry is readable only once the call that wrote it has been answered. Absent means false
   * (the sim, local servers, models without prompt caching).
   */
  readonly cachesPrompts?: boolean;
  generate(req: GenerateRequest): Promise<GenerateResult>;
}

export interface Embedder {
  readonly provider: string;
  readonly model: string;
  /** One vector per text, in input order. */
  embed(texts: string[], signal?: AbortSignal): Promise<number[][]>;
}
