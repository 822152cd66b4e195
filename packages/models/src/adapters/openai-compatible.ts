import OpenAI, { APIError } from "openai";
import type { ChatCompletionContentPart } from "openai/resources/chat/completions";
import type { ModelError } from "../model-error.ts";
import { createCallPolicy, type CallPolicy } from "../resilience/call-policy.ts";
import { badResponse, modelErrorFromHttpFailure, type ModelTarget } from "../resilience/http-failure.ts";
import { retryAfterMs } from "../resilience/retry-after.ts";
import type { Embedder, GenerateRequest, GenerateResult, Generator } from "../types.ts";
import { DEFAULT_MAX_OUTPUT_TOKENS, labelledImages, toBase64 } from "./prompt-parts.ts";
import { embedInBatches } from "./embed-in-batches.ts";

export const OPENAI_DEFAULT_BASE_URL = "https://api.openai.com/v1";

export interface OpenAICompatibleOptions {
  model: string;
  /** Empty or absent: no Authorization header is sent (Ollama, LM Studio and vLLM need none). */
  apiKey?: string;
  baseURL?: string;
  /** Label in results and errors, e.g. "openai" or "ollama". Default "openai". */
  provider?: string;
  /** Shared retry, timeout and concurrency policy; one per provider. */
  policy?: CallPolicy;
  /**
   * OpenAI's newer models only accept `max_completion_tokens`; most compatible servers only
   * `max_tokens`. Default: the former for api.openai.com, the latter elsewhere.
   */
  maxTokensField?: "max_tokens" | "max_completion_tokens";
}

export interface OpenAICompatibleEmbedderOptions extends OpenAICompatibleOptions {
  /** Inputs per request; OpenAI accepts up to 2048. Texts beyond it go in further calls. */
  maxBatchSize?: number;
}

function createClient(options: OpenAICompatibleOptions, policy: CallPolicy): OpenAI {
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

/**
 * A generator on the chat completions API of OpenAI or any server that imitates it.
 *
 * @example
 * const gen = createOpenAICompatibleGenerator({ model: "llava:13b", baseURL: "http://127.0.0.1:11434/v1" });
 */
export function createOpenAICompatibleGenerator(options: OpenAICompatibleOptions): Generator {
  const provider = options.provider ?? "openai";
  const model = options.model;
  const target = { provider, model };
  const policy = options.policy ?? createCallPolicy();
  const client = createClient(options, policy);
  const isOfficial = (options.baseURL ?? OPENAI_DEFAULT_BASE_URL).replace(/\/+$/, "") === OPENAI_DEFAULT_BASE_URL;
  const maxTokensField = options.maxTokensField ?? (isOfficial ? "max_completion_tokens" : "max_tokens");

  return {
    provider,
    model,
    async generate(req: GenerateRequest): Promise<GenerateResult> {
      const content: ChatCompletionContentPart[] = [];
      for (const { label, image } of labelledImages(req.images)) {
        if (label) content.push({ type: "text", text: label });
        content.push({ type: "image_url", image_url: { url: `data:${image.mime};base64,${toBase64(image.bytes)}` } });
      }
      content.push({ type: "text", text: req.user });
      const body = {
        model,
        messages: [
          { role: "system" as const, content: req.system },
          { role: "user" as const, content },
        ],
        [maxTokensField]: req.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
        ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
      };

      const completion = await policy.run(target, req.signal, (signal) => client.chat.completions.create(body, { signal }), classify(target, policy.now));
      const choice = completion.choices?.[0];
      const text = typeof choice?.message?.content === "string" ? choice.message.content.trim() : "";
      if (!text) {
        const why = choice?.message?.refusal ? "refused to answer" : `returned no text${choice?.finish_reason ? ` (finish reason ${choice.finish_reason})` : ""}`;
        throw badResponse(target, why);
      }
      return {
        text,
        provider,
        model,
        simulated: false,
        ...(completion.usage ? { usage: { inputTokens: completion.usage.prompt_tokens, outputTokens: completion.usage.completion_tokens } } : {}),
      };
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
