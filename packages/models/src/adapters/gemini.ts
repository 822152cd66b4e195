import { ApiError, GoogleGenAI, type GenerateContentResponse, type Part } from "@google/genai";
import { isModelError, type ModelError } from "../model-error.ts";
import { createCallPolicy, type CallPolicy } from "../resilience/call-policy.ts";
import { badResponse, modelErrorFromHttpFailure, type ModelTarget } from "../resilience/http-failure.ts";
import { retryAfterMs } from "../resilience/retry-after.ts";
import type { Embedder, GenerateRequest, GenerateResult, Generator } from "../types.ts";
import { DEFAULT_MAX_OUTPUT_TOKENS, labelledImages, toBase64 } from "./prompt-parts.ts";
import { embedInBatches } from "./embed-in-batches.ts";

export const GEMINI_DEFAULT_BASE_URL = "https://generativelanguage.googleapis.com";

export interface GeminiOptions {
  model: string;
  apiKey: string;
  baseURL?: string;
  /** Shared retry, timeout and concurrency policy; one per provider. */
  policy?: CallPolicy;
}

export interface GeminiEmbedderOptions extends GeminiOptions {
  /** batchEmbedContents takes at most 100 requests; larger inputs go in further calls. */
  maxBatchSize?: number;
  /** Default SEMANTIC_SIMILARITY: answers are compared with anchor statements by cosine. */
  taskType?: string;
}

function createClient(options: GeminiOptions): GoogleGenAI {
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

function textOf(response: GenerateContentResponse): string {
  const parts: Part[] = response.candidates?.[0]?.content?.parts ?? [];
  // Thought summaries are the model's scratch work, not its answer.
  return parts
    .filter((p) => typeof p.text === "string" && !p.thought)
    .map((p) => p.text)
    .join("")
    .trim();
}

/**
 * A generator on the Gemini API's generateContent.
 *
 * @example
 * const gen = createGeminiGenerator({ model: "gemini-2.5-flash", apiKey: process.env.GEMINI_API_KEY! });
 */
export function createGeminiGenerator(options: GeminiOptions): Generator {
  const provider = "gemini";
  const model = options.model;
  const target = { provider, model };
  const policy = options.policy ?? createCallPolicy();
  const client = createClient(options);

  return {
    provider,
    model,
    async generate(req: GenerateRequest): Promise<GenerateResult> {
      const parts: Part[] = [];
      for (const { label, image } of labelledImages(req.images)) {
        if (label) parts.push({ text: label });
        parts.push({ inlineData: { mimeType: image.mime, data: toBase64(image.bytes) } });
      }
      parts.push({ text: req.user });

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
                maxOutputTokens: req.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
                ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
                abortSignal: signal,
                httpOptions: { fetch },
              },
            }),
          ),
        unexpected(target),
      );
      const text = textOf(response);
      if (!text) {
        const reason = response.promptFeedback?.blockReason ?? response.candidates?.[0]?.finishReason;
        throw badResponse(target, `returned no text${reason ? ` (${reason})` : ""}`);
      }
      const usage = response.usageMetadata;
      return {
        text,
        provider,
        model,
        simulated: false,
        ...(usage ? { usage: { inputTokens: usage.promptTokenCount, outputTokens: usage.candidatesTokenCount } } : {}),
      };
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
