import { ApiError, GoogleGenAI, ThinkingLevel, type Content, type GenerateContentResponse, type GoogleGenAIOptions, type Part, type ThinkingConfig } from "@google/genai";
import { geminiFinishMeaning, geminiModelRules, thinkingPlan, type GeminiModelRules, type ThinkingPlan } from "../capabilities/gemini.ts";
import { cachesScoringPrefix, geminiPromptCacheMinimum } from "../capabilities/prompt-cache.ts";
import { isModelError, type ModelError } from "../model-error.ts";
import { askUntilAnswered, stopReason, type AnswerAttempt } from "../resilience/ask-until-answered.ts";
import { createCallPolicy, type CallPolicy } from "../resilience/call-policy.ts";
import { meaningOfGoogleError, parseGoogleError } from "../resilience/gemini-retry-info.ts";
import { badResponse, modelErrorFromHttpFailure, type ModelTarget } from "../resilience/http-failure.ts";
import type { ModelSettings } from "../resilience/model-settings.ts";
import { retryAfterMs } from "../resilience/retry-after.ts";
import type { Embedder, GenerateRequest, GenerateResult, Generator, TokenUsage } from "../types.ts";
import { DEFAULT_ANSWER_RETRIES, DEFAULT_MAX_OUTPUT_TOKENS, type GenerationOptions } from "./generation-options.ts";
import { labelledImages, toBase64 } from "./prompt-parts.ts";
import { modelVersionField } from "./reported-model-version.ts";
import { sentSettingStatement } from "./sent-setting-statement.ts";
import { embedInBatches } from "./embed-in-batches.ts";

export const GEMINI_DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com";

/**
 * Thinking tokens per call when none is configured. A persona answer needs little reasoning;
 * the budget is translated per model (`thinkingPlan` in capabilities/gemini.ts): 2.5 Flash and
 * Pro take 512 as is, 2.0 gets no thinkingConfig, Gemini 3 gets thinkingLevel LOW.
 */
export const DEFAULT_GEMINI_THINKING_BUDGET = 512;

/** Gemini API versions we can call; v1beta serves previews, `-latest` aliases and thinkingLevel. */
export type GeminiApiVersion = "v1beta" | "v1";

/** Where and as whom to call: what a generator and an embedder share. */
export interface GeminiConnection {
  model: string;
  /** Label in results and errors: "gemini", or the name of a provider profile. Default "gemini". */
  provider?: string;
  apiKey: string;
  baseURL?: string;
  /** Default "v1beta": the version that serves every supported id (see GEMINI_API_VERSION). */
  apiVersion?: GeminiApiVersion;
  /** Shared retry, timeout and concurrency policy; one per provider. */
  policy?: CallPolicy;
  /** The operator's setting names, for the fix sentence of a misconfiguration. */
  settings?: ModelSettings;
}

export interface GeminiThinkingOptions {
  /**
   * Thinking budget in tokens (default 512); -1 asks for dynamic thinking. Moved to what the
   * model takes: not sent to 2.0, clamped into 2.5's range (0 becomes 128 on 2.5 Pro, which
   * cannot stop thinking), mapped to a thinkingLevel on Gemini 3. Gemini counts thinking
   * inside maxOutputTokens, so that is the answer budget plus the thinking allowance.
   */
  thinkingBudget?: number;
}

export interface GeminiOptions extends GeminiConnection, GenerationOptions, GeminiThinkingOptions {}

export interface GeminiEmbedderOptions extends GeminiConnection {
  /** batchEmbedContents takes at most 100 requests; larger inputs go in further calls. */
  maxBatchSize?: number;
  /** Default SEMANTIC_SIMILARITY: answers are compared with anchor statements by cosine. */
  taskType?: string;
  /** outputDimensionality; absent: the model's full length. */
  dimensions?: number;
}

/**
 * Every value the SDK would otherwise read from the environment is set here (its constructor,
 * node/index.mjs `GoogleGenAI`: GOOGLE_GENAI_USE_VERTEXAI/ENTERPRISE, GOOGLE_API_KEY,
 * GEMINI_API_KEY, GOOGLE_GEMINI_BASE_URL, GOOGLE_GENAI_API_VERSION): only our configuration
 * reaches the client. No retryOptions: the SDK makes one attempt and our policy owns retries.
 */
function createClient(options: GeminiConnection): GoogleGenAI {
  const apiVersion = options.apiVersion ?? "v1beta";
  const init: GoogleGenAIOptions = { vertexai: false, apiKey: options.apiKey, apiVersion, httpOptions: { baseUrl: options.baseURL ?? GEMINI_DEFAULT_BASE_URL, apiVersion } };
  return new GoogleGenAI(init);
}

/**
 * The SDK's ApiError keeps the status and body but drops the response headers, so each
 * attempt runs through a fetch of its own that remembers them (for Retry-After) and whether
 * the network itself failed.
 */
export function probedFetch() {
  const seen: { headers?: Headers; networkFailure: boolean } = { networkFailure: false };
  const probe = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    try {
      const response = await fetch(input, init);
      if (!response.ok) seen.headers = response.headers;
      return response;
    } catch (err) {
      seen.networkFailure = true;
      throw err;
    }
  };
  return { seen, fetch: probe };
}

export type ProbeFetch = ReturnType<typeof probedFetch>["fetch"];

/**
 * One SDK call as a ModelError on failure. The error body's google.rpc details decide what
 * the status alone cannot: RetryInfo's delay, a daily quota, a bad key, a parameter the model
 * refuses, a region (resilience/gemini-retry-info.ts).
 */
export async function attemptWithProbe<T>(target: ModelTarget, now: () => number, call: (fetch: ProbeFetch) => Promise<T>): Promise<T> {
  const { seen, fetch: probe } = probedFetch();
  try {
    return await call(probe);
  } catch (err) {
    if (isModelError(err)) throw err;
    if (err instanceof ApiError) {
      const info = parseGoogleError(err.message);
      const meaning = meaningOfGoogleError(err.status, info);
      const wait = info?.retryDelayMs ?? retryAfterMs(seen.headers, now());
      throw modelErrorFromHttpFailure(target, { status: err.status, ...(wait === undefined ? {} : { retryAfterMs: wait }), code: info?.status ?? null, ...(meaning ? { meaning } : {}), cause: err });
    }
    if (seen.networkFailure) throw modelErrorFromHttpFailure(target, { cause: err });
    throw badResponse(target, "failed while handling the response", err);
  }
}

export const unexpected = (target: ModelTarget) => (err: unknown): ModelError => (isModelError(err) ? err : badResponse(target, "failed unexpectedly", err));

function usageOf(response: GenerateContentResponse): TokenUsage | undefined {
  const usage = response.usageMetadata;
  if (!usage) return undefined;
  // candidatesTokenCount leaves the thoughts out, but they are billed as output too.
  const thoughts = usage.thoughtsTokenCount;
  // promptTokenCount already holds the cached tokens (SDK GenerateContentResponseUsageMetadata).
  const cached = usage.cachedContentTokenCount;
  return {
    inputTokens: usage.promptTokenCount ?? 0,
    outputTokens: (usage.candidatesTokenCount ?? 0) + (thoughts ?? 0),
    ...(typeof thoughts === "number" ? { reasoningTokens: thoughts } : {}),
    ...(typeof cached === "number" ? { cachedInputTokens: cached } : {}),
  };
}

/** One response read by the finish-reason table (capabilities/gemini.ts): only STOP text is an answer. */
export function answerOf(response: GenerateContentResponse): AnswerAttempt {
  const candidate = response.candidates?.[0];
  const parts: Part[] = candidate?.content?.parts ?? [];
  // Thought summaries are the model's scratch work, not its answer.
  const text = parts
    .filter((p) => typeof p.text === "string" && !p.thought)
    .map((p) => p.text)
    .join("")
    .trim();
  const blockReason = response.promptFeedback?.blockReason;
  const finishReason = candidate?.finishReason;
  // The model version used to generate the response (SDK GenerateContentResponse.modelVersion).
  const version = modelVersionField(response.modelVersion);
  // A blocked prompt (any BlockedReason, SDK genai.d.ts) is about this content: asking again is blocked alike.
  if (blockReason !== undefined) return { text, truncated: false, refused: true, stop: stopReason("block reason", blockReason), usage: usageOf(response), ...version };
  const meaning = geminiFinishMeaning(finishReason);
  return {
    text,
    truncated: meaning === "cut_off",
    refused: meaning === "refused",
    ...(meaning === "ask_again" ? { unusable: "ask-again" as const } : meaning === "give_up" ? { unusable: "give-up" as const } : {}),
    stop: stopReason("finish reason", finishReason),
    usage: usageOf(response),
    ...version,
  };
}

/** The user turn: each image (labelled when there are several) and then the text. */
export function userContent(req: GenerateRequest): Content {
  const parts: Part[] = [];
  for (const { label, image } of labelledImages(req.images)) {
    if (label) parts.push({ text: label });
    parts.push({ inlineData: { mimeType: image.mime, data: toBase64(image.bytes) } });
  }
  parts.push({ text: req.user });
  return { role: "user", parts };
}

/** What a Gemini-family generator needs besides its transport: shared by the Gemini API and Vertex adapters. */
export interface GeminiGeneratorCore {
  provider: string;
  target: ModelTarget;
  rules: GeminiModelRules;
  plan: ThinkingPlan;
  policy: CallPolicy;
  options: GenerationOptions;
  /** One attempt: the SDK call for this request, this output limit and this signal. */
  call(req: GenerateRequest, config: GenerateConfig, signal: AbortSignal): Promise<GenerateContentResponse>;
}

/** The generation config of one attempt, as the SDK's GenerateContentConfig takes it. */
export interface GenerateConfig {
  systemInstruction: string;
  maxOutputTokens: number;
  temperature?: number;
  thinkingConfig?: ThinkingConfig;
}

/** The plan's thinkingConfig in the SDK's own types (its ThinkingLevel enum names the same values). */
function sdkThinkingConfig(config: NonNullable<ThinkingPlan["config"]>): ThinkingConfig {
  if ("thinkingLevel" in config) return { thinkingLevel: ThinkingLevel[config.thinkingLevel], includeThoughts: false };
  return { thinkingBudget: config.thinkingBudget, includeThoughts: false };
}

/** A generator from the parts every Gemini transport shares: thinking plan, output limit, finish reasons, re-asking. */
export function geminiFamilyGenerator(core: GeminiGeneratorCore): Generator {
  const { provider, target, rules, plan, policy } = core;
  const answerBudget = core.options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  const retries = core.options.answerRetries ?? DEFAULT_ANSWER_RETRIES;
  // An unknown model gets no temperature (the safe choice); a known one takes 0-2 as configured.
  const temperature = rules.known ? (core.options.temperature ?? null) : null;
  const thinkingConfig = plan.config ? sdkThinkingConfig(plan.config) : undefined;

  return {
    provider,
    model: target.model,
    temperature,
    thinking: sentSettingStatement(thinkingConfig ? { thinkingConfig } : undefined),
    // Implicit caching needs no request field; userContent puts the image before the text.
    cachesPrompts: cachesScoringPrefix(geminiPromptCacheMinimum(rules.family)),
    async generate(req: GenerateRequest): Promise<GenerateResult> {
      const sentTemperature = temperature === null ? null : (req.temperature ?? temperature);
      const firstLimit = (req.maxOutputTokens ?? answerBudget) + plan.thinkingTokens;
      const answered = await askUntilAnswered(target, { outputLimit: firstLimit, retries }, async (outputLimit) => {
        const config: GenerateConfig = {
          systemInstruction: req.system,
          // The model refuses more than its maximum output, thinking included.
          maxOutputTokens: rules.known ? Math.min(outputLimit, rules.maxOutputTokens) : outputLimit,
          ...(sentTemperature === null ? {} : { temperature: sentTemperature }),
          ...(thinkingConfig ? { thinkingConfig } : {}),
        };
        const response = await policy.run(target, req.signal, (signal) => core.call(req, config, signal), unexpected(target), { deadlineAt: req.deadlineAt });
        return answerOf(response);
      });
      return { text: answered.text, provider, model: target.model, simulated: false, ...(answered.modelVersion === undefined ? {} : { modelVersion: answered.modelVersion }), ...(answered.usage ? { usage: answered.usage } : {}) };
    },
  };
}

/**
 * A generator on the Gemini API's generateContent. Thinking follows the model's rules
 * (capabilities/gemini.ts); an empty, cut-off or otherwise unusable answer (RECITATION, OTHER,
 * ...) is asked again (see `askUntilAnswered`); a safety stop is a refusal.
 *
 * @example
 * const gen = createGeminiGenerator({ model: "gemini-2.5-flash", apiKey: process.env.GEMINI_API_KEY!, temperature: 0.5 });
 */
export function createGeminiGenerator(options: GeminiOptions): Generator {
  const provider = options.provider ?? "gemini";
  const model = options.model;
  const target: ModelTarget = { provider, model, ...(options.settings ? { settings: options.settings } : {}) };
  const policy = options.policy ?? createCallPolicy();
  const client = createClient(options);
  const rules = geminiModelRules(model);
  const plan = thinkingPlan(rules, options.thinkingBudget ?? DEFAULT_GEMINI_THINKING_BUDGET);

  return geminiFamilyGenerator({
    provider,
    target,
    rules,
    plan,
    policy,
    options,
    call: (req, config, signal) =>
      attemptWithProbe(target, policy.now, (fetch) =>
        client.models.generateContent({ model, contents: [userContent(req)], config: { ...config, abortSignal: signal, httpOptions: { fetch } } }),
      ),
  });
}

/**
 * Embeddings through batchEmbedContents, up to `maxBatchSize` texts per call. Each text is
 * its own Content: given plain strings, the SDK merges them into ONE Content for
 * gemini-embedding-2 (node/index.mjs `embedContent` -> `tContents`), which that model embeds
 * as a single vector. Content objects are kept apart (`tContents` keeps a Content array as is),
 * so every text becomes its own request and gets its own vector.
 */
export function createGeminiEmbedder(options: GeminiEmbedderOptions): Embedder {
  const provider = options.provider ?? "gemini";
  const model = options.model;
  const target: ModelTarget = { provider, model, ...(options.settings ? { settings: options.settings } : {}) };
  const policy = options.policy ?? createCallPolicy();
  const client = createClient(options);
  const rules = geminiModelRules(model);
  const maxBatchSize = Math.min(options.maxBatchSize ?? 100, rules.embedding?.maxBatch ?? 100);
  const taskType = options.taskType ?? "SEMANTIC_SIMILARITY";

  const embedBatch = async (texts: string[], signal: AbortSignal | undefined): Promise<number[][]> => {
    const contents: Content[] = texts.map((text) => ({ role: "user", parts: [{ text }] }));
    const response = await policy.run(
      target,
      signal,
      (s) =>
        attemptWithProbe(target, policy.now, (fetch) =>
          client.models.embedContent({ model, contents, config: { taskType, ...(options.dimensions ? { outputDimensionality: options.dimensions } : {}), abortSignal: s, httpOptions: { fetch } } }),
        ),
      unexpected(target),
    );
    const vectors = (response.embeddings ?? []).map((e) => e.values ?? []);
    if (vectors.length !== texts.length || vectors.some((v) => v.length === 0)) {
      throw badResponse(target, `returned ${vectors.length} embeddings for ${texts.length} texts`);
    }
    return vectors;
  };

  return {
    provider,
    model,
    embed: (texts, signal) => embedInBatches(texts, maxBatchSize, embedBatch, signal),
  };
}
