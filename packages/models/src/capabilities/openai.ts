import type { ReasoningEffort } from "openai/resources/shared";
import type { CapabilityRow } from "./capability-row.ts";

/**
 * What each model on an OpenAI-style chat completions endpoint accepts: OpenAI itself, Azure
 * OpenAI, OpenRouter, Ollama and other compatible servers. The adapter asks these rules, never
 * the base URL, which parameters to send: a gpt-5 behind EU data residency, Azure or a proxy is
 * still a gpt-5.
 *
 * Sources (cited per rule below):
 * - [spec] /work/shared/provider-specs/openai/openapi.yaml (openai/openai-openapi f85dbe2):
 *   CreateChatCompletionRequest (`max_tokens` "deprecated ... not compatible with o-series
 *   models"; `max_completion_tokens` counts reasoning tokens), ModelResponseProperties
 *   (`temperature` 0–2), ReasoningEffort ("Not all reasoning models support every value"),
 *   CreateEmbeddingRequest (`dimensions` minimum 1).
 * - [sdk] node_modules/openai/resources/shared.d.ts (openai 7.57): ChatModel ids, ReasoningEffort.
 * - [reasoning] https://developers.openai.com/api/docs/guides/reasoning and the per-model
 *   support listed in https://learn.microsoft.com/en-us/javascript/api/@azure/ai-projects/reasoningeffort
 *   (gpt-5.1 takes none/low/medium/high; models before it do not take none; gpt-5-pro only
 *   high); the compatibility matrix in https://community.openai.com/t/1371738 (gpt-5/-mini/-nano:
 *   minimal..high; o1/o3/o3-mini/o3-pro/o4-mini: low..high; gpt-5.2: none..xhigh; gpt-5.2-pro:
 *   medium..xhigh; reasoning models take no sampling parameters); gpt-5.6 adds `max`
 *   (model reference `reasoning_options`, quoted in github.com/anomalyco/opencode/issues/36141).
 * - [ollama] /work/shared/provider-specs/ollama/openai-compatibility.mdx (ollama/ollama fb30760):
 *   supported request fields of /v1/chat/completions (`max_tokens`, `temperature`,
 *   `reasoning_effort` high/medium/low/max/none; no `max_completion_tokens`), base64 images only,
 *   and "Setting the context size".
 * - [openrouter] https://openrouter.ai/docs/api-reference/overview (request schema: `max_tokens`,
 *   `temperature` 0–2) and https://openrouter.ai/docs/use-cases/reasoning-tokens (`reasoning.effort`).
 *
 * Ollama, what cannot be controlled over its OpenAI-compatible endpoint [ollama]:
 * - context size: no request field sets it. Build a model with `PARAMETER num_ctx <n>` in a
 *   Modelfile (`ollama create`) and configure that model's name, or start the server with
 *   OLLAMA_CONTEXT_LENGTH.
 * - thinking: `reasoning_effort` only reaches models that think; the vision models listed here
 *   do not, and Ollama refuses a thinking request to them (so none is sent). A thinking model's
 *   default stays on unless its name is configured with `rulesModel` of a family that takes effort.
 * - temperature: when none is sent, Ollama's compatibility layer uses 1.0, not the Modelfile's value.
 */

/** Where the chat completions endpoint lives; decides auth, paths and the fields the server knows. */
export type OpenAIFlavor = "openai" | "azure" | "openrouter" | "ollama" | "compatible";
export const OPENAI_FLAVORS = ["openai", "azure", "openrouter", "ollama", "compatible"] as const satisfies ReadonlyArray<OpenAIFlavor>;

/** The values OpenAI's `reasoning_effort` takes [spec ReasoningEffort]; not every reasoning model takes every one. */
export const OPENAI_REASONING_EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh", "max"] as const satisfies ReadonlyArray<NonNullable<ReasoningEffort>>;
export type OpenAIReasoningEffort = (typeof OPENAI_REASONING_EFFORTS)[number];

export interface OpenAIModelRules {
  /** The id the rules were chosen for, after dropping dates, tags and an OpenRouter "openai/" prefix. */
  model: string;
  /** False: not a family we know; the safe choices below apply and the operator should be warned. */
  known: boolean;
  family: string;
  kind: "chat" | "embedding";
  /** Null: send no temperature (the model takes only its default, or we cannot tell). */
  temperature: { min: number; max: number } | null;
  tokenField: "max_completion_tokens" | "max_tokens";
  /** Null: `reasoning_effort` must not be sent. Otherwise the values this model accepts. */
  reasoningEfforts: readonly OpenAIReasoningEffort[] | null;
  /** Takes image parts in a user message. */
  images: boolean;
  /** Embedding models: the default vector length; null for chat models. */
  dimensions: number | null;
  /** Finish reasons that mean a complete answer. */
  usableFinishReasons: readonly string[];
}

const FULL_RANGE = { min: 0, max: 2 } as const; // [spec ModelResponseProperties.temperature]
const STOP_ONLY = ["stop"] as const; // [spec CreateChatCompletionResponse.finish_reason]: length is a cut-off, content_filter a refusal

// [reasoning] per-family effort lists.
const EFFORTS_O_SERIES = ["low", "medium", "high"] as const;
const EFFORTS_GPT5 = ["minimal", "low", "medium", "high"] as const;
const EFFORTS_GPT5_1 = ["none", "low", "medium", "high"] as const;
const EFFORTS_GPT5_2_TO_5_5 = ["none", "low", "medium", "high", "xhigh"] as const;
const EFFORTS_GPT5_6 = ["none", "low", "medium", "high", "xhigh", "max"] as const;

interface Family {
  family: string;
  match: RegExp;
  kind: "chat" | "embedding";
  temperature: { min: number; max: number } | null;
  reasoningEfforts: readonly OpenAIReasoningEffort[] | null;
  images: boolean;
  dimensions?: number;
  /** OpenAI's own models take max_completion_tokens wherever they are served. */
  openaiModel: boolean;
}

/** OpenAI's families, most specific first. Ids are matched without a date suffix. */
const OPENAI_FAMILIES: readonly Family[] = [
  // [spec CreateEmbeddingRequest] text-embedding-3 takes `dimensions`; defaults 1536 / 3072 (OpenAI embeddings guide).
  { family: "text-embedding-3-small", match: /^text-embedding-3-small$/, kind: "embedding", temperature: null, reasoningEfforts: null, images: false, dimensions: 1536, openaiModel: true },
  { family: "text-embedding-3-large", match: /^text-embedding-3-large$/, kind: "embedding", temperature: null, reasoningEfforts: null, images: false, dimensions: 3072, openaiModel: true },
  // [reasoning] gpt-5-pro defaults to and only supports high; gpt-5.2-pro medium..xhigh. No sampling parameters.
  { family: "gpt-5-pro", match: /^gpt-5-pro$/, kind: "chat", temperature: null, reasoningEfforts: ["high"], images: true, openaiModel: true },
  { family: "gpt-5.2-pro", match: /^gpt-5\.2-pro$/, kind: "chat", temperature: null, reasoningEfforts: ["medium", "high", "xhigh"], images: true, openaiModel: true },
  // [reasoning] gpt-5, -mini, -nano: minimal..high; only the default temperature.
  { family: "gpt-5", match: /^gpt-5(-mini|-nano)?$/, kind: "chat", temperature: null, reasoningEfforts: EFFORTS_GPT5, images: true, openaiModel: true },
  // [reasoning] gpt-5.1 adds none (its default) and drops minimal.
  { family: "gpt-5.1", match: /^gpt-5\.1$/, kind: "chat", temperature: null, reasoningEfforts: EFFORTS_GPT5_1, images: true, openaiModel: true },
  // [reasoning][sdk] gpt-5.2 .. gpt-5.5 (and the 5.4 mini/nano): none..xhigh. Temperature is taken only with
  // effort none on some of these; we never rely on that and send none (safe, and the same for the whole family).
  { family: "gpt-5.2–5.5", match: /^gpt-5\.[2-5](-mini|-nano)?$/, kind: "chat", temperature: null, reasoningEfforts: EFFORTS_GPT5_2_TO_5_5, images: true, openaiModel: true },
  // [sdk][reasoning] gpt-5.6 (sol, terra, luna) adds max.
  { family: "gpt-5.6", match: /^gpt-5\.6(-sol|-terra|-luna)?$/, kind: "chat", temperature: null, reasoningEfforts: EFFORTS_GPT5_6, images: true, openaiModel: true },
  // [reasoning] o-series: low..high, no sampling parameters; [spec] max_tokens not compatible.
  { family: "o-series", match: /^(o1|o3|o3-mini|o3-pro|o4-mini)$/, kind: "chat", temperature: null, reasoningEfforts: EFFORTS_O_SERIES, images: true, openaiModel: true },
  // [spec] gpt-4.1 and gpt-4o: temperature 0–2, no reasoning_effort (they are not reasoning models).
  { family: "gpt-4.1", match: /^gpt-4\.1(-mini|-nano)?$/, kind: "chat", temperature: FULL_RANGE, reasoningEfforts: null, images: true, openaiModel: true },
  { family: "gpt-4o", match: /^gpt-4o(-mini)?$/, kind: "chat", temperature: FULL_RANGE, reasoningEfforts: null, images: true, openaiModel: true },
];

/**
 * Vision models served by Ollama (names as in its library, tag dropped). None of them thinks,
 * so no reasoning_effort [ollama]; Ollama passes the temperature through, 0–2 as OpenAI's.
 */
const OLLAMA_VISION_FAMILIES: readonly Family[] = [
  { family: "llava", match: /^(llava|llava-llama3|llava-phi3|bakllava)$/, kind: "chat", temperature: FULL_RANGE, reasoningEfforts: null, images: true, openaiModel: false },
  { family: "qwen2.5-vl", match: /^qwen2\.5-?vl$/, kind: "chat", temperature: FULL_RANGE, reasoningEfforts: null, images: true, openaiModel: false },
  { family: "llama3.2-vision", match: /^llama3\.2-vision$/, kind: "chat", temperature: FULL_RANGE, reasoningEfforts: null, images: true, openaiModel: false },
  { family: "gemma3", match: /^gemma3$/, kind: "chat", temperature: FULL_RANGE, reasoningEfforts: null, images: true, openaiModel: false },
  { family: "minicpm-v", match: /^minicpm-v$/, kind: "chat", temperature: FULL_RANGE, reasoningEfforts: null, images: true, openaiModel: false },
];

const DATE_SUFFIX = /-\d{4}-\d{2}-\d{2}$/;

/** The id rules are looked up by: lower case, no date, no Ollama tag or namespace, no OpenRouter "openai/". */
export function rulesIdOf(model: string, flavor: OpenAIFlavor): string {
  let id = model.trim().toLowerCase();
  if (flavor === "openrouter" || flavor === "compatible") id = id.replace(/^openai\//, "");
  if (flavor === "ollama" || flavor === "compatible") {
    id = id.replace(/:[^/:]*$/, "");
    id = id.replace(/^(registry\.ollama\.ai\/)?(library\/)?/, "");
  }
  return id.replace(DATE_SUFFIX, "");
}

/**
 * The token field a server takes when the model is not one of OpenAI's: Ollama and OpenRouter
 * document only `max_tokens` [ollama][openrouter]; most compatible servers (vLLM, LM Studio) too.
 * OpenAI and Azure take `max_completion_tokens`, which every current model there accepts [spec].
 */
function serverTokenField(flavor: OpenAIFlavor): OpenAIModelRules["tokenField"] {
  return flavor === "openai" || flavor === "azure" ? "max_completion_tokens" : "max_tokens";
}

/**
 * The rules for one model id on one flavor of endpoint. Never throws: an unknown id gets the
 * safe choice (no temperature, no reasoning_effort, the server's modern token field) and
 * `known: false`, which callers turn into a start-up warning.
 *
 * @example
 * openaiModelRules("gpt-5-mini").temperature; // null: only the default is accepted
 * openaiModelRules("openai/gpt-4.1", "openrouter").tokenField; // "max_tokens": OpenRouter's field
 */
export function openaiModelRules(model: string, flavor: OpenAIFlavor = "openai"): OpenAIModelRules {
  const id = rulesIdOf(model, flavor);
  const families = flavor === "ollama" || flavor === "compatible" ? [...OPENAI_FAMILIES, ...OLLAMA_VISION_FAMILIES] : OPENAI_FAMILIES;
  const found = families.find((f) => f.match.test(id));
  if (!found) {
    return {
      model: id,
      known: false,
      family: "unknown",
      kind: /embed/.test(id) ? "embedding" : "chat",
      temperature: null,
      tokenField: serverTokenField(flavor),
      reasoningEfforts: null,
      images: true,
      dimensions: null,
      usableFinishReasons: STOP_ONLY,
    };
  }
  // OpenRouter takes max_tokens for every model and maps it to the provider's field itself [openrouter].
  const tokenField = flavor === "openrouter" ? "max_tokens" : found.openaiModel ? "max_completion_tokens" : serverTokenField(flavor);
  return {
    model: id,
    known: true,
    family: found.family,
    kind: found.kind,
    temperature: found.temperature,
    tokenField,
    reasoningEfforts: found.reasoningEfforts,
    images: found.images,
    dimensions: found.dimensions ?? null,
    usableFinishReasons: STOP_ONLY,
  };
}

/**
 * The reasoning effort to send: the configured one if this model takes it, else none at all
 * (an effort a model lacks is a 400 [spec ReasoningEffort]).
 */
export function reasoningEffortFor(rules: OpenAIModelRules, configured: OpenAIReasoningEffort | undefined): OpenAIReasoningEffort | null {
  if (configured === undefined || rules.reasoningEfforts === null) return null;
  return rules.reasoningEfforts.includes(configured) ? configured : null;
}

/** The families above as table rows for docs/models.md and the preflight command. */
export function openaiCapabilityRows(): CapabilityRow[] {
  const reasoning = (efforts: readonly string[] | null) => (efforts ? `reasoning_effort (${efforts.join(", ")}; other values not sent)` : "none (reasoning_effort not sent)");
  const temperature = (t: Family["temperature"]) => (t ? `${t.min}–${t.max}, as configured` : "never sent (only the default is accepted)");
  const rows: CapabilityRow[] = [];
  for (const f of OPENAI_FAMILIES) {
    rows.push({
      provider: "openai",
      family: f.family,
      roles: f.kind === "embedding" ? ["embedder"] : ["generator", "voter"],
      temperature: f.kind === "embedding" ? "n/a" : temperature(f.temperature),
      tokenLimit: f.kind === "embedding" ? "n/a" : "max_completion_tokens (also on Azure, EU residency and proxies; max_tokens on OpenRouter)",
      reasoning: reasoning(f.reasoningEfforts),
      usableStops: f.kind === "embedding" ? "n/a" : "stop",
      apiVersion: "v1 (Azure: api-version 2025-04-01-preview by default)",
      source: "openai-openapi CreateChatCompletionRequest; developers.openai.com/api/docs/guides/reasoning",
    });
  }
  for (const f of OLLAMA_VISION_FAMILIES) {
    rows.push({
      provider: "ollama",
      family: f.family,
      roles: ["generator", "voter"],
      temperature: temperature(f.temperature),
      tokenLimit: "max_tokens",
      reasoning: "none (these models do not think); context size only via a Modelfile num_ctx",
      usableStops: "stop",
      apiVersion: "/v1 (OpenAI compatibility)",
      source: "ollama docs/api/openai-compatibility.mdx",
    });
  }
  rows.push({
    provider: "openai",
    family: "unknown model (any other id)",
    roles: ["generator", "voter", "embedder"],
    temperature: "never sent",
    tokenLimit: "max_completion_tokens on OpenAI and Azure, max_tokens elsewhere",
    reasoning: "none",
    usableStops: "stop",
    apiVersion: "as the endpoint",
    source: "safe default: a warning at start",
  });
  return rows;
}
