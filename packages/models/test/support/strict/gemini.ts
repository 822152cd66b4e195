import { geminiModelRules, type GeminiModelRules } from "../../../src/capabilities/gemini.ts";
import type { RecordedRequest, Reply } from "../fake-provider.ts";
import { imageSize } from "./image-size.ts";
import { geminiImageTokens, textTokens } from "./image-tokens.ts";
import { createPromptCacheBook, digestOf, type CacheRules, type PromptAccount, type PromptPart } from "./prompt-cache-book.ts";
import { hashEmbedding, header, startStrictServer, type Check, type ModelCall, type PromptCaching, type ReportedModelOptions, type StrictFake, type StrictFakeOptions } from "./strict-fake.ts";

/**
 * A strict Gemini API (generativelanguage.googleapis.com) on 127.0.0.1. Its rules, and where
 * each comes from:
 * - REST: https://ai.google.dev/api/generate-content (GenerateContentRequest, GenerationConfig,
 *   ThinkingConfig) and https://ai.google.dev/api/embeddings (embedContent, batchEmbedContents),
 *   checked against the installed SDK's types (node_modules/@google/genai/dist/genai.d.ts).
 * - THINKING: https://ai.google.dev/gemini-api/docs/thinking, as encoded in
 *   src/capabilities/gemini.ts (the one home of these ranges).
 * - ERRORS: https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes; the shapes of
 *   a bad key (400 INVALID_ARGUMENT with google.rpc.ErrorInfo reason API_KEY_INVALID) and of a
 *   429 (QuotaFailure + RetryInfo) are the ones the API sends, as quoted in
 *   github.com/continuedev/continue/issues/8516 and google-gemini/gemini-cli/issues/10925.
 * - IMAGES: https://ai.google.dev/gemini-api/docs/image-understanding (PNG, JPEG, WEBP, HEIC, HEIF).
 * - CACHING: https://ai.google.dev/gemini-api/docs/caching (implicit caching and its minimums;
 *   `cachedContentTokenCount` inside `promptTokenCount`), kept by prompt-cache-book.ts.
 */

export const GEMINI_IMAGE_TYPES: readonly string[] = ["image/png", "image/jpeg", "image/webp", "image/heic", "image/heif"];

type Body = Record<string, unknown>;
type Refusal = NonNullable<ReturnType<Check>>;

const STATUS_CODE: Record<string, number> = { INVALID_ARGUMENT: 400, FAILED_PRECONDITION: 400, PERMISSION_DENIED: 403, UNAUTHENTICATED: 401, NOT_FOUND: 404, RESOURCE_EXHAUSTED: 429 };

/** A google.rpc.Status error body as the API sends it. */
export function googleError(status: string, message: string, details: unknown[] = []): { error: { code: number; message: string; status: string; details?: unknown[] } } {
  return { error: { code: STATUS_CODE[status] ?? 500, message, status, ...(details.length > 0 ? { details } : {}) } };
}

const refuse = (status: string, message: string, rule: string, details: unknown[] = []): Refusal => ({ status: STATUS_CODE[status] ?? 400, body: googleError(status, message, details), rule });
const isRecord = (x: unknown): x is Body => x !== null && typeof x === "object" && !Array.isArray(x);
const unknownKeys = (value: Body, allowed: readonly string[]) => Object.keys(value).filter((k) => !allowed.includes(k));
const unknownField = (where: string, name: string, rule: string) => refuse("INVALID_ARGUMENT", `Invalid JSON payload received. Unknown name "${name}" at '${where}': Cannot find field.`, rule);

// REST GenerateContentRequest (body fields; `model` travels in the path).
const REQUEST_FIELDS = ["contents", "tools", "toolConfig", "safetySettings", "systemInstruction", "generationConfig", "cachedContent", "serviceTier", "store"] as const;
// REST GenerationConfig (SDK GenerationConfig / GenerateContentConfig's generation part).
const GENERATION_FIELDS = [
  "stopSequences", "responseMimeType", "responseSchema", "responseJsonSchema", "responseModalities", "candidateCount", "maxOutputTokens", "temperature", "topP", "topK", "seed",
  "presencePenalty", "frequencyPenalty", "responseLogprobs", "logprobs", "enableEnhancedCivicAnswers", "speechConfig", "thinkingConfig", "imageConfig", "mediaResolution",
] as const;
// REST ThinkingConfig / SDK ThinkingConfig.
const THINKING_FIELDS = ["includeThoughts", "thinkingBudget", "thinkingLevel"] as const;
const CONTENT_FIELDS = ["role", "parts"] as const;
const PART_FIELDS = ["text", "inlineData", "fileData", "thought", "thoughtSignature", "functionCall", "functionResponse", "executableCode", "codeExecutionResult", "videoMetadata", "mediaResolution", "partMetadata"] as const;
// SDK ThinkingLevel enum names; the docs' REST examples write them in lower case, which the API also takes.
const LEVELS = ["MINIMAL", "LOW", "MEDIUM", "HIGH"];

function checkContent(content: unknown, where: string, roles: readonly string[]): Refusal | null {
  if (!isRecord(content)) return refuse("INVALID_ARGUMENT", `Invalid value at '${where}'`, `${where} must be a Content object (REST Content)`);
  const extra = unknownKeys(content, CONTENT_FIELDS);
  if (extra.length > 0) return unknownField(where, extra[0]!, `${where}.${extra[0]} is not a field of Content (REST Content)`);
  if (content.role !== undefined && !roles.includes(content.role as string)) return refuse("INVALID_ARGUMENT", `Please use a valid role: user, model.`, `${where}.role must be one of ${roles.join(", ")} (REST Content.role)`);
  if (!Array.isArray(content.parts) || content.parts.length === 0) return refuse("INVALID_ARGUMENT", `* GenerateContentRequest.${where}.parts: contents.parts must not be empty.`, `${where}.parts must be a non-empty array (REST Content.parts)`);
  for (const [i, part] of content.parts.entries()) {
    if (!isRecord(part)) return refuse("INVALID_ARGUMENT", `Invalid value at '${where}.parts[${i}]'`, "a part must be an object (REST Part)");
    const extraPart = unknownKeys(part, PART_FIELDS);
    if (extraPart.length > 0) return unknownField(`${where}.parts[${i}]`, extraPart[0]!, `${extraPart[0]} is not a field of Part (REST Part)`);
    if (part.inlineData !== undefined) {
      const blob = part.inlineData as Body;
      if (!isRecord(blob) || typeof blob.data !== "string" || typeof blob.mimeType !== "string") return refuse("INVALID_ARGUMENT", "inline_data needs mime_type and data", "inlineData needs mimeType and base64 data (REST Blob)");
      if (blob.mimeType.startsWith("image/") && !GEMINI_IMAGE_TYPES.includes(blob.mimeType)) return refuse("INVALID_ARGUMENT", `Unsupported MIME type: ${blob.mimeType}`, `image mime type ${blob.mimeType} is not one the API reads (image-understanding docs)`);
    }
  }
  return null;
}

/** The generationConfig rules of one model (its temperature range, output limit and thinking control). */
function checkGenerationConfig(config: unknown, rules: GeminiModelRules): Refusal | null {
  if (!isRecord(config)) return refuse("INVALID_ARGUMENT", "Invalid value at 'generation_config'", "generationConfig must be an object (REST GenerationConfig)");
  const extra = unknownKeys(config, GENERATION_FIELDS);
  if (extra.length > 0) return unknownField("generation_config", extra[0]!, `${extra[0]} is not a field of GenerationConfig (REST GenerationConfig)`);
  const t = config.temperature;
  if (t !== undefined && (typeof t !== "number" || t < 0 || t > 2)) return refuse("INVALID_ARGUMENT", "Unable to submit request because it has a temperature value outside the supported range [0, 2].", "temperature must be within 0-2 (model card parameter defaults)");
  const max = config.maxOutputTokens;
  if (max !== undefined && (!Number.isInteger(max) || (max as number) < 1 || (max as number) > rules.maxOutputTokens)) {
    return refuse("INVALID_ARGUMENT", `The maximum number of tokens allowed is ${rules.maxOutputTokens}; max_output_tokens is outside [1, ${rules.maxOutputTokens}].`, `maxOutputTokens must be 1-${rules.maxOutputTokens} for ${rules.family} (models page output limit)`);
  }
  if (config.thinkingConfig === undefined) return null;
  const thinking = config.thinkingConfig;
  if (!isRecord(thinking)) return refuse("INVALID_ARGUMENT", "Invalid value at 'generation_config.thinking_config'", "thinkingConfig must be an object (REST ThinkingConfig)");
  const extraThinking = unknownKeys(thinking, THINKING_FIELDS);
  if (extraThinking.length > 0) return unknownField("generation_config.thinking_config", extraThinking[0]!, `${extraThinking[0]} is not a field of ThinkingConfig (SDK ThinkingConfig)`);
  const rule = rules.thinking;
  const budget = thinking.thinkingBudget;
  const level = thinking.thinkingLevel;
  if (rule.mode === "none") return refuse("INVALID_ARGUMENT", "Thinking is not enabled for this model; thinking_config is not supported.", `${rules.family} does not think: a thinkingConfig is refused (thinking docs: only 2.5 and 3 models think)`);
  if (rule.mode === "budget") {
    if (level !== undefined) return refuse("INVALID_ARGUMENT", "thinking_level is not supported by this model.", `${rules.family} takes no thinkingLevel, only a thinkingBudget (thinking docs)`);
    if (budget === undefined) return null;
    if (!Number.isInteger(budget)) return refuse("INVALID_ARGUMENT", "Invalid value at 'generation_config.thinking_config.thinking_budget'", "thinkingBudget must be an integer (REST ThinkingConfig)");
    const b = budget as number;
    const ok = (b === -1 && rule.dynamic) || (b === 0 && rule.canDisable) || (b >= rule.min && b <= rule.max);
    if (!ok) {
      const range = `${rule.canDisable ? "0 or " : ""}${rule.min}-${rule.max}${rule.dynamic ? " or -1" : ""}`;
      return refuse("INVALID_ARGUMENT", `The thinking budget ${b} is invalid. Please choose a value between ${rule.min} and ${rule.max}.`, `${rules.family} takes thinking budgets ${range}, got ${b} (thinking docs)`);
    }
    return null;
  }
  if (level !== undefined && budget !== undefined) return refuse("INVALID_ARGUMENT", "thinking_budget and thinking_level cannot be set together.", "thinkingBudget and thinkingLevel together are refused (thinking docs)");
  if (level !== undefined) {
    const name = typeof level === "string" ? level.toUpperCase() : "";
    if (!LEVELS.includes(name)) return refuse("INVALID_ARGUMENT", `Invalid value at 'generation_config.thinking_config.thinking_level' (${String(level)})`, "thinkingLevel must be a ThinkingLevel (SDK enum ThinkingLevel)");
    if (!rule.levels.includes(name as never)) return refuse("INVALID_ARGUMENT", `Thinking level ${name} is not supported for this model.`, `${rules.family} takes thinking levels ${rule.levels.join(", ")}, got ${name} (thinking docs)`);
  }
  return null;
}

/** The body rules of generateContent for `model` (shared with the Vertex fake: the same GenerateContentRequest). */
export function checkGenerateBody(body: unknown, rules: GeminiModelRules): Refusal | null {
  if (!isRecord(body)) return refuse("INVALID_ARGUMENT", "Invalid JSON payload received.", "the body must be a JSON object");
  const extra = unknownKeys(body, [...REQUEST_FIELDS, "labels"]);
  if (extra.length > 0) return unknownField("", extra[0]!, `${extra[0]} is not a field of GenerateContentRequest (REST generateContent)`);
  if (!Array.isArray(body.contents) || body.contents.length === 0) return refuse("INVALID_ARGUMENT", "* GenerateContentRequest.contents: contents is not specified", "contents must be a non-empty array (REST generateContent)");
  for (const [i, content] of body.contents.entries()) {
    const refused = checkContent(content, `contents[${i}]`, ["user", "model"]);
    if (refused) return refused;
  }
  if (body.systemInstruction !== undefined) {
    const refused = checkContent(body.systemInstruction, "system_instruction", ["user", "system", ""]);
    if (refused) return refused;
  }
  return body.generationConfig === undefined ? null : checkGenerationConfig(body.generationConfig, rules);
}

const EMBED_FIELDS = ["model", "content", "taskType", "title", "outputDimensionality"] as const;
const TASK_TYPES = ["TASK_TYPE_UNSPECIFIED", "RETRIEVAL_QUERY", "RETRIEVAL_DOCUMENT", "SEMANTIC_SIMILARITY", "CLASSIFICATION", "CLUSTERING", "QUESTION_ANSWERING", "FACT_VERIFICATION", "CODE_RETRIEVAL_QUERY"];

function checkEmbedRequest(request: unknown, rules: GeminiModelRules, where: string): Refusal | null {
  if (!isRecord(request)) return refuse("INVALID_ARGUMENT", `Invalid value at '${where}'`, "an embed request must be an object (REST EmbedContentRequest)");
  const extra = unknownKeys(request, EMBED_FIELDS);
  if (extra.length > 0) return unknownField(where, extra[0]!, `${extra[0]} is not a field of EmbedContentRequest (REST embeddings)`);
  if (request.model !== undefined && request.model !== `models/${rules.model}`) return refuse("INVALID_ARGUMENT", `Model names in the batch (${String(request.model)}) must match models/${rules.model}.`, "each batch request's model must be the model of the path (REST batchEmbedContents)");
  const refused = checkContent(request.content, `${where}.content`, ["user", "model"]);
  if (refused) return refused;
  if (request.taskType !== undefined && !TASK_TYPES.includes(request.taskType as string)) return refuse("INVALID_ARGUMENT", `Invalid value at '${where}.task_type'`, "taskType must be a TaskType (REST embeddings TaskType)");
  const dims = request.outputDimensionality;
  if (dims !== undefined && (!Number.isInteger(dims) || (dims as number) < rules.embedding!.minDimensions || (dims as number) > rules.embedding!.dimensions)) {
    return refuse("INVALID_ARGUMENT", "output_dimensionality is out of range.", `outputDimensionality must be ${rules.embedding!.minDimensions}-${rules.embedding!.dimensions} (embeddings docs)`);
  }
  return null;
}

const PATH = /^\/(v1|v1beta)\/models\/([^/:]+):([A-Za-z]+)$/;

/** The request check of the Gemini API for one key. */
export function geminiCheck(apiKey: string): Check {
  return (req: RecordedRequest) => {
    const url = new URL(req.path, "http://127.0.0.1");
    const match = PATH.exec(url.pathname);
    if (req.method !== "POST" || !match) return refuse("NOT_FOUND", `The requested URL ${url.pathname} was not found on this server.`, "no such method on the Gemini API (REST reference)");
    const [, version, model, method] = match as unknown as [string, string, string, string];
    const key = header(req.headers, "x-goog-api-key") ?? url.searchParams.get("key") ?? undefined;
    // Without any key the API answers 403 PERMISSION_DENIED; with a wrong one, 400 API_KEY_INVALID (ERRORS).
    if (key === undefined) return refuse("PERMISSION_DENIED", "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.", "no x-goog-api-key header (ERRORS)");
    if (key !== apiKey) {
      return refuse("INVALID_ARGUMENT", "API key not valid. Please pass a valid API key.", "wrong x-goog-api-key: 400 API_KEY_INVALID (ERRORS)", [
        { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID", domain: "googleapis.com", metadata: { service: "generativelanguage.googleapis.com" } },
      ]);
    }
    const rules = geminiModelRules(model);
    // Previews and the -latest aliases are served on v1beta only (api-versions docs); v1 answers 404 for them.
    const v1Only = version === "v1" && /-latest$|-preview|-exp|^gemini-3/.test(model);
    if (!rules.known || v1Only) return refuse("NOT_FOUND", `models/${model} is not found for API version ${version}, or is not supported for ${method}. Call ListModels to see the list of available models and their supported methods.`, `unknown model ${model} on ${version} (models page)`);
    if (method === "generateContent") {
      if (rules.kind !== "generator") return refuse("NOT_FOUND", `models/${model} is not supported for generateContent.`, `${model} does not generate content (models page)`);
      return checkGenerateBody(req.body, rules);
    }
    if (method === "batchEmbedContents" || method === "embedContent") {
      if (rules.kind !== "embedder") return refuse("NOT_FOUND", `models/${model} is not supported for ${method}.`, `${model} does not embed (models page)`);
      if (method === "embedContent") return checkEmbedRequest(req.body, rules, "");
      const requests = isRecord(req.body) ? req.body.requests : undefined;
      if (!isRecord(req.body) || unknownKeys(req.body, ["requests"]).length > 0 || !Array.isArray(requests) || requests.length === 0) return refuse("INVALID_ARGUMENT", "* BatchEmbedContentsRequest.requests: requests is required", "batchEmbedContents takes a non-empty `requests` only (REST embeddings)");
      if (requests.length > rules.embedding!.maxBatch) return refuse("INVALID_ARGUMENT", `* BatchEmbedContentsRequest.requests: at most ${rules.embedding!.maxBatch} requests can be in one batch`, `at most ${rules.embedding!.maxBatch} requests per batch (REST embeddings)`);
      for (const [i, request] of requests.entries()) {
        const refused = checkEmbedRequest(request, rules, `requests[${i}]`);
        if (refused) return refused;
      }
      return null;
    }
    return refuse("NOT_FOUND", `Method ${method} not found.`, `no method ${method} (REST reference)`);
  };
}

const textOf = (content: unknown) => (isRecord(content) && Array.isArray(content.parts) ? content.parts.flatMap((p) => (isRecord(p) && typeof p.text === "string" ? [p.text] : [])).join("\n") : "");

/** A valid generate call as the fake understood it. */
export function geminiCall(model: string, body: unknown): ModelCall {
  const b = body as { contents: Array<{ parts: Array<{ text?: string; inlineData?: unknown }> }>; systemInstruction?: unknown };
  const user = b.contents.at(-1)!;
  return { model, system: textOf(b.systemInstruction), user: textOf(user), images: user.parts.filter((p) => p.inlineData !== undefined).length };
}

/**
 * The prompt as the implicit cache sees it: the system instruction, then the parts of the
 * contents in order; images by Gemini's tile rule (image-tokens.ts).
 */
export function geminiPromptParts(body: unknown): PromptPart[] {
  const b = body as { contents: Array<{ role?: string; parts: Array<{ text?: string; inlineData?: { data: string } }> }>; systemInstruction?: { parts?: Array<{ text?: string }> } };
  const parts: PromptPart[] = [];
  for (const p of b.systemInstruction?.parts ?? []) if (typeof p.text === "string") parts.push({ kind: "text", tokens: textTokens(p.text), digest: digestOf(`system:${p.text}`) });
  for (const content of b.contents) {
    for (const p of content.parts) {
      if (typeof p.text === "string") parts.push({ kind: "text", tokens: textTokens(p.text), digest: digestOf(`${content.role ?? "user"}:${p.text}`) });
      if (p.inlineData) {
        const size = imageSize(Buffer.from(p.inlineData.data, "base64"));
        parts.push({ kind: "image", tokens: size ? geminiImageTokens(size.width, size.height) : 258, digest: digestOf(p.inlineData.data) });
      }
    }
  }
  return parts;
}

/**
 * Implicit caching (CACHING: https://ai.google.dev/gemini-api/docs/caching): on Gemini 2.5 and
 * newer, none on 2.0; the minimum input is 2048 tokens on 2.5 Flash and Pro and 4096 on the 3.x
 * models (the page's table; 2.5 models it does not list are given 2048). Null: no implicit caching.
 */
export function geminiCacheRules(model: string): CacheRules | null {
  if (/^gemini-(1|2\.0)/.test(model)) return null;
  return { mode: "automatic", minimum: /^gemini-3/.test(model) ? 4096 : 2048, granularity: 1 };
}

/** A GenerateContentResponse as the API sends one (REST GenerateContentResponse). */
export function geminiResponse(model: string, text: string, finishReason = "STOP", tokens = { input: 700, output: 30, thoughts: 0 }, prompt?: PromptAccount) {
  const input = prompt?.promptTokens ?? tokens.input;
  return {
    candidates: [{ content: { role: "model", parts: text ? [{ text }] : [] }, finishReason, index: 0 }],
    // cachedContentTokenCount is part of promptTokenCount (REST UsageMetadata); a zero is left out, as proto3 JSON does.
    usageMetadata: {
      promptTokenCount: input,
      ...(prompt && prompt.cachedTokens > 0 ? { cachedContentTokenCount: prompt.cachedTokens } : {}),
      candidatesTokenCount: tokens.output,
      ...(tokens.thoughts ? { thoughtsTokenCount: tokens.thoughts } : {}),
      totalTokenCount: input + tokens.output + tokens.thoughts,
    },
    modelVersion: model,
    responseId: "fake-response",
  };
}

/** The model a Gemini API path names. */
export const modelOfPath = (path: string): string => decodeURIComponent(/\/models\/([^/:]+):/.exec(path)?.[1] ?? "");

/**
 * Scripted faults as the real API sends them (ERRORS), for a test's `reply`.
 * `rateLimited`: a per-minute 429 with RetryInfo; `dailyQuota`: a per-day QuotaFailure (the
 * API still adds a RetryInfo, which must not make it retried); `recitation`: partial text
 * stopped by RECITATION; `safety`: an answer stopped by SAFETY.
 */
export const geminiFaults = {
  rateLimited: (retryDelay = "2s"): Reply => ({
    status: 429,
    body: googleError("RESOURCE_EXHAUSTED", "You exceeded your current quota, please check your plan and billing details.", [
      { "@type": "type.googleapis.com/google.rpc.QuotaFailure", violations: [{ quotaMetric: "generativelanguage.googleapis.com/generate_content_paid_tier_requests", quotaId: "GenerateRequestsPerMinutePerProjectPerModel", quotaValue: "1000" }] },
      { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay },
    ]),
  }),
  dailyQuota: (): Reply => ({
    status: 429,
    body: googleError("RESOURCE_EXHAUSTED", "You exceeded your current quota, please check your plan and billing details.", [
      { "@type": "type.googleapis.com/google.rpc.Help", links: [{ description: "Learn more about Gemini API quotas", url: "https://ai.google.dev/gemini-api/docs/rate-limits" }] },
      { "@type": "type.googleapis.com/google.rpc.QuotaFailure", violations: [{ quotaMetric: "generativelanguage.googleapis.com/generate_content_free_tier_requests", quotaId: "GenerateRequestsPerDayPerProjectPerModel-FreeTier", quotaDimensions: { location: "global" }, quotaValue: "250" }] },
      { "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "3s" },
    ]),
  }),
  recitation: (model: string, partial = "As the famous ad said,"): Reply => ({ status: 200, body: geminiResponse(model, partial, "RECITATION") }),
  safety: (model: string): Reply => ({ status: 200, body: geminiResponse(model, "", "SAFETY") }),
};

/**
 * Starts the strict Gemini fake. Valid generate calls get `respond(call)` with finish reason
 * STOP; valid embed calls get one `embed` vector per request (per Content: a Content's parts
 * make ONE vector, as gemini-embedding-2 embeds a Content whole), of the model's dimension.
 */
export async function startStrictGemini(options: StrictFakeOptions & ReportedModelOptions = {}): Promise<StrictFake & PromptCaching> {
  const apiKey = options.apiKey ?? "AIza-test-0123456789";
  const promptCache = createPromptCacheBook();
  const delay = options.answerDelayMs ?? 0;
  const reported = options.reportedModel ?? ((requested: string) => requested);
  const respond = options.respond ?? (() => "I would probably buy it.");
  const embed = options.embed ?? ((text: string, model: string) => hashEmbedding(`${model}:${text}`, geminiModelRules(model).embedding?.dimensions ?? 768));
  const vector = (model: string, request: Body) => {
    const values = embed(textOf(request.content), model);
    const dims = request.outputDimensionality;
    return { values: typeof dims === "number" ? values.slice(0, dims) : values };
  };
  const answer = (req: RecordedRequest): Reply => {
    const model = modelOfPath(req.path);
    if (req.path.includes(":generateContent")) {
      const rules = geminiCacheRules(model);
      // Caches belong to a project (here: its key) and a model.
      const prompt = rules ? promptCache.account(`${apiKey}\u0000${model}`, model, geminiPromptParts(req.body), rules, delay) : undefined;
      return { status: 200, body: geminiResponse(reported(model), respond(geminiCall(model, req.body)), "STOP", undefined, prompt), ...(delay > 0 ? { delayMs: delay } : {}) };
    }
    if (req.path.includes(":batchEmbedContents")) return { status: 200, body: { embeddings: ((req.body as Body).requests as Body[]).map((r) => vector(model, r)) } };
    return { status: 200, body: { embedding: vector(model, req.body as Body) } };
  };
  const server = await startStrictServer(geminiCheck(apiKey), answer, options);
  return { ...server, promptCache };
}
