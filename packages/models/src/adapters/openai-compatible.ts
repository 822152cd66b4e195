import OpenAI, { APIError } from "openai";
import type { ChatCompletion, ChatCompletionContentPart, ChatCompletionCreateParamsNonStreaming } from "openai/resources/chat/completions";
import type { ReasoningEffort } from "openai/resources/shared";
import type { ModelError } from "../model-error.ts";
import { askUntilAnswered, stopReason, type AnswerAttempt } from "../resilience/ask-until-answered.ts";
import { createCallPolicy, type CallPolicy } from "../resilience/call-policy.ts";
import { badResponse, modelErrorFromHttpFailure, type ModelTarget } from "../resilience/http-failure.ts";
import { retryAfterMs } from "../resilience/retry-after.ts";
import type { Embedder, GenerateRequest, GenerateResult, Generator, TokenUsage } from "../types.ts";
import { DEFAULT_ANSWER_RETRIES, DEFAULT_MAX_OUTPUT_TOKENS, type GenerationOptions } from "./generation-options.ts";
import { labelledImages, toBase64 } from "./prompt-parts.ts";
import { embedInBatches } from "./embed-in-batches.ts";

export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";

/** The values OpenAI's `reasoning_effort` takes; not every reasoning model takes every one. */
export const OPENAI_REASONING_EFFORTS = ["none", "minimal", "low", "medium", "high", "xhigh", "max"] as const satisfies ReadonlyArray<NonNullable<ReasoningEffort>>;
export type OpenAIReasoningEffort = (typeof OPENAI_REASONING_EFFORTS)[number];

/**
 * Output tokens reserved for reasoning when a reasoning effort is set. Only a ceiling (tokens
 * used are billed, not the limit); a persona answer rarely needs more reasoning, and a call
 * that does is asked again with a larger limit.
 */
export const DEFAULT_OPENAI_REASONING_BUDGET = 8192;

/** Where and as whom to call: what a generator and an embedder of one server share. */
export interface OpenAICompatibleConnection {
  model: string;
  /** Empty or absent: no Authorization header is sent (Ollama, LM Studio and vLLM need none). */
  apiKey?: string;
  baseURL?: string;
  /** Label in results and errors, e.g. "openai" or "ollama". Default "openai". */
  provider?: string;
  /** Shared retry, timeout and concurrency policy; one per provider. */
  policy?: CallPolicy;
}

export interface OpenAICompatibleOptions extends OpenAICompatibleConnection, GenerationOptions {
  /**
   * OpenAI's newer models only accept `max_completion_tokens`; most compatible servers only
   * `max_tokens`. Default: the former for api.openai.com, the latter elsewhere.
   */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
  /**
   * Sent as `reasoning_effort`. Absent: not sent, since non-reasoning models reject it. When
   * set, no temperature is sent: reasoning models reject any but their default.
   */
  reasoningEffort?: OpenAIReasoningEffort;
  /**
   * Tokens added to the answer budget when `reasoningEffort` is set, because OpenAI counts
   * reasoning inside the output limit. Default 8192.
   */
  reasoningBudget?: number;
}

export interface OpenAICompatibleEmbedderOptions extends OpenAICompatibleConnection {
  /** Inputs per request; OpenAI accepts up to 2048. Texts beyond it go in further calls. */
  maxBatchSize?: number;
}

function createClient(options: OpenAICompatibleConnection, policy: CallPolicy): OpenAI {
  const keyless = !options.apiKey;
  return new OpenAI({
    // The SDK refuses to start without a key; a keyless local server gets a placeholder that is never sent.
    apiKey: options.apiKey || "unused",
    baseURL: options.baseURL ?? OPENAI_DEFAULT_BASE_URL,
    // Explicit nulls keep ambient OPENAI_* variables from leaking into the client.
    organization: null,
    project: null,
    adminAPIKey: null,
    maxRetries: 0,
    // A backstop only: our policy aborts each attempt on its own timer.
    timeout: policy.timeoutMs + 5_000,
    logLevel: "off",
    ...(keyless ? { defaultHeaders: { Authorization: null } } : {}),
  });
}

function classify(target: ModelTarget, now: () => number) {
  return (err: unknown): ModelError => {
    if (err instanceof APIError) {
      return modelErrorFromHttpFailure(target, {
        status: typeof err.status === "number" ? err.status : undefined,
        retryAfterMs: retryAfterMs(err.headers, now()),
        code: err.code ?? err.type ?? null,
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
  return { inputTokens: usage.prompt_tokens ?? 0, outputTokens: usage.completion_tokens ?? 0, ...(typeof reasoning === "number" ? { reasoningTokens: reasoning } : {}) };
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
  };
}

/**
 * A generator on the chat completions API of OpenAI or any server that imitates it. An empty
 * or cut-off answer is asked again (see `askUntilAnswered`).
 *
 * @example
 * const gen = createOpenAICompatibleGenerator({ model: "llava:13b", baseURL: "http://127.0.0.1:11434/v1", temperature: 0.5 });
 */
export function createOpenAICompatibleGenerator(options: OpenAICompatibleOptions): Generator {
  const provider = options.provider ?? "openai";
  const model = options.model;
  const target = { provider, model };
  const policy = options.policy ?? createCallPolicy();
  const client = createClient(options, policy);
  const isOfficial = (options.baseURL ?? OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, "") === OPENAI_DEFAULT_BASE_URL;
  const maxTokensField = options.maxTokensField ?? (isOfficial ? "max_completion_tokens" : "max_tokens");
  const reasoningEffort = options.reasoningEffort;
  const answerBudget = options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  const reasoningBudget = reasoningEffort === undefined ? 0 : (options.reasoningBudget ?? DEFAULT_OPENAI_REASONING_BUDGET);
  const retries = options.answerRetries ?? DEFAULT_ANSWER_RETRIES;
  const temperature = reasoningEffort === undefined ? (options.temperature ?? null) : null;

  return {
    provider,
    model,
    temperature,
    async generate(req: GenerateRequest): Promise<GenerateResult> {
      const content: ChatCompletionContentPart[] = [];
      for (const { label, image } of labelledImages(req.images)) {
        if (label) content.push({ type: "text", text: label });
        content.push({ type: "image_url", image_url: { url: `data:${image.mime};base64,${toBase64(image.bytes)}` } });
      }
      content.push({ type: "text", text: req.user });
      const sentTemperature = reasoningEffort === undefined ? (req.temperature ?? temperature) : null;
      const bodyFor = (outputLimit: number): ChatCompletionCreateParamsNonStreaming => ({
        model,
        messages: [
          { role: "system", content: req.system },
          { role: "user", content },
        ],
        [maxTokensField]: outputLimit,
        ...(reasoningEffort === undefined ? {} : { reasoning_effort: reasoningEffort }),
        ...(sentTemperature === null ? {} : { temperature: sentTemperature }),
      });

      const answered = await askUntilAnswered(target, { outputLimit: (req.maxOutputTokens ?? answerBudget) + reasoningBudget, retries }, async (outputLimit) => {
        const body = bodyFor(outputLimit);
        const completion = await policy.run(target, req.signal, (signal) => client.chat.completions.create(body, { signal }), classify(target, policy.now));
        return answerOf(completion);
      });
      return { text: answered.text, provider, model, simulated: false, ...(answered.usage ? { usage: answered.usage } : {}) };
    },
  };
}

/** Embeddings with every text of a call in one batched request (up to `maxBatchSize`). */
export function createOpenAICompatibleEmbedder(options: OpenAICompatibleEmbedderOptions): Embedder {
  const provider = options.provider ?? "openai";
  const model = options.model;
  const target = { provider, model };
  const policy = options.policy ?? createCallPolicy();
  const client = createClient(options, policy);
  const maxBatchSize = options.maxBatchSize ?? 2048;

  const embedBatch = async (texts: string[], signal: AbortSignal | undefined): Promise<number[][]> => {
    // "float" because several compatible servers do not implement the SDK's default base64 encoding.
    const response = await policy.run(target, signal, (s) => client.embeddings.create({ model, input: texts, encoding_format: "float" }, { signal: s }), classify(target, policy.now));
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
