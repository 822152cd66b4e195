import type { RecordedRequest, Reply } from "../fake-provider.ts";
import { validateChatCompletionRequest, validateEmbeddingRequest } from "./openapi-validator.ts";
import { imageSize } from "./image-size.ts";
import { openaiImageTokens, textTokens } from "./image-tokens.ts";
import { createPromptCacheBook, digestOf, type CacheRules, type PromptAccount, type PromptPart } from "./prompt-cache-book.ts";
import { hashEmbedding, header, startStrictServer, type Check, type ModelCall, type PromptCaching, type ReportedModelOptions, type StrictFake, type StrictFakeOptions } from "./strict-fake.ts";

/**
 * A strict fake of OpenAI's API (chat completions and embeddings) at `<url>` = http://127.0.0.1:<port>/v1.
 *
 * Each request is checked first, as the real API does:
 * - the body against OpenAI's OpenAPI document (openapi-validator.ts), unknown top-level
 *   arguments included ("Unrecognized request argument supplied");
 * - the Bearer key (401 invalid_api_key; developers.openai.com/api/docs/guides/error-codes);
 * - the model exists and serves this endpoint (404 model_not_found);
 * - per-model rules the schema cannot express (developers.openai.com/api/docs/guides/reasoning;
 *   the CreateChatCompletionRequest `max_tokens` description): reasoning models (GPT-5 family,
 *   o-series) take only the default temperature (400 unsupported_value, param temperature) and
 *   refuse `max_tokens` (400 unsupported_parameter); `reasoning_effort` goes only to reasoning
 *   models and only with a value that model lists (400);
 * - images as base64 data URLs of a supported type (png, jpeg, webp, gif: developers.openai.com/api/docs/guides/images-vision);
 * - embeddings: the model's `dimensions` limit; text-embedding-ada-002 takes none (OpenAI embeddings guide).
 *
 * Usage is counted as OpenAI documents it: images by the model's formula (image-tokens.ts),
 * text at about 4 characters a token, and `prompt_tokens_details.cached_tokens` from the prompt
 * cache of prompt-cache-book.ts (automatic, 1024 tokens and up, 128-token steps). The
 * `prompt_cache_key` is accepted (it is in the schema) but, as only a routing hint, changes nothing here.
 *
 * The model table is written from those documents, independently of src/capabilities, so a
 * wrong rule in the adapter meets a refusal here instead of its own mirror image.
 */

export interface FakeChatModel {
  /** Only the default temperature (1) is accepted. */
  defaultTemperatureOnly: boolean;
  /** `max_tokens` is refused (reasoning models want max_completion_tokens). */
  refusesMaxTokens: boolean;
  /** Values of reasoning_effort accepted; null: the parameter is refused. */
  efforts: readonly string[] | null;
}

const GPT4: FakeChatModel = { defaultTemperatureOnly: false, refusesMaxTokens: false, efforts: null };
const reasoning = (efforts: readonly string[]): FakeChatModel => ({ defaultTemperatureOnly: true, refusesMaxTokens: true, efforts });

/** Chat models by id (a dated snapshot "-YYYY-MM-DD" is the same model). */
export const OPENAI_FAKE_CHAT_MODELS: Readonly<Record<string, FakeChatModel>> = {
  "gpt-4.1": GPT4,
  "gpt-4.1-mini": GPT4,
  "gpt-4.1-nano": GPT4,
  "gpt-4o": GPT4,
  "gpt-4o-mini": GPT4,
  "gpt-5": reasoning(["minimal", "low", "medium", "high"]),
  "gpt-5-mini": reasoning(["minimal", "low", "medium", "high"]),
  "gpt-5-nano": reasoning(["minimal", "low", "medium", "high"]),
  "gpt-5-pro": reasoning(["high"]),
  "gpt-5.1": reasoning(["none", "low", "medium", "high"]),
  "gpt-5.2": reasoning(["none", "low", "medium", "high", "xhigh"]),
  "gpt-5.2-pro": reasoning(["medium", "high", "xhigh"]),
  "gpt-5.4": reasoning(["none", "low", "medium", "high", "xhigh"]),
  "gpt-5.4-mini": reasoning(["none", "low", "medium", "high", "xhigh"]),
  "gpt-5.4-nano": reasoning(["none", "low", "medium", "high", "xhigh"]),
  "gpt-5.5": reasoning(["none", "low", "medium", "high", "xhigh"]),
  "gpt-5.6-sol": reasoning(["none", "low", "medium", "high", "xhigh", "max"]),
  "gpt-5.6-terra": reasoning(["none", "low", "medium", "high", "xhigh", "max"]),
  "gpt-5.6-luna": reasoning(["none", "low", "medium", "high", "xhigh", "max"]),
  o1: reasoning(["low", "medium", "high"]),
  o3: reasoning(["low", "medium", "high"]),
  "o3-mini": reasoning(["low", "medium", "high"]),
  "o4-mini": reasoning(["low", "medium", "high"]),
};

/** Embedding models: default (and largest) dimensions; whether `dimensions` may be set. */
export const OPENAI_FAKE_EMBEDDING_MODELS: Readonly<Record<string, { dimensions: number; takesDimensions: boolean }>> = {
  "text-embedding-3-small": { dimensions: 1536, takesDimensions: true },
  "text-embedding-3-large": { dimensions: 3072, takesDimensions: true },
  "text-embedding-ada-002": { dimensions: 1536, takesDimensions: false },
};

const undated = (model: string) => model.replace(/-\d{4}-\d{2}-\d{2}$/, "");
export const fakeChatModel = (model: string): FakeChatModel | undefined => OPENAI_FAKE_CHAT_MODELS[undated(model)];
export const fakeEmbeddingModel = (model: string) => OPENAI_FAKE_EMBEDDING_MODELS[undated(model)];

/** OpenAI's error object (openapi.yaml components/schemas/Error: message, type, param, code). */
export function openaiError(status: number, message: string, type: string, param: string | null, code: string | null, rule: string) {
  return { status, body: { error: { message, type, param, code } }, rule };
}

type Refusal = NonNullable<ReturnType<Check>>;
type ChatBody = { model?: unknown; messages?: unknown; temperature?: unknown; max_tokens?: unknown; max_completion_tokens?: unknown; reasoning_effort?: unknown };

const IMAGE_DATA_URL = /^data:image\/(png|jpeg|webp|gif);base64,([A-Za-z0-9+/]+={0,2})$/;

/** Every image part of a chat body, with where it sits. */
function imageParts(body: ChatBody): Array<{ url: string; param: string }> {
  const out: Array<{ url: string; param: string }> = [];
  if (!Array.isArray(body.messages)) return out;
  body.messages.forEach((message: { content?: unknown }, i: number) => {
    if (!Array.isArray(message.content)) return;
    message.content.forEach((part: { type?: string; image_url?: { url?: string } }, j: number) => {
      if (part.type === "image_url") out.push({ url: String(part.image_url?.url ?? ""), param: `messages[${i}].content[${j}].image_url.url` });
    });
  });
  return out;
}

/**
 * The per-model rules of one chat body, for the model that serves it (on Azure, the
 * deployment's model). Null when OpenAI would accept it.
 */
export function checkOpenAIChatRules(body: ChatBody, model: string): Refusal | null {
  const rules = fakeChatModel(model);
  if (!rules) {
    if (fakeEmbeddingModel(model)) return openaiError(404, "This is not a chat model and thus not supported in the v1/chat/completions endpoint.", "invalid_request_error", "model", null, `${model} is an embedding model (not a chat model)`);
    return openaiError(404, `The model \`${model}\` does not exist or you do not have access to it.`, "invalid_request_error", null, "model_not_found", `unknown model ${model}`);
  }
  if (body.max_tokens != null && body.max_completion_tokens != null) {
    return openaiError(400, "max_tokens and max_completion_tokens cannot both be set.", "invalid_request_error", "max_tokens", null, "both token fields set");
  }
  for (const field of ["max_tokens", "max_completion_tokens"] as const) {
    const value = body[field];
    if (typeof value === "number" && value < 1) return openaiError(400, `Invalid '${field}': integer below minimum value. Expected a value >= 1, but got ${value} instead.`, "invalid_request_error", field, "integer_below_min_value", `${field} below 1`);
  }
  if (rules.refusesMaxTokens && body.max_tokens != null) {
    // CreateChatCompletionRequest.max_tokens: "not compatible with o-series models"; the GPT-5 family likewise (reasoning guide).
    return openaiError(400, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.", "invalid_request_error", "max_tokens", "unsupported_parameter", `max_tokens sent to reasoning model ${model}`);
  }
  if (rules.defaultTemperatureOnly && body.temperature != null && body.temperature !== 1) {
    // Reasoning models take no sampling parameters except the default (reasoning guide).
    return openaiError(400, `Unsupported value: 'temperature' does not support ${String(body.temperature)} with this model. Only the default (1) value is supported.`, "invalid_request_error", "temperature", "unsupported_value", `temperature ${String(body.temperature)} sent to ${model}, which takes only the default`);
  }
  if (body.reasoning_effort != null) {
    if (rules.efforts === null) {
      return openaiError(400, "Unsupported parameter: 'reasoning_effort' is not supported with this model.", "invalid_request_error", "reasoning_effort", "unsupported_parameter", `reasoning_effort sent to non-reasoning model ${model}`);
    }
    if (!rules.efforts.includes(String(body.reasoning_effort))) {
      return openaiError(400, `Unsupported value: '${String(body.reasoning_effort)}' is not supported with the '${model}' model. Supported values are: ${rules.efforts.map((e) => `'${e}'`).join(", ")}.`, "invalid_request_error", "reasoning_effort", "unsupported_value", `reasoning_effort ${String(body.reasoning_effort)} not among ${model}'s values`);
    }
  }
  for (const { url, param } of imageParts(body)) {
    if (!IMAGE_DATA_URL.test(url)) return openaiError(400, "You uploaded an unsupported image. Please make sure your image has of one the following formats: ['png', 'jpeg', 'gif', 'webp'].", "invalid_request_error", param, "invalid_image_format", "image is not a base64 data URL of png, jpeg, gif or webp");
  }
  return null;
}

/** The embedding rules of one body, for the model that serves it. */
export function checkOpenAIEmbeddingRules(body: { input?: unknown; dimensions?: unknown }, model: string): Refusal | null {
  const rules = fakeEmbeddingModel(model);
  if (!rules) {
    if (fakeChatModel(model)) return openaiError(400, `This model does not support embeddings: ${model}.`, "invalid_request_error", "model", null, `${model} is not an embedding model`);
    return openaiError(404, `The model \`${model}\` does not exist or you do not have access to it.`, "invalid_request_error", null, "model_not_found", `unknown model ${model}`);
  }
  if (body.dimensions != null && !rules.takesDimensions) return openaiError(400, "This model does not support specifying dimensions.", "invalid_request_error", "dimensions", null, `${model} takes no dimensions`);
  if (typeof body.dimensions === "number" && body.dimensions > rules.dimensions) return openaiError(400, `Invalid value for 'dimensions' = ${body.dimensions}. Must be less than or equal to ${rules.dimensions}.`, "invalid_request_error", "dimensions", "invalid_value", `dimensions above ${rules.dimensions}`);
  const inputs = Array.isArray(body.input) ? body.input : [body.input];
  // CreateEmbeddingRequest.input: "cannot be an empty string".
  if (inputs.some((t) => t === "")) return openaiError(400, "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.", "invalid_request_error", null, null, "empty string input");
  return null;
}

/** The schema check of a body, as OpenAI reports one (400 invalid_request_error naming the param). */
export function checkOpenAISchema(kind: "chat" | "embedding", body: unknown): Refusal | null {
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    return openaiError(400, "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly.)", "invalid_request_error", null, null, "body is not a JSON object");
  }
  const validation = kind === "chat" ? validateChatCompletionRequest(body) : validateEmbeddingRequest(body);
  if (validation.ok) return null;
  const schema = kind === "chat" ? "CreateChatCompletionRequest" : "CreateEmbeddingRequest";
  return openaiError(400, validation.message, "invalid_request_error", validation.param, null, `${validation.message} (openapi.yaml ${schema})`);
}

/** The request check of the OpenAI fake: route, key, schema, then the model's rules. */
export function openaiCheck(apiKey: string): Check {
  return (req: RecordedRequest) => {
    const path = req.path.split("?")[0];
    const kind = req.method === "POST" && path === "/v1/chat/completions" ? "chat" : req.method === "POST" && path === "/v1/embeddings" ? "embedding" : null;
    if (!kind) return openaiError(404, `Invalid URL (${req.method} ${path})`, "invalid_request_error", null, null, `no such route ${req.method} ${path}`);
    const authorization = header(req.headers, "authorization");
    if (!authorization) return openaiError(401, "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).", "invalid_request_error", null, null, "no Authorization header");
    if (authorization !== `Bearer ${apiKey}`) return openaiError(401, "Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.", "invalid_request_error", null, "invalid_api_key", "wrong API key");
    const schema = checkOpenAISchema(kind, req.body);
    if (schema) return schema;
    const body = req.body as ChatBody & { input?: unknown; dimensions?: unknown };
    return kind === "chat" ? checkOpenAIChatRules(body, String(body.model)) : checkOpenAIEmbeddingRules(body, String(body.model));
  };
}

/** A chat body as the test's answer function sees it. */
export function modelCallOf(body: unknown, model: string): ModelCall {
  const messages = (body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? [];
  const system = messages.filter((m) => m.role === "system" || m.role === "developer").map((m) => (typeof m.content === "string" ? m.content : "")).join("\n");
  const userParts = messages.filter((m) => m.role === "user").flatMap((m) => (typeof m.content === "string" ? [{ type: "text", text: m.content }] : (m.content as Array<{ type: string; text?: string }>)));
  return { model, system, user: userParts.filter((p) => p.type === "text").map((p) => p.text ?? "").join("\n"), images: userParts.filter((p) => p.type === "image_url").length };
}

/**
 * A chat body's prompt as OpenAI's cache sees it: the system message, then the user content
 * parts in order, each image counted by the model's formula (image-tokens.ts).
 */
export function openaiPromptParts(body: unknown, model: string): PromptPart[] {
  const messages = (body as { messages?: Array<{ role: string; content: unknown }> }).messages ?? [];
  const parts: PromptPart[] = [];
  for (const message of messages) {
    const content = typeof message.content === "string" ? [{ type: "text", text: message.content }] : ((message.content as Array<{ type: string; text?: string; image_url?: { url: string } }>) ?? []);
    for (const part of content) {
      if (part.type === "text") parts.push({ kind: "text", tokens: textTokens(part.text ?? ""), digest: digestOf(`${message.role}:${part.text ?? ""}`) });
      if (part.type === "image_url") {
        const data = IMAGE_DATA_URL.exec(part.image_url?.url ?? "")?.[2] ?? "";
        const size = imageSize(Buffer.from(data, "base64"));
        parts.push({ kind: "image", tokens: size ? openaiImageTokens(undated(model), size.width, size.height) : 85, digest: digestOf(data) });
      }
    }
  }
  return parts;
}

/** Automatic caching of prompts of 1024 tokens and more, in 128-token steps (developers.openai.com/api/docs/guides/prompt-caching). */
export const OPENAI_CACHE_RULES: CacheRules = { mode: "automatic", minimum: 1024, granularity: 128 };

/** A real-shaped ChatCompletion (CreateChatCompletionResponse), usage included. */
export function openaiChatCompletion(text: string, model: string, finishReason: "stop" | "length" | "content_filter" = "stop", prompt?: PromptAccount) {
  const completion = Math.max(1, Math.ceil(text.length / 4));
  const promptTokens = prompt?.promptTokens ?? 812;
  return {
    id: "chatcmpl-strict",
    object: "chat.completion",
    created: 1_790_000_000,
    model,
    choices: [{ index: 0, message: { role: "assistant", content: text, refusal: null, annotations: [] }, logprobs: null, finish_reason: finishReason }],
    usage: {
      prompt_tokens: promptTokens,
      completion_tokens: completion,
      total_tokens: promptTokens + completion,
      // cached_tokens is part of prompt_tokens (CompletionUsage.prompt_tokens_details, openapi.yaml).
      ...(prompt ? { prompt_tokens_details: { cached_tokens: prompt.cachedTokens, audio_tokens: 0 } } : {}),
      completion_tokens_details: { reasoning_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    },
    service_tier: "default",
    system_fingerprint: "fp_strict",
  };
}

/** A real-shaped CreateEmbeddingResponse. */
export function openaiEmbeddingList(vectors: number[][], model: string) {
  return { object: "list", model, data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })), usage: { prompt_tokens: 9, total_tokens: 9 } };
}

/**
 * A 429 for a rate limit, with OpenAI's headers (developers.openai.com/api/docs/guides/rate-limits):
 * the reset of each limit as a duration, the remaining count 0 for the limit that ran out.
 */
export function openaiRateLimited(reset: { requests?: string; tokens?: string; exhausted?: "requests" | "tokens" } = {}): Reply {
  const exhausted = reset.exhausted ?? "tokens";
  return {
    status: 429,
    headers: {
      "x-ratelimit-limit-requests": "500",
      "x-ratelimit-remaining-requests": exhausted === "requests" ? "0" : "499",
      "x-ratelimit-reset-requests": reset.requests ?? "120ms",
      "x-ratelimit-limit-tokens": "30000",
      "x-ratelimit-remaining-tokens": exhausted === "tokens" ? "0" : "29000",
      "x-ratelimit-reset-tokens": reset.tokens ?? "28s",
    },
    body: { error: { message: `Rate limit reached on ${exhausted} per min. Please try again later.`, type: exhausted, param: null, code: "rate_limit_exceeded" } },
  };
}

/** A 429 for a used-up quota or credit: billing, not congestion (developers.openai.com/api/docs/guides/error-codes). */
export function openaiQuotaExhausted(): Reply {
  return { status: 429, body: { error: { message: "You exceeded your current quota, please check your plan and billing details.", type: "insufficient_quota", param: null, code: "insufficient_quota" } } };
}

export function openaiServerError(): Reply {
  return { status: 500, body: { error: { message: "The server had an error while processing your request. Sorry about that!", type: "server_error", param: null, code: null } } };
}

export const OPENAI_FAKE_KEY = "sk-strict-0123456789";

/**
 * Starts the strict OpenAI fake. `url` ends in /v1, as OPENAI_BASE_URL would.
 *
 * @example
 * const fake = await startStrictOpenAI({ apiKey: "sk-test", respond: (call) => `seen ${call.images} images` });
 */
export async function startStrictOpenAI(options: StrictFakeOptions & ReportedModelOptions = {}): Promise<StrictFake & PromptCaching> {
  const apiKey = options.apiKey ?? OPENAI_FAKE_KEY;
  const promptCache = createPromptCacheBook();
  const delay = options.answerDelayMs ?? 0;
  const reported = options.reportedModel ?? ((requested: string) => requested);
  const respond = options.respond ?? (() => "I would probably buy it.\nRATIONALE: Clear product.\nPRODUCT: A kettle.");
  const server = await startStrictServer(
    openaiCheck(apiKey),
    (req) => {
      const body = req.body as { model: string; input?: string | string[]; dimensions?: number };
      if (req.path.split("?")[0] === "/v1/embeddings") {
        const texts = Array.isArray(body.input) ? body.input : [body.input ?? ""];
        const dimensions = body.dimensions ?? fakeEmbeddingModel(body.model)!.dimensions;
        return { status: 200, body: openaiEmbeddingList(texts.map((t) => options.embed?.(t, body.model) ?? hashEmbedding(t, dimensions)), body.model) };
      }
      // Caches belong to an organization (here: its key) and a model.
      const prompt = promptCache.account(`${apiKey}\u0000${body.model}`, body.model, openaiPromptParts(req.body, body.model), OPENAI_CACHE_RULES, delay);
      return { status: 200, body: openaiChatCompletion(respond(modelCallOf(req.body, body.model)), reported(body.model), "stop", prompt), ...(delay > 0 ? { delayMs: delay } : {}) };
    },
    options.reply ? { reply: options.reply } : {},
  );
  return { ...server, url: `${server.url}/v1`, promptCache };
}
