import { ApiError, GoogleGenAI, type GenerateContentResponse, type Part } from "@google/genai";
import { isModelError, type ModelError } from "../model-error.ts";
import { askUntilAnswered, stopReason, type AnswerAttempt } from "../resilience/ask-until-answered.ts";
import { createCallPolicy, type CallPolicy } from "../resilience/call-policy.ts";
import { badResponse, modelErrorFromHttpFailure, type ModelTarget } from "../resilience/http-failure.ts";
import { retryAfterMs } from "../resilience/retry-after.ts";
import type { Embedder, GenerateRequest, GenerateResult, Generator, TokenUsage } from "../types.ts";
import { DEFAULT_ANSWER_RETRIES, DEFAULT_MAX_OUTPUT_TOKENS, type GenerationOptions } from "./generation-options.ts";
import { labelledImages, toBase64 } from "./prompt-parts.ts";
import { embedInBatches } from "./embed-in-batches.ts";

export const GEMINI_DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com";

/**
 * Thinking tokens per call when none is configured. 512 is the one budget every Gemini 2.5
 * model takes: 2.5 Pro cannot stop thinking (0 is rejected, its range starts at 128) and
 * 2.5 Flash-Lite thinks in budgets from 512 up; 2.5 Flash takes 0 to 24576. It is small on
 * purpose: a persona answer needs little reasoning, and the budget is sent explicitly so the
 * output limit can hold it plus the whole answer budget.
 */
export const DEFAULT_GEMINI_THINKING_BUDGET = 512;

// Finish reasons that mean a safety or policy filter stopped the answer: asking again is blocked alike.
const BLOCKED_FINISH_REASONS: ReadonlySet<string> = new Set(["SAFETY", "BLOCKLIST", "PROHIBITED_CONTENT", "SPII", "IMAGE_SAFETY", "IMAGE_PROHIBITED_CONTENT"]);

/** Where and as whom to call: what a generator and an embedder share. */
export interface GeminiConnection {
  model: string;
  apiKey: string;
  baseURL?: string;
  /** Shared retry, timeout and concurrency policy; one per provider. */
  policy?: CallPolicy;
}

export interface GeminiOptions extends GeminiConnection, GenerationOptions {
  /**
   * Sent as `thinkingConfig.thinkingBudget` on every call (default 512; 0 turns thinking off
   * on 2.5 Flash and Flash-Lite, 2.5 Pro rejects it). Gemini counts thinking inside
   * `maxOutputTokens`, so that is this budget plus the answer budget.
   */
  thinkingBudget?: number;
}

export interface GeminiEmbedderOptions extends GeminiConnection {
  /** batchEmbedContents takes at most 100 requests; larger inputs go in further calls. */
  maxBatchSize?: number;
  /** Default SEMANTIC_SIMILARITY: answers are compared with anchor statements by cosine. */
  taskType?: string;
}

function createClient(options: GeminiConnection): GoogleGenAI {
  // No retryOptions: the SDK then makes exactly one attempt and our policy owns retries.
  return new GoogleGenAI({ apiKey: options.apiKey, vertexai: false, httpOptions: { baseUrl: options.baseURL ?? GEMINI_DEFAULT_BASE_URL } });
}

/**
 * The SDK's ApiError keeps the status but drops the response headers, so each attempt runs
 * through a fetch of its own that remembers them (for Retry-After) and whether the network
 * itself failed.
 */
function probedFetch() {
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

/** Gemini's error body carries a stable status name such as RESOURCE_EXHAUSTED. */
function statusName(err: ApiError): string | null {
  try {
    const body = JSON.parse(err.message) as { error?: { status?: unknown } };
    return typeof body.error?.status === "string" ? body.error.status : null;
  } catch {
    return null;
  }
}

async function attemptWithProbe<T>(target: ModelTarget, now: () => number, call: (fetch: ReturnType<typeof probedFetch>["fetch"]) => Promise<T>): Promise<T> {
  const { seen, fetch: probe } = probedFetch();
  try {
    return await call(probe);
  } catch (err) {
    if (isModelError(err)) throw err;
    if (err instanceof ApiError) {
      throw modelErrorFromHttpFailure(target, { status: err.status, retryAfterMs: retryAfterMs(seen.headers, now()), code: statusName(err), cause: err });
    }
    if (seen.networkFailure) throw modelErrorFromHttpFailure(target, { cause: err });
    throw badResponse(target, "failed while handling the response", err);
  }
}

const unexpected = (target: ModelTarget) => (err: unknown): ModelError => (isModelError(err) ? err : badResponse(target, "failed unexpectedly", err));

function usageOf(response: GenerateContentResponse): TokenUsage | undefined {
  const usage = response.usageMetadata;
  if (!usage) return undefined;
  // candidatesTokenCount leaves the thoughts out, but they are billed as output too.
  const thoughts = usage.thoughtsTokenCount;
  return {
    inputTokens: usage.promptTokenCount ?? 0,
    outputTokens: (usage.candidatesTokenCount ?? 0) + (thoughts ?? 0),
    ...(typeof thoughts === "number" ? { reasoningTokens: thoughts } : {}),
  };
}

function answerOf(response: GenerateContentResponse): AnswerAttempt {
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
  return {
    text,
    truncated: finishReason === "MAX_TOKENS",
    refused: blockReason !== undefined || (finishReason !== undefined && BLOCKED_FINISH_REASONS.has(finishReason)),
    stop: blockReason !== undefined ? stopReason("block reason", blockReason) : stopReason("finish reason", finishReason),
    usage: usageOf(response),
  };
}

/**
 * A generator on the Gemini API's generateContent. An empty or cut-off answer is asked again
 * (see `askUntilAnswered`).
 *
 * @example
 * const gen = createGeminiGenerator({ model: "gemini-2.5-flash", apiKey: process.env.GEMINI_API_KEY!, temperature: 0.5 });
 */
export function createGeminiGenerator(options: GeminiOptions): Generator {
  const provider = "gemini";
  const model = options.model;
  const target = { provider, model };
  const policy = options.policy ?? createCallPolicy();
  const client = createClient(options);
  const thinkingBudget = options.thinkingBudget ?? DEFAULT_GEMINI_THINKING_BUDGET;
  const answerBudget = options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  const retries = options.answerRetries ?? DEFAULT_ANSWER_RETRIES;
  const temperature = options.temperature ?? null;

  return {
    provider,
    model,
    temperature,
    async generate(req: GenerateRequest): Promise<GenerateResult> {
      const parts: Part[] = [];
      for (const { label, image } of labelledImages(req.images)) {
        if (label) parts.push({ text: label });
        parts.push({ inlineData: { mimeType: image.mime, data: toBase64(image.bytes) } });
      }
      parts.push({ text: req.user });
      const sentTemperature = req.temperature ?? temperature;

      const answered = await askUntilAnswered(target, { outputLimit: (req.maxOutputTokens ?? answerBudget) + thinkingBudget, retries }, async (outputLimit) => {
        const response = await policy.run(
          target,
          req.signal,
          (signal) =>
            attemptWithProbe(target, policy.now, (fetch) =>
              client.models.generateContent({
                model,
                contents: [{ role: "user", parts }],
                config: {
                  systemInstruction: req.system,
                  maxOutputTokens: outputLimit,
                  thinkingConfig: { thinkingBudget, includeThoughts: false },
                  ...(sentTemperature === null ? {} : { temperature: sentTemperature }),
                  abortSignal: signal,
                  httpOptions: { fetch },
                },
              }),
            ),
          unexpected(target),
        );
        return answerOf(response);
      });
      return { text: answered.text, provider, model, simulated: false, ...(answered.usage ? { usage: answered.usage } : {}) };
    },
  };
}

/** Embeddings through batchEmbedContents: all texts of a call in one request (up to `maxBatchSize`). */
export function createGeminiEmbedder(options: GeminiEmbedderOptions): Embedder {
  const provider = "gemini";
  const model = options.model;
  const target = { provider, model };
  const policy = options.policy ?? createCallPolicy();
  const client = createClient(options);
  const maxBatchSize = options.maxBatchSize ?? 100;
  const taskType = options.taskType ?? "SEMANTIC_SIMILARITY";

  const embedBatch = async (texts: string[], signal: AbortSignal | undefined): Promise<number[][]> => {
    const response = await policy.run(
      target,
      signal,
      (s) => attemptWithProbe(target, policy.now, (fetch) => client.models.embedContent({ model, contents: texts, config: { taskType, abortSignal: s, httpOptions: { fetch } } })),
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
