import { createHash } from "node:crypto";
import OpenAI, { APIError, AzureOpenAI } from "openai";
import type { ChatCompletion, ChatCompletionContentPart, ChatCompletionCreateParamsNonStreaming, ChatCompletionMessageParam } from "openai/resources/chat/completions";
import { openaiModelRules, reasoningEffortFor, type OpenAIFlavor, type OpenAIModelRules, type OpenAIReasoningEffort } from "../capabilities/openai.ts";
import { cachesScoringPrefix, OPENAI_PROMPT_CACHE_MINIMUM } from "../capabilities/prompt-cache.ts";
import type { MisconfigurationCause, ModelError } from "../model-error.ts";
import { askUntilAnswered, stopReason, type AnswerAttempt } from "../resilience/ask-until-answered.ts";
import { createCallPolicy, type CallPolicy } from "../resilience/call-policy.ts";
import { badResponse, modelErrorFromHttpFailure, type ModelTarget } from "../resilience/http-failure.ts";
import type { ModelSettings } from "../resilience/model-settings.ts";
import { openAIRetryAfterMs } from "../resilience/openai-rate-limit.ts";
import type { Embedder, GenerateRequest, GenerateResult, Generator, TokenUsage } from "../types.ts";
import { DEFAULT_ANSWER_RETRIES, DEFAULT_MAX_OUTPUT_TOKENS, type GenerationOptions } from "./generation-options.ts";
import { labelledImages, toBase64 } from "./prompt-parts.ts";
import { embedInBatches } from "./embed-in-batches.ts";
import { modelVersionField } from "./reported-model-version.ts";
import { sentSettingStatement } from "./sent-setting-statement.ts";

export { OPENAI_FLAVORS, OPENAI_REASONING_EFFORTS, type OpenAIFlavor, type OpenAIReasoningEffort } from "../capabilities/openai.ts";

export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";
export const OPENROUTER_DEFAULT_BASE_URL = "https://openrouter.ai/api/v1";
export const OLLAMA_DEFAULT_OPENAI_BASE_URL = "http://127.0.0.1:11434/v1";
/**
 * The dated Azure OpenAI API version sent as `api-version` when none is configured: the first
 * to take GPT-5 and the o-series' `reasoning_effort` and `max_completion_tokens`
 * (learn.microsoft.com/azure/ai-foundry/openai/how-to/reasoning).
 */
export const AZURE_OPENAI_DEFAULT_API_VERSION = "2025-04-01-preview";

/**
 * Output tokens reserved for reasoning when a reasoning effort is sent. Only a ceiling (tokens
 * used are billed, not the limit); a persona answer rarely needs more reasoning, and a call
 * that does is asked again with a larger limit.
 */
export const DEFAULT_OPENAI_REASONING_BUDGET = 8192;

/** Where and as whom to call: what a generator and an embedder of one server share. */
export interface OpenAICompatibleConnection {
  /** The model id; on Azure, the deployment name. */
  model: string;
  /** Empty or absent: no Authorization header is sent (Ollama, LM Studio and vLLM need none). Azure: sent as `api-key`. */
  apiKey?: string;
  /** The /v1 address; on Azure, the resource endpoint (https://<resource>.openai.azure.com). */
  baseURL?: string;
  /** What kind of server this is. Default "openai" when `baseURL` is OpenAI's (any region), else "compatible". */
  flavor?: OpenAIFlavor;
  /** Label in results and errors. Default: the flavor ("openai" for a compatible server). */
  provider?: string;
  /** Shared retry, timeout and concurrency policy; one per provider. */
  policy?: CallPolicy;
  /** The operator's setting names, so a misconfiguration's fix names them. */
  settings?: ModelSettings;
  /** Azure only: the `api-version` query. Default AZURE_OPENAI_DEFAULT_API_VERSION. */
  apiVersion?: string;
  /** OpenRouter only: sent as `HTTP-Referer`, for its app attribution. */
  appUrl?: string;
  /** OpenRouter only: sent as `X-Title`, for its app attribution. */
  appTitle?: string;
}

export interface OpenAICompatibleOptions extends OpenAICompatibleConnection, GenerationOptions {
  /**
   * The model whose rules apply when `model` is a name of the operator's choosing: an Azure
   * deployment ("ranker" serving gpt-4.1) or an Ollama model built from a Modelfile.
   */
  rulesModel?: string;
  /** Overrides the token field the model's rules choose (a server that knows only one of them). */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
  /**
   * Sent as `reasoning_effort` to models that take this value (see capabilities/openai.ts);
   * to others it is not sent. Absent: never sent.
   */
  reasoningEffort?: OpenAIReasoningEffort;
  /**
   * Tokens added to the answer budget when a reasoning effort is sent, because OpenAI counts
   * reasoning inside the output limit. Default 8192.
   */
  reasoningBudget?: number;
}

export interface OpenAICompatibleEmbedderOptions extends OpenAICompatibleConnection {
  /** Inputs per request; OpenAI accepts up to 2048. Texts beyond it go in further calls. */
  maxBatchSize?: number;
}

const OPENAI_HOST = /^([a-z]{2}\.)?api\.openai\.com$/;

/** OpenAI's own API, in any data-residency region (eu.api.openai.com, ...). */
function isOpenAIURL(baseURL: string | undefined): boolean {
  if (baseURL === undefined) return true;
  try {
    return OPENAI_HOST.test(new URL(baseURL).hostname);
  } catch {
    return false;
  }
}

export function flavorOf(options: Pick<OpenAICompatibleConnection, "flavor" | "baseURL">): OpenAIFlavor {
  return options.flavor ?? (isOpenAIURL(options.baseURL) ? "openai" : "compatible");
}

/**
 * Headers the SDK would add from OPENAI_CUSTOM_HEADERS (read in its constructor whatever we
 * pass), each set to null so they are removed: ambient variables must not reach our requests.
 */
function ambientHeadersRemoved(): Record<string, null> {
  const removed: Record<string, null> = {};
  for (const line of (process.env["OPENAI_CUSTOM_HEADERS"] ?? "").split("\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) removed[line.slice(0, colon).trim()] = null;
  }
  return removed;
}

function azureResourceURL(baseURL: string | undefined): string {
  if (!baseURL) throw new Error("an Azure OpenAI model needs baseURL: the resource endpoint, e.g. https://my-resource.openai.azure.com");
  const trimmed = baseURL.replace(/\/+$/, "");
  return trimmed.endsWith("/openai") ? trimmed : `${trimmed}/openai`;
}

function createClient(options: OpenAICompatibleConnection, flavor: OpenAIFlavor, policy: CallPolicy): OpenAI {
  const headers: Record<string, string | null> = ambientHeadersRemoved();
  if (!options.apiKey) headers["Authorization"] = null;
  if (flavor === "openrouter") {
    // Optional attribution (openrouter.ai/docs/api-reference/overview, "Headers").
    if (options.appUrl) headers["HTTP-Referer"] = options.appUrl;
    if (options.appTitle) headers["X-Title"] = options.appTitle;
  }
  // Explicit values and nulls for every option the SDK would otherwise read from OPENAI_* / AZURE_OPENAI_* variables.
  const shared = {
    organization: null,
    project: null,
    adminAPIKey: null,
    webhookSecret: null,
    maxRetries: 0,
    // A backstop only: our policy aborts each attempt on its own timer.
    timeout: policy.timeoutMs + 5_000,
    logLevel: "off",
    defaultHeaders: headers,
  } as const;
  if (flavor === "azure") {
    // The SDK's Azure client: `api-key` header, /openai/deployments/<deployment>/... paths and
    // the api-version query (node_modules/openai/azure.d.ts).
    return new AzureOpenAI({
      ...shared,
      baseURL: azureResourceURL(options.baseURL),
      apiKey: options.apiKey ?? "",
      apiVersion: options.apiVersion ?? AZURE_OPENAI_DEFAULT_API_VERSION,
      deployment: options.model,
    });
  }
  const defaultURL = flavor === "openrouter" ? OPENROUTER_DEFAULT_BASE_URL : flavor === "ollama" ? OLLAMA_DEFAULT_OPENAI_BASE_URL : OPENAI_DEFAULT_BASE_URL;
  return new OpenAI({
    ...shared,
    // The SDK refuses to start without a key; a keyless local server gets a placeholder that is never sent.
    apiKey: options.apiKey || "unused",
    baseURL: options.baseURL ?? defaultURL,
  });
}

/** The error object of an OpenAI-style body, as the SDK parsed it: OpenAI, Azure, OpenRouter and Ollama all nest it under `error`. */
interface ProviderErrorBody {
  code?: unknown;
  type?: unknown;
  param?: unknown;
  message?: unknown;
  innererror?: { code?: unknown };
}

// Codes that mean the provider refused the content itself, not our set-up: OpenAI's policy and
// image codes (developers.openai.com/api/docs/guides/error-codes), Azure's content filter
// (learn.microsoft.com/azure/ai-foundry/openai/concepts/content-filter).
const CONTENT_CODES = new Set(["content_policy_violation", "content_filter", "responsibleaipolicyviolation", "invalid_image", "invalid_image_format", "image_parse_error", "invalid_image_url", "image_content_policy_violation", "sanitizer_server_error"]);
const PARAMETER_CODES = new Set(["unsupported_parameter", "unsupported_value", "invalid_value", "integer_below_min_value", "integer_above_max_value", "decimal_below_min_value", "decimal_above_max_value"]);

/** What an error body says beyond its status, as `HttpFailure.meaning`. */
export function openAIErrorMeaning(status: number | undefined, flavor: OpenAIFlavor, error: ProviderErrorBody | undefined): "content" | MisconfigurationCause | undefined {
  const code = typeof error?.code === "string" ? error.code.toLowerCase() : undefined;
  const type = typeof error?.type === "string" ? error.type.toLowerCase() : undefined;
  const inner = typeof error?.innererror?.code === "string" ? error.innererror.code.toLowerCase() : undefined;
  if (code === "insufficient_quota" || type === "insufficient_quota") return "quota_exhausted";
  if ((code && CONTENT_CODES.has(code)) || (inner && CONTENT_CODES.has(inner))) return "content";
  // OpenRouter: 403 is "your input was flagged" by a model's moderation (openrouter.ai/docs/api-reference/errors).
  if (flavor === "openrouter" && status === 403) return "content";
  if (code === "model_not_found" || code === "deploymentnotfound") return "unknown_model";
  if (code && PARAMETER_CODES.has(code)) return "unsupported_parameter";
  if (status === 400 && type === "invalid_request_error" && typeof error?.param === "string" && error.param !== "" && error.param !== "messages") return "unsupported_parameter";
  return undefined;
}

function classify(target: ModelTarget, flavor: OpenAIFlavor, now: () => number) {
  return (err: unknown): ModelError => {
    if (err instanceof APIError) {
      const status = typeof err.status === "number" ? err.status : undefined;
      const error = typeof err.error === "object" && err.error !== null ? (err.error as ProviderErrorBody) : undefined;
      const rawCode: unknown = error?.code ?? err.type ?? null;
      const meaning = openAIErrorMeaning(status, flavor, error);
      return modelErrorFromHttpFailure(target, {
        status,
        retryAfterMs: openAIRetryAfterMs(err.headers, now()),
        code: typeof rawCode === "string" ? rawCode : typeof rawCode === "number" ? String(rawCode) : null,
        ...(meaning === undefined ? {} : { meaning }),
        cause: err,
      });
    }
    return badResponse(target, "failed while handling the response", err);
  };
}

function usageOf(completion: ChatCompletion): TokenUsage | undefined {
  const usage = completion.usage;
  if (!usage) return undefined;
  // completion_tokens already holds the reasoning tokens: that is what OpenAI bills as output.
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  // prompt_tokens already holds the cached tokens (developers.openai.com/api/docs/guides/prompt-caching).
  const cached = usage.prompt_tokens_details?.cached_tokens;
  const out: TokenUsage = { inputTokens: usage.prompt_tokens ?? 0, outputTokens: usage.completion_tokens ?? 0 };
  if (typeof reasoning === "number") out.reasoningTokens = reasoning;
  if (typeof cached === "number") out.cachedInputTokens = cached;
  return out;
}

function answerOf(completion: ChatCompletion): AnswerAttempt {
  const choice = completion.choices?.[0];
  const text = typeof choice?.message?.content === "string" ? choice.message.content.trim() : "";
  // The refusal text is the model's own prose and may echo the prompt: it is never shown.
  const refusedByModel = Boolean(choice?.message?.refusal);
  return {
    text,
    truncated: choice?.finish_reason === "length",
    refused: refusedByModel || choice?.finish_reason === "content_filter",
    stop: refusedByModel ? null : stopReason("finish reason", choice?.finish_reason),
    usage: usageOf(completion),
    // The snapshot that answered (SDK ChatCompletion.model); OpenRouter, Azure and Ollama fill it alike.
    ...modelVersionField(completion.model),
  };
}

/**
 * OpenRouter's chat request (openrouter.ai/docs/api-reference/overview): OpenAI's fields, with
 * its normalized `reasoning: {effort}` (openrouter.ai/docs/use-cases/reasoning-tokens) in place
 * of `reasoning_effort`, and `max_tokens` as the only output limit.
 */
interface OpenRouterChatRequest {
  model: string;
  messages: ChatCompletionMessageParam[];
  max_tokens: number;
  temperature?: number;
  reasoning?: { effort: OpenAIReasoningEffort };
}

/**
 * The reasoning control of every body, in the server's own spelling: OpenRouter's
 * `reasoning.effort` or everyone else's `reasoning_effort`. Empty when none is sent.
 */
interface ReasoningFields {
  reasoning_effort?: OpenAIReasoningEffort;
  reasoning?: { effort: OpenAIReasoningEffort };
}

/** What one generator sends, decided once from the model's rules and the options. */
interface WirePlan {
  rules: OpenAIModelRules;
  tokenField: "max_tokens" | "max_completion_tokens";
  effort: OpenAIReasoningEffort | null;
  reasoning: ReasoningFields;
  temperature: number | null;
}

function planFor(options: OpenAICompatibleOptions, flavor: OpenAIFlavor): WirePlan {
  const rules = openaiModelRules(options.rulesModel ?? options.model, flavor);
  const effort = reasoningEffortFor(rules, options.reasoningEffort);
  // A model that takes no temperature gets none, whatever the seat asks (it would answer 400).
  const temperature = rules.temperature === null || options.temperature === undefined ? null : clamp(options.temperature, rules.temperature);
  const reasoning: ReasoningFields = effort === null ? {} : flavor === "openrouter" ? { reasoning: { effort } } : { reasoning_effort: effort };
  return { rules, tokenField: options.maxTokensField ?? rules.tokenField, effort, reasoning, temperature };
}

const clamp = (value: number, range: { min: number; max: number }) => Math.min(range.max, Math.max(range.min, value));

/**
 * OpenAI and Azure OpenAI cache prompt prefixes of 1024 tokens and more automatically
 * (developers.openai.com/api/docs/guides/prompt-caching; learn.microsoft.com/azure/ai-foundry/openai/how-to/prompt-caching).
 * Through OpenRouter, Ollama or another compatible server it depends on what is behind it:
 * cached tokens are read when reported, but calls are not held back for a cache.
 */
function promptCacheMinimumOf(flavor: OpenAIFlavor): number | null {
  return flavor === "openai" || flavor === "azure" ? OPENAI_PROMPT_CACHE_MINIMUM : null;
}

/**
 * OpenAI's `prompt_cache_key` for a request: a digest of its stable prefix (the system text and
 * the images), so every sample of an evaluation, and both layers of an asset, are routed to the
 * machines that hold that prefix (prompt-caching guide, "prompt_cache_key"). At most 64
 * characters (openapi.yaml); sent to OpenAI's own API only, since other servers may refuse
 * a field they do not know.
 */
export function promptCacheKey(req: Pick<GenerateRequest, "system" | "images">): string {
  const hash = createHash("sha256").update(req.system).update("\u0000");
  for (const image of req.images) hash.update(image.mime).update(image.bytes);
  return `adrank-${hash.digest("base64url").slice(0, 43)}`;
}

/**
 * A generator on the chat completions API of OpenAI, Azure OpenAI, OpenRouter, Ollama or any
 * server that imitates it. What is sent (token field, temperature, reasoning effort) follows
 * the model's rules in capabilities/openai.ts. An empty or cut-off answer is asked again.
 *
 * @example
 * const gen = createOpenAICompatibleGenerator({ model: "llava:13b", flavor: "ollama", baseURL: "http://127.0.0.1:11434/v1", temperature: 0.5 });
 */
export function createOpenAICompatibleGenerator(options: OpenAICompatibleOptions): Generator {
  const flavor = flavorOf(options);
  const provider = options.provider ?? (flavor === "compatible" ? "openai" : flavor);
  const model = options.model;
  const target: ModelTarget = options.settings ? { provider, model, settings: options.settings } : { provider, model };
  const policy = options.policy ?? createCallPolicy();
  const client = createClient(options, flavor, policy);
  const plan = planFor(options, flavor);
  const answerBudget = options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  const reasoningBudget = plan.effort === null || plan.effort === "none" ? 0 : (options.reasoningBudget ?? DEFAULT_OPENAI_REASONING_BUDGET);
  const retries = options.answerRetries ?? DEFAULT_ANSWER_RETRIES;
  const onError = classify(target, flavor, policy.now);

  const send = (messages: ChatCompletionMessageParam[], outputLimit: number, temperature: number | null, signal: AbortSignal, cacheKey: string | null): Promise<ChatCompletion> => {
    if (flavor === "openrouter") {
      const body: OpenRouterChatRequest = { model, messages, max_tokens: outputLimit };
      if (temperature !== null) body.temperature = temperature;
      if (plan.reasoning.reasoning) body.reasoning = plan.reasoning.reasoning;
      return client.post<ChatCompletion>("/chat/completions", { body, signal });
    }
    const body: ChatCompletionCreateParamsNonStreaming = { model, messages };
    if (plan.tokenField === "max_completion_tokens") body.max_completion_tokens = outputLimit;
    else body.max_tokens = outputLimit;
    if (temperature !== null) body.temperature = temperature;
    if (plan.reasoning.reasoning_effort) body.reasoning_effort = plan.reasoning.reasoning_effort;
    if (cacheKey !== null) body.prompt_cache_key = cacheKey;
    return client.chat.completions.create(body, { signal });
  };

  return {
    provider,
    model,
    temperature: plan.temperature,
    thinking: sentSettingStatement(plan.reasoning),
    cachesPrompts: cachesScoringPrefix(promptCacheMinimumOf(flavor)),
    async generate(req: GenerateRequest): Promise<GenerateResult> {
      const content: ChatCompletionContentPart[] = [];
      for (const { label, image } of labelledImages(req.images)) {
        if (label) content.push({ type: "text", text: label });
        content.push({ type: "image_url", image_url: { url: `data:${image.mime};base64,${toBase64(image.bytes)}` } });
      }
      content.push({ type: "text", text: req.user });
      const messages: ChatCompletionMessageParam[] = [
        { role: "system", content: req.system },
        { role: "user", content },
      ];
      const range = plan.rules.temperature;
      const wanted = req.temperature ?? plan.temperature;
      const temperature = range === null || wanted === null ? null : clamp(wanted, range);
      const limits = req.deadlineAt === undefined ? {} : { deadlineAt: req.deadlineAt };

      const cacheKey = flavor === "openai" ? promptCacheKey(req) : null;
      const answered = await askUntilAnswered(target, { outputLimit: (req.maxOutputTokens ?? answerBudget) + reasoningBudget, retries }, async (outputLimit) => {
        const completion = await policy.run(target, req.signal, (signal) => send(messages, outputLimit, temperature, signal, cacheKey), onError, limits);
        return answerOf(completion);
      });
      const result: GenerateResult = { text: answered.text, provider, model, simulated: false };
      if (answered.modelVersion !== undefined) result.modelVersion = answered.modelVersion;
      if (answered.usage) result.usage = answered.usage;
      return result;
    },
  };
}

/** Embeddings with every text of a call in one batched request (up to `maxBatchSize`). */
export function createOpenAICompatibleEmbedder(options: OpenAICompatibleEmbedderOptions): Embedder {
  const flavor = flavorOf(options);
  const provider = options.provider ?? (flavor === "compatible" ? "openai" : flavor);
  const model = options.model;
  const target: ModelTarget = options.settings ? { provider, model, settings: options.settings } : { provider, model };
  const policy = options.policy ?? createCallPolicy();
  const client = createClient(options, flavor, policy);
  const maxBatchSize = options.maxBatchSize ?? 2048;
  const onError = classify(target, flavor, policy.now);

  const embedBatch = async (texts: string[], signal: AbortSignal | undefined): Promise<number[][]> => {
    // "float" because several compatible servers do not implement the SDK's default base64 encoding.
    const response = await policy.run(target, signal, (s) => client.embeddings.create({ model, input: texts, encoding_format: "float" }, { signal: s }), onError);
    const rows = [...(response.data ?? [])].sort((a, b) => a.index - b.index);
    if (rows.length !== texts.length || rows.some((row) => !Array.isArray(row.embedding) || row.embedding.length === 0)) {
      throw badResponse(target, `returned ${rows.length} embeddings for ${texts.length} texts`);
    }
    return rows.map((row) => row.embedding);
  };

  return {
    provider,
    model,
    embed: (texts, signal) => embedInBatches(texts, maxBatchSize, embedBatch, signal),
  };
}
