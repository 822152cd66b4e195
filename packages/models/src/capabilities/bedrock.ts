import type { CapabilityRow } from "./capability-row.ts";

/**
 * What each model family takes through Amazon Bedrock's Converse API, by model id or
 * cross-region inference profile id. Sources, cited beside each rule:
 * - Converse request/response: https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html
 *   and the SDK's own types, node_modules/@aws-sdk/client-bedrock-runtime/dist-types/models/models_0.d.ts
 *   (ConverseRequest, InferenceConfiguration, ImageBlock) and models/enums.d.ts (StopReason, ImageFormat).
 * - Claude on Bedrock: https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages.html,
 *   .../claude-messages-extended-thinking.html and .../claude-messages-adaptive-thinking.html.
 * - Nova: https://docs.aws.amazon.com/nova/latest/userguide/complete-request-schema.html.
 * - Llama: https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-meta.html.
 * - Titan Text Embeddings V2: https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-titan-embed-text.html.
 */

/** How a model takes a thinking budget, sent in `additionalModelRequestFields.thinking`. */
export type BedrockThinking =
  /** `{type: "enabled", budget_tokens}`: Claude 4.x up to 4.5 (extended-thinking page). */
  | "budget"
  /** `{type: "adaptive"}`, no budget: Claude Opus 4.6 / Sonnet 4.6 (where "enabled" is deprecated) and Opus 4.7, which takes nothing else (adaptive-thinking page). */
  | "adaptive"
  | "none";

/** What a Converse stop reason means for our answer (enums.d.ts StopReason). */
export type BedrockStopMeaning = "complete" | "truncated" | "refused" | "unusable-ask-again" | "unusable-give-up";

export interface BedrockModelRules {
  /** False for an id we have no rules for: the safe choice is made (no temperature, no thinking). */
  known: boolean;
  /** The id without its cross-region inference profile prefix (us., eu., apac., global., ...). */
  baseId: string;
  family: string;
  /** Temperature range the model takes in `inferenceConfig.temperature`; null: never send one. */
  temperature: { min: number; max: number } | null;
  /** Largest `inferenceConfig.maxTokens` the model accepts. */
  maxOutputTokens: number;
  thinking: BedrockThinking;
  /** Takes Converse image blocks. */
  vision: boolean;
  /** An embedding model (InvokeModel), not a Converse generator. */
  embedding: boolean;
}

/** Prefixes of the system-defined cross-region inference profiles (Bedrock user guide, "Supported Regions and models for inference profiles"). */
const PROFILE_PREFIX = /^(us|us-gov|eu|apac|jp|au|ca|global)\./;

export function bedrockBaseModelId(modelId: string): string {
  return modelId.replace(PROFILE_PREFIX, "");
}

/**
 * The meaning of a Converse `stopReason`: end_turn and stop_sequence finish an answer;
 * max_tokens cuts it off; content_filtered and guardrail_intervened are the provider's filter
 * declining the content; the context window, tool use and malformed output leave text we
 * cannot use. An unknown reason is not trusted as complete.
 */
export function bedrockStopMeaning(stopReason: string | undefined): BedrockStopMeaning {
  switch (stopReason) {
    case "end_turn":
    case "stop_sequence":
      return "complete";
    case "max_tokens":
      return "truncated";
    case "content_filtered":
    case "guardrail_intervened":
      return "refused";
    case "malformed_model_output":
      // A fresh draw may well be well-formed.
      return "unusable-ask-again";
    case "model_context_window_exceeded":
    case "tool_use":
    case "malformed_tool_use":
      // The same prompt would overflow again; we send no tools, so a tool call cannot be answered.
      return "unusable-give-up";
    default:
      return "unusable-ask-again";
  }
}

interface Family {
  family: string;
  /** Matches the base id (profile prefix removed). */
  match: RegExp;
  /** Model ids for the docs table. */
  ids: string;
  temperature: { min: number; max: number } | null;
  maxOutputTokens: number;
  thinking: BedrockThinking;
  vision: boolean;
  embedding?: boolean;
  source: string;
}

const CLAUDE_MESSAGES = "https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-anthropic-claude-messages.html";
const ADAPTIVE = "https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-adaptive-thinking.html";
const EXTENDED = "https://docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-extended-thinking.html";
const NOVA = "https://docs.aws.amazon.com/nova/latest/userguide/complete-request-schema.html";
const META = "https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-meta.html";
const TITAN = "https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-titan-embed-text.html";

// Claude temperature on Bedrock is 0-1 (Claude Messages parameters page) and only without
// thinking (extended-thinking page: thinking is incompatible with temperature changes).
// Opus 4.7 dropped the sampling parameters (temperature, top_p, top_k answer 400): never sent.
const FAMILIES: Family[] = [
  {
    family: "Claude Opus 4.7",
    match: /^anthropic\.claude-opus-4-7/,
    ids: "anthropic.claude-opus-4-7, us./eu./global. profiles",
    temperature: null,
    maxOutputTokens: 128_000,
    thinking: "adaptive",
    vision: true,
    source: `${ADAPTIVE} (adaptive only; enabled/budget_tokens answer 400); sampling parameters removed in Opus 4.7`,
  },
  {
    family: "Claude Opus 4.6 / Sonnet 4.6",
    match: /^anthropic\.claude-(opus|sonnet)-4-6/,
    ids: "anthropic.claude-opus-4-6-v1, anthropic.claude-sonnet-4-6, profiles",
    temperature: { min: 0, max: 1 },
    maxOutputTokens: 64_000,
    thinking: "adaptive",
    vision: true,
    source: `${ADAPTIVE} (enabled/budget_tokens deprecated on 4.6); ${CLAUDE_MESSAGES}`,
  },
  {
    family: "Claude 4.5 (Sonnet, Haiku, Opus)",
    match: /^anthropic\.claude-(sonnet|haiku|opus)-4-5/,
    ids: "anthropic.claude-sonnet-4-5-20250929-v1:0, anthropic.claude-haiku-4-5-20251001-v1:0, anthropic.claude-opus-4-5-20251101-v1:0, profiles",
    temperature: { min: 0, max: 1 },
    maxOutputTokens: 64_000,
    thinking: "budget",
    vision: true,
    source: `${EXTENDED}; ${ADAPTIVE} (older models need enabled + budget_tokens); ${CLAUDE_MESSAGES}`,
  },
  {
    family: "Claude 4 / 4.1 (Sonnet, Opus)",
    match: /^anthropic\.claude-(sonnet-4|opus-4-1|opus-4)-\d{8}/,
    ids: "anthropic.claude-sonnet-4-20250514-v1:0, anthropic.claude-opus-4-20250514-v1:0, anthropic.claude-opus-4-1-20250805-v1:0, profiles",
    temperature: { min: 0, max: 1 },
    maxOutputTokens: 32_000,
    thinking: "budget",
    vision: true,
    source: `${EXTENDED}; ${CLAUDE_MESSAGES}`,
  },
  {
    family: "Amazon Nova Pro / Lite / Premier",
    match: /^amazon\.nova-(pro|lite|premier)-v1/,
    ids: "amazon.nova-pro-v1:0, amazon.nova-lite-v1:0, amazon.nova-premier-v1:0, profiles",
    temperature: { min: 0, max: 1 },
    maxOutputTokens: 10_000,
    thinking: "none",
    vision: true,
    source: `${NOVA} (inferenceConfig maxTokens, temperature, topP; image formats png/jpeg/gif/webp)`,
  },
  {
    family: "Amazon Nova Micro (text only)",
    match: /^amazon\.nova-micro-v1/,
    ids: "amazon.nova-micro-v1:0",
    temperature: { min: 0, max: 1 },
    maxOutputTokens: 10_000,
    thinking: "none",
    vision: false,
    source: `${NOVA} (Nova Micro takes no images or video)`,
  },
  {
    family: "Meta Llama 3.2 vision (11B, 90B)",
    match: /^meta\.llama3-2-(11b|90b)-instruct/,
    ids: "us.meta.llama3-2-11b-instruct-v1:0, us.meta.llama3-2-90b-instruct-v1:0",
    temperature: { min: 0, max: 1 },
    maxOutputTokens: 2_048,
    thinking: "none",
    vision: true,
    source: `${META} (temperature 0-1, max_gen_len up to 2048)`,
  },
  {
    family: "Meta Llama 4 (Scout, Maverick)",
    match: /^meta\.llama4-(scout|maverick)-17b-instruct/,
    ids: "us.meta.llama4-scout-17b-instruct-v1:0, us.meta.llama4-maverick-17b-instruct-v1:0",
    temperature: { min: 0, max: 1 },
    maxOutputTokens: 8_192,
    thinking: "none",
    vision: true,
    source: `${META} (temperature 0-1; image input)`,
  },
  {
    family: "Amazon Titan Text Embeddings V2",
    match: /^amazon\.titan-embed-text-v2/,
    ids: "amazon.titan-embed-text-v2:0",
    temperature: null,
    maxOutputTokens: 0,
    thinking: "none",
    vision: false,
    embedding: true,
    source: `${TITAN} (InvokeModel body inputText, dimensions 256/512/1024, normalize)`,
  },
];

/**
 * The rules of a Bedrock model id or inference profile id. Never throws: an unknown id gets
 * `known: false` with the safe choice (no temperature, no thinking, a modest output limit,
 * images sent and left to the service to refuse).
 *
 * @example
 * bedrockModelRules("us.anthropic.claude-sonnet-4-5-20250929-v1:0").thinking; // "budget"
 */
export function bedrockModelRules(modelId: string): BedrockModelRules {
  const baseId = bedrockBaseModelId(modelId);
  const family = FAMILIES.find((f) => f.match.test(baseId));
  if (!family) {
    return { known: false, baseId, family: "unknown", temperature: null, maxOutputTokens: 4_096, thinking: "none", vision: true, embedding: /embed/.test(baseId) };
  }
  return {
    known: true,
    baseId,
    family: family.family,
    temperature: family.temperature,
    maxOutputTokens: family.maxOutputTokens,
    thinking: family.thinking,
    vision: family.vision,
    embedding: family.embedding ?? false,
  };
}

/** The Bedrock families as rows of the capability table (docs/models.md, preflight). */
export function bedrockCapabilityRows(): CapabilityRow[] {
  return FAMILIES.map((f) => ({
    provider: "bedrock",
    family: `${f.family} (${f.ids})`,
    roles: f.embedding ? ["embedder"] : f.vision ? ["generator", "voter"] : [],
    temperature: f.embedding ? "n/a" : f.temperature ? `${f.temperature.min}–${f.temperature.max}, as configured; not sent with thinking` : "never sent (the model refuses sampling parameters)",
    tokenLimit: f.embedding ? "n/a" : `inferenceConfig.maxTokens (at most ${f.maxOutputTokens})`,
    reasoning:
      f.thinking === "budget"
        ? 'additionalModelRequestFields.thinking {type: "enabled", budget_tokens ≥ 1024}'
        : f.thinking === "adaptive"
          ? 'additionalModelRequestFields.thinking {type: "adaptive"}'
          : "none",
    usableStops: f.embedding ? "n/a" : "end_turn, stop_sequence",
    apiVersion: f.embedding ? "InvokeModel" : "Converse (bedrock-runtime 2023-09-30)",
    source: f.source,
  }));
}
