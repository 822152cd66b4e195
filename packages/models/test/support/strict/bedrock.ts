import type { RecordedRequest, Reply } from "../fake-provider.ts";
import { verifySigV4 } from "./sigv4.ts";
import { imageSize } from "./image-size.ts";
import { claudeImageTokens, textTokens } from "./image-tokens.ts";
import { createPromptCacheBook, digestOf, type PromptAccount, type PromptPart } from "./prompt-cache-book.ts";
import { hashEmbedding, startStrictServer, type Check, type ModelCall, type PromptCaching, type StrictFake, type StrictFakeOptions } from "./strict-fake.ts";

/**
 * A strict Amazon Bedrock Runtime fake: SigV4 is verified first (with the test's own secret
 * key, by ./sigv4.ts), then the Converse or InvokeModel body is checked against the service's
 * published request shape. Sources:
 * - CONVERSE: https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html and the SDK's
 *   node_modules/@aws-sdk/client-bedrock-runtime/dist-types/models/models_0.d.ts (ConverseRequest,
 *   Message, ContentBlock, ImageBlock, InferenceConfiguration) and models/enums.d.ts (ImageFormat).
 * - ERRORS: the SDK's error shapes (dist-cjs/index.js: ValidationException 400, AccessDeniedException 403,
 *   ResourceNotFoundException 404, ThrottlingException 429, ServiceQuotaExceededException 400) and
 *   https://docs.aws.amazon.com/bedrock/latest/userguide/troubleshooting-api-error-codes.html.
 * - Per-model rules: the Claude, Nova, Llama and Titan pages cited in src/capabilities/bedrock.ts,
 *   restated here on purpose (the fake must not agree with the adapter by sharing its table).
 */

export interface StrictBedrockOptions extends StrictFakeOptions {
  accessKeyId: string;
  secretAccessKey: string;
  region: string;
}

export interface StrictBedrock extends StrictFake, PromptCaching {
  /** Decoded image bytes of each valid Converse call, in order. */
  images: Uint8Array[][];
}

interface FakeModel {
  vision: boolean;
  /** Largest maxTokens. */
  maxTokens: number;
  /** Temperature the model takes; null: sending any is a 400. */
  temperature: { min: number; max: number } | null;
  thinking: "budget" | "adaptive" | "none";
  /** Callable only through a cross-region inference profile, not on-demand by its base id. */
  profileOnly: boolean;
  embedding?: boolean;
  /** Tokens a cache checkpoint's prefix needs to be cached; absent: the model takes no cachePoint (CACHING table). */
  cacheMinimum?: number;
}

// Prompt caching (CACHING: https://docs.aws.amazon.com/bedrock/latest/userguide/prompt-caching.html,
// "Supported models, regions, and limits"): Claude Sonnet 4.5/4.6 1,024 tokens per checkpoint,
// Haiku 4.5 and Opus 4.5-4.7 4,096, Nova 1K; Llama takes no cachePoint.
// Claude 4.x and Llama 3.2/4 are sold on-demand only through inference profiles
// (Bedrock user guide, "Supported Regions and models for inference profiles").
const MODELS: Record<string, FakeModel> = {
  "anthropic.claude-sonnet-4-5-20250929-v1:0": { vision: true, maxTokens: 64_000, temperature: { min: 0, max: 1 }, thinking: "budget", profileOnly: true, cacheMinimum: 1024 },
  "anthropic.claude-haiku-4-5-20251001-v1:0": { vision: true, maxTokens: 64_000, temperature: { min: 0, max: 1 }, thinking: "budget", profileOnly: true, cacheMinimum: 4096 },
  "anthropic.claude-opus-4-6-v1": { vision: true, maxTokens: 128_000, temperature: { min: 0, max: 1 }, thinking: "adaptive", profileOnly: true, cacheMinimum: 4096 },
  "anthropic.claude-sonnet-4-6": { vision: true, maxTokens: 64_000, temperature: { min: 0, max: 1 }, thinking: "adaptive", profileOnly: true, cacheMinimum: 1024 },
  // Opus 4.7: sampling parameters removed; adaptive thinking only (claude-messages-adaptive-thinking.html).
  "anthropic.claude-opus-4-7": { vision: true, maxTokens: 128_000, temperature: null, thinking: "adaptive", profileOnly: true, cacheMinimum: 4096 },
  "amazon.nova-pro-v1:0": { vision: true, maxTokens: 10_000, temperature: { min: 0, max: 1 }, thinking: "none", profileOnly: false, cacheMinimum: 1000 },
  "amazon.nova-lite-v1:0": { vision: true, maxTokens: 10_000, temperature: { min: 0, max: 1 }, thinking: "none", profileOnly: false, cacheMinimum: 1000 },
  "amazon.nova-micro-v1:0": { vision: false, maxTokens: 10_000, temperature: { min: 0, max: 1 }, thinking: "none", profileOnly: false, cacheMinimum: 1000 },
  "meta.llama3-2-11b-instruct-v1:0": { vision: true, maxTokens: 2_048, temperature: { min: 0, max: 1 }, thinking: "none", profileOnly: true },
  "meta.llama3-2-90b-instruct-v1:0": { vision: true, maxTokens: 2_048, temperature: { min: 0, max: 1 }, thinking: "none", profileOnly: true },
  "meta.llama4-maverick-17b-instruct-v1:0": { vision: true, maxTokens: 8_192, temperature: { min: 0, max: 1 }, thinking: "none", profileOnly: true },
  "amazon.titan-embed-text-v2:0": { vision: false, maxTokens: 0, temperature: null, thinking: "none", profileOnly: false, embedding: true },
};
const PROFILE = /^(us|eu|apac|global)\.(.+)$/;

/** An AWS JSON error: the name in x-amzn-ErrorType (what the SDK reads first) and the message in the body. */
export function awsError(status: number, type: string, message: string): Reply {
  return { status, headers: { "x-amzn-errortype": `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/` }, body: { message } };
}

type Refusal = { status: number; body: unknown; rule: string; headers?: Record<string, string> };
const refuse = (status: number, type: string, message: string, rule: string): Refusal => {
  const reply = awsError(status, type, message) as { headers: Record<string, string>; body: unknown };
  return { status, body: reply.body, headers: reply.headers, rule };
};
const invalid = (message: string, rule: string) => refuse(400, "ValidationException", message, rule);

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);
const extraKeys = (o: Record<string, unknown>, allowed: readonly string[]) => Object.keys(o).filter((k) => !allowed.includes(k));

/** Magic numbers of the four Converse image formats (ImageFormat enum): an image that is not what it says cannot be read. */
function looksLike(format: string, bytes: Buffer): boolean {
  if (format === "png") return bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  if (format === "jpeg") return bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
  if (format === "gif") return bytes.subarray(0, 4).toString("latin1") === "GIF8";
  if (format === "webp") return bytes.subarray(0, 4).toString("latin1") === "RIFF" && bytes.subarray(8, 12).toString("latin1") === "WEBP";
  return false;
}

/** Where a request goes: the operation and the model id from the path (URL-decoded once, as the client encoded it once). */
function routeOf(path: string): { op: "converse" | "invoke"; modelId: string } | null {
  const m = /^\/model\/([^/?]+)\/(converse|invoke)(\?|$)/.exec(path);
  if (!m) return null;
  return { op: m[2] as "converse" | "invoke", modelId: decodeURIComponent(m[1]!) };
}

/** The body bytes as received: any change after signing, whitespace included, breaks the signature. */
const rawBodyOf = (req: RecordedRequest): string => req.raw;

/** The model behind an id; an unknown id and an on-demand call of a profile-only model are refused as the service does. */
function modelOf(modelId: string): { model: FakeModel } | Refusal {
  const viaProfile = PROFILE.exec(modelId);
  const baseId = viaProfile ? viaProfile[2]! : modelId;
  const model = MODELS[baseId];
  // The service answers an id it cannot resolve with 400 ValidationException (troubleshooting page; API_runtime_Converse.html Errors).
  if (!model) return invalid("The provided model identifier is invalid.", `unknown model id ${modelId} (ValidationException, API_runtime_Converse.html)`);
  if (model.profileOnly && !viaProfile) {
    return invalid(
      `Invocation of model ID ${modelId} with on-demand throughput isn't supported. Retry your request with the ID or ARN of an inference profile that contains this model.`,
      `${modelId} is only callable through an inference profile (inference-profiles-support.html)`,
    );
  }
  return { model };
}

const SYSTEM_KEYS = ["text", "guardContent", "cachePoint"] as const;
const CONTENT_KEYS = ["text", "image", "document", "video", "audio", "toolUse", "toolResult", "guardContent", "cachePoint", "reasoningContent", "citationsContent", "searchResult"] as const;
const REQUEST_KEYS = [
  "messages",
  "system",
  "inferenceConfig",
  "toolConfig",
  "guardrailConfig",
  "additionalModelRequestFields",
  "promptVariables",
  "additionalModelResponseFieldPaths",
  "requestMetadata",
  "performanceConfig",
  "serviceTier",
  "outputConfig",
] as const;

function checkConverse(body: unknown, modelId: string, model: FakeModel): Refusal | null {
  if (!isObject(body)) return invalid("Malformed input request, please reformat your input and try again.", "body must be a JSON object (ConverseRequest)");
  const extra = extraKeys(body, REQUEST_KEYS);
  if (extra.length > 0) return invalid(`Unknown field(s) in request: ${extra.join(", ")}`, `unknown top-level field(s) ${extra.join(", ")} (ConverseRequest members, models_0.d.ts)`);

  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) return invalid("A conversation must start with a user message.", "messages must be a non-empty array (API_runtime_Converse.html)");
  let images = 0;
  let cachePoints = 0;
  for (const [i, message] of messages.entries()) {
    if (!isObject(message) || extraKeys(message, ["role", "content"]).length > 0) return invalid(`messages.${i} is malformed`, "a Message has only role and content (models_0.d.ts Message)");
    if (message.role !== "user" && message.role !== "assistant") return invalid(`messages.${i}.role must be user or assistant`, "ConversationRole is user | assistant (enums.d.ts)");
    // Roles alternate, starting with the user (Converse user guide; Nova complete-request-schema.html).
    if ((i % 2 === 0) !== (message.role === "user")) return invalid("A conversation must alternate between user and assistant roles, starting with a user message.", "roles must alternate from user");
    if (!Array.isArray(message.content) || message.content.length === 0) return invalid(`messages.${i}.content must not be empty`, "Message.content is a non-empty ContentBlock list");
    for (const [j, block] of message.content.entries()) {
      const at = `messages.${i}.content.${j}`;
      if (!isObject(block)) return invalid(`${at} is malformed`, "ContentBlock must be an object");
      const members = Object.keys(block);
      // ContentBlock is a union: exactly one member is set (models_0.d.ts ContentBlock namespace).
      if (members.length !== 1 || !CONTENT_KEYS.includes(members[0] as (typeof CONTENT_KEYS)[number])) return invalid(`${at} must set exactly one content type`, "ContentBlock is a union of one member");
      if ("text" in block) {
        if (typeof block.text !== "string" || block.text.trim() === "") return invalid(`The text field in the ContentBlock object at ${at} is blank. Add text to the text field, and try again.`, "text blocks must not be blank");
      } else if ("image" in block) {
        const image = block.image;
        if (!isObject(image) || extraKeys(image, ["format", "source"]).length > 0) return invalid(`${at}.image is malformed`, "ImageBlock has format and source (models_0.d.ts ImageBlock)");
        if (!["png", "jpeg", "gif", "webp"].includes(image.format as string)) return invalid(`${at}.image.format must be one of png, jpeg, gif, webp`, "ImageFormat is gif | jpeg | png | webp (enums.d.ts)");
        if (!isObject(image.source) || Object.keys(image.source).length !== 1 || typeof image.source.bytes !== "string") return invalid(`${at}.image.source must carry bytes`, "ImageSource.bytes, base64 on the wire (restJson blob)");
        const bytes = Buffer.from(image.source.bytes, "base64");
        // Up to 3.75 MB per image (ImageBlock.source, API reference).
        if (bytes.length === 0 || bytes.length > 3.75 * 1024 * 1024) return invalid(`${at}.image is empty or larger than 3.75 MB`, "image size 1 byte to 3.75 MB");
        if (!model.vision) return invalid(`This model doesn't support the image content block that you provided.`, `${modelId} takes no images`);
        if (!looksLike(image.format as string, bytes)) return invalid(`Could not process image at ${at}: its bytes are not a ${String(image.format)} image.`, "image bytes must decode as the declared format");
        images++;
      } else if ("cachePoint" in block) {
        const refused = checkCachePoint(block.cachePoint, at, modelId, model);
        if (refused) return refused;
        if (j === 0) return invalid(`${at}: a cachePoint cannot be the first block of a message`, "a cache checkpoint follows the content it caches (CACHING)");
        cachePoints++;
      } else {
        return invalid(`${at}: ${members[0]} blocks are not modelled by this fake`, `content type ${members[0]} is not modelled here (only text, image and cachePoint)`);
      }
    }
  }
  // At most 20 images per request (Converse user guide, image limits).
  if (images > 20) return invalid("Too many images: at most 20 are allowed.", "at most 20 images");

  if (body.system !== undefined) {
    if (!Array.isArray(body.system)) return invalid("system must be a list of SystemContentBlock", "system is SystemContentBlock[]");
    for (const [k, block] of body.system.entries()) {
      if (!isObject(block) || Object.keys(block).length !== 1 || !SYSTEM_KEYS.includes(Object.keys(block)[0] as (typeof SYSTEM_KEYS)[number])) return invalid(`system.${k} is malformed`, "SystemContentBlock is a union of one member");
      if ("text" in block && (typeof block.text !== "string" || block.text.trim() === "")) return invalid(`The text field in system.${k} is blank.`, "system text must not be blank");
      if ("cachePoint" in block) {
        const refused = checkCachePoint(block.cachePoint, `system.${k}`, modelId, model);
        if (refused) return refused;
        cachePoints++;
      }
    }
  }
  // Up to 4 cache checkpoints per request (CACHING).
  if (cachePoints > 4) return invalid(`You can add up to 4 cache checkpoints. Found ${cachePoints}.`, "at most 4 cache checkpoints (CACHING)");

  const config = body.inferenceConfig;
  let maxTokens: number | undefined;
  let temperature: number | undefined;
  if (config !== undefined) {
    if (!isObject(config)) return invalid("inferenceConfig is malformed", "inferenceConfig is an object");
    const extraConfig = extraKeys(config, ["maxTokens", "temperature", "topP", "stopSequences"]);
    if (extraConfig.length > 0) return invalid(`Unknown field(s) in inferenceConfig: ${extraConfig.join(", ")}`, "InferenceConfiguration has maxTokens, temperature, topP, stopSequences only (models_0.d.ts)");
    if (config.maxTokens !== undefined) {
      if (!Number.isInteger(config.maxTokens) || (config.maxTokens as number) < 1) return invalid("inferenceConfig.maxTokens must be an integer of at least 1", "maxTokens ≥ 1 (API reference InferenceConfiguration)");
      maxTokens = config.maxTokens as number;
      if (maxTokens > model.maxTokens) return invalid(`The maximum tokens you requested exceeds the model limit of ${model.maxTokens}.`, `maxTokens ${maxTokens} above ${modelId}'s ${model.maxTokens}`);
    }
    if (config.temperature !== undefined) {
      temperature = config.temperature as number;
      if (!model.temperature) return invalid(`temperature is deprecated for this model.`, `${modelId} takes no temperature (sampling parameters removed)`);
      if (typeof temperature !== "number" || temperature < model.temperature.min || temperature > model.temperature.max) return invalid(`temperature: must be between ${model.temperature.min} and ${model.temperature.max}`, "temperature outside the model's range");
    }
    if (config.topP !== undefined && (typeof config.topP !== "number" || config.topP < 0 || config.topP > 1)) return invalid("topP: must be between 0 and 1", "topP 0-1");
  }

  const fields = body.additionalModelRequestFields;
  if (fields !== undefined) {
    if (!isObject(fields)) return invalid("additionalModelRequestFields must be a JSON object", "additionalModelRequestFields is a document object");
    const allowed = model.thinking === "none" ? [] : ["thinking", "top_k", "anthropic_beta", "output_config"];
    const extraFields = extraKeys(fields, allowed);
    // The model validates these fields itself and names the first it does not know.
    if (extraFields.length > 0) return invalid(`Malformed input request: extraneous key [${extraFields[0]}] is not permitted, please reformat your input and try again.`, `${modelId} does not take ${extraFields.join(", ")}`);
    const thinking = fields.thinking;
    if (thinking !== undefined) {
      if (!isObject(thinking)) return invalid("thinking: must be an object", "thinking is an object");
      if (thinking.type === "enabled") {
        // Opus 4.7 answers 400 to enabled; budget_tokens ≥ 1024 and below max_tokens (extended-thinking page).
        if (model.thinking !== "budget" && model.thinking !== "adaptive") return invalid("thinking.type.enabled is not supported for this model.", "enabled thinking not supported");
        if (modelId.includes("opus-4-7")) return invalid('thinking.type.enabled is not supported for this model. Use thinking.type.adaptive and output_config.effort to control thinking behavior.', "Opus 4.7 takes adaptive thinking only");
        const budget = thinking.budget_tokens;
        if (!Number.isInteger(budget) || (budget as number) < 1024) return invalid("thinking.enabled.budget_tokens: Input should be greater than or equal to 1024", "budget_tokens ≥ 1024");
        if (maxTokens !== undefined && (budget as number) >= maxTokens) return invalid("`max_tokens` must be greater than `thinking.budget_tokens`.", "budget_tokens < max_tokens");
      } else if (thinking.type === "adaptive") {
        if (model.thinking !== "adaptive") return invalid("thinking.type.adaptive is not supported for this model.", "adaptive thinking only on Claude 4.6 and later (claude-messages-adaptive-thinking.html)");
        if (extraKeys(thinking, ["type", "display"]).length > 0) return invalid("thinking.adaptive: Extra inputs are not permitted", "adaptive thinking takes no budget");
      } else if (!(thinking.type === "disabled" && model.thinking !== "adaptive")) {
        return invalid("thinking.type: Input tag does not match any of the expected tags", "thinking.type is enabled | adaptive (| disabled before 4.6)");
      }
      // Thinking is not compatible with temperature changes (extended-thinking page).
      if (thinking.type !== "disabled" && temperature !== undefined && temperature !== 1) return invalid("`temperature` may only be set to 1 when thinking is enabled.", "no temperature with thinking");
    }
  }
  return null;
}

/** A `CachePointBlock` (models_0.d.ts): `{type: "default", ttl?}`, on a model that supports prompt caching. */
function checkCachePoint(value: unknown, at: string, modelId: string, model: FakeModel): Refusal | null {
  if (!isObject(value) || value.type !== "default" || extraKeys(value, ["type", "ttl"]).length > 0) return invalid(`${at}.cachePoint is malformed`, "CachePointBlock is {type: default, ttl?} (models_0.d.ts; enums.d.ts CachePointType)");
  if (model.cacheMinimum === undefined) return invalid("You invoked an unsupported model or your request did not allow prompt caching. See the documentation for more information.", `${modelId} does not support prompt caching (CACHING)`);
  return null;
}

function checkInvoke(body: unknown, modelId: string, model: FakeModel): Refusal | null {
  if (!model.embedding) return invalid("This fake models InvokeModel for Titan Text Embeddings V2 only", `InvokeModel on ${modelId} is not modelled here`);
  if (!isObject(body)) return invalid("Malformed input request, please reformat your input and try again.", "InvokeModel body must be JSON");
  const extra = extraKeys(body, ["inputText", "dimensions", "normalize", "embeddingTypes"]);
  // Titan V2 request: inputText required; dimensions 1024 | 512 | 256; normalize boolean; embeddingTypes float | binary (model-parameters-titan-embed-text.html).
  if (extra.length > 0) return invalid(`Malformed input request: extraneous key [${extra[0]}] is not permitted, please reformat your input and try again.`, `Titan V2 takes no ${extra.join(", ")}`);
  if (typeof body.inputText !== "string" || body.inputText === "") return invalid("Malformed input request: #: required key [inputText] not found", "inputText is a required non-empty string");
  if (body.dimensions !== undefined && ![256, 512, 1024].includes(body.dimensions as number)) return invalid("Malformed input request: #/dimensions: must be 256, 512 or 1024", "dimensions 256 | 512 | 1024");
  if (body.normalize !== undefined && typeof body.normalize !== "boolean") return invalid("Malformed input request: #/normalize: expected type: Boolean", "normalize is a boolean");
  if (body.embeddingTypes !== undefined && (!Array.isArray(body.embeddingTypes) || !body.embeddingTypes.every((t) => t === "float" || t === "binary"))) return invalid("Malformed input request: #/embeddingTypes", "embeddingTypes ⊂ float, binary");
  return null;
}

/** The request check: signature, then route and model, then the operation's body. */
export function bedrockCheck(options: Pick<StrictBedrockOptions, "accessKeyId" | "secretAccessKey" | "region">): Check {
  return (req) => {
    // SigV4 (IAM user guide "Create a signed AWS API request"); failures are 403 with the name in x-amzn-ErrorType.
    const verdict = verifySigV4({ method: req.method, path: req.path, headers: req.headers, body: rawBodyOf(req) }, { ...options, service: "bedrock" });
    if (!verdict.ok) return refuse(403, verdict.errorType, verdict.message, `SigV4: ${verdict.errorType}: ${verdict.message}`);
    const route = req.method === "POST" ? routeOf(req.path) : null;
    if (!route) return refuse(404, "UnknownOperationException", "Unknown operation", `no Bedrock Runtime operation at ${req.method} ${req.path}`);
    const found = modelOf(route.modelId);
    if ("status" in found) return found;
    const contentType = String(req.headers["content-type"] ?? "");
    if (!contentType.startsWith("application/json")) return invalid("Content-Type must be application/json", "the body is JSON (restJson1)");
    return route.op === "converse" ? checkConverse(req.body, route.modelId, found.model) : checkInvoke(req.body, route.modelId, found.model);
  };
}

/** The call as the test's `respond` sees it. */
function callOf(req: RecordedRequest, modelId: string): ModelCall {
  const body = req.body as { system?: Array<{ text?: string }>; messages: Array<{ content: Array<{ text?: string; image?: unknown }> }> };
  const blocks = body.messages.flatMap((m) => m.content);
  return {
    model: modelId,
    system: (body.system ?? []).map((s) => s.text ?? "").join("\n"),
    user: blocks.flatMap((b) => (typeof b.text === "string" ? [b.text] : [])).join("\n"),
    images: blocks.filter((b) => b.image !== undefined).length,
  };
}

/**
 * The prompt as the cache sees it: the system blocks, then the message blocks, each cachePoint
 * closing the prefix before it (CACHING). Images at width x height / 750, Claude's rule
 * (image-tokens.ts); the fake uses it for Nova and Llama too.
 */
export function conversePromptParts(body: unknown): PromptPart[] {
  const b = body as { system?: Array<Record<string, unknown>>; messages: Array<{ role: string; content: Array<Record<string, unknown>> }> };
  const parts: PromptPart[] = [];
  const add = (block: Record<string, unknown>, role: string) => {
    if ("cachePoint" in block) {
      if (parts.length > 0) parts[parts.length - 1] = { ...parts.at(-1)!, breakpoint: true };
    } else if (typeof block.text === "string") {
      parts.push({ kind: "text", tokens: textTokens(block.text), digest: digestOf(`${role}:${block.text}`) });
    } else if (isObject(block.image)) {
      const data = String((block.image.source as { bytes?: unknown }).bytes ?? "");
      const size = imageSize(Buffer.from(data, "base64"));
      parts.push({ kind: "image", tokens: size ? claudeImageTokens(size.width, size.height) : 1600, digest: digestOf(data) });
    }
  };
  for (const block of b.system ?? []) add(block, "system");
  for (const message of b.messages) for (const block of message.content) add(block, message.role);
  return parts;
}

/** A Converse response as the service sends it (ConverseResponse, models_0.d.ts). */
export function converseResponse(text: string, stopReason = "end_turn", tokens: { input: number; output: number } = { input: 900, output: 40 }, prompt?: PromptAccount): unknown {
  // With a cache checkpoint, cache reads and writes are reported beside inputTokens (TokenUsage, models_0.d.ts).
  const usage = prompt
    ? { inputTokens: prompt.promptTokens - prompt.cachedTokens - prompt.writtenTokens, outputTokens: tokens.output, totalTokens: prompt.promptTokens + tokens.output, cacheReadInputTokens: prompt.cachedTokens, cacheWriteInputTokens: prompt.writtenTokens }
    : { inputTokens: tokens.input, outputTokens: tokens.output, totalTokens: tokens.input + tokens.output };
  return {
    output: { message: { role: "assistant", content: text ? [{ text }] : [] } },
    stopReason,
    usage,
    metrics: { latencyMs: 412 },
  };
}

/** Scripted faults with the service's real shapes. */
export const bedrockFaults = {
  throttling: (): Reply => awsError(429, "ThrottlingException", "Too many requests, please wait before trying again."),
  quota: (): Reply => awsError(400, "ServiceQuotaExceededException", "Your request exceeded the service quota for your account. You can view your quotas at https://docs.aws.amazon.com/servicequotas/latest/userguide/gs-request-quota.html."),
  contentFiltered: (): Reply => ({ status: 200, body: converseResponse("", "content_filtered", { input: 900, output: 0 }) }),
  maxTokens: (text: string, output: number): Reply => ({ status: 200, body: converseResponse(text, "max_tokens", { input: 900, output }) }),
};

/**
 * Starts the strict Bedrock fake on 127.0.0.1. Valid Converse calls are answered with
 * `respond(call)` (default "I would buy it."); valid Titan calls with `embed(text)`.
 */
export async function startStrictBedrock(options: StrictBedrockOptions): Promise<StrictBedrock> {
  const images: Uint8Array[][] = [];
  const promptCache = createPromptCacheBook();
  const delay = options.answerDelayMs ?? 0;
  const respond = options.respond ?? (() => "I would buy it.");
  const embed = options.embed ?? ((text: string) => hashEmbedding(text, 1024));
  const check = bedrockCheck(options);
  const fake = await startStrictServer(
    (req) => {
      const refused = check(req);
      if (!refused) {
        const body = req.body as { messages?: Array<{ content: Array<{ image?: { source: { bytes: string } } }> }> };
        if (body.messages) images.push(body.messages.flatMap((m) => m.content).flatMap((b) => (b.image ? [new Uint8Array(Buffer.from(b.image.source.bytes, "base64"))] : [])));
      }
      return refused;
    },
    (req) => {
      const route = routeOf(req.path)!;
      if (route.op === "invoke") {
        const body = req.body as { inputText: string; dimensions?: number };
        const vector = embed(body.inputText, route.modelId).slice(0, body.dimensions ?? 1024);
        return { status: 200, body: { embedding: vector, inputTextTokenCount: body.inputText.split(/\s+/).length, embeddingsByType: { float: vector } } };
      }
      const parts = conversePromptParts(req.body);
      const minimum = (modelOf(route.modelId) as { model: FakeModel }).model.cacheMinimum;
      // Only a request with a cache checkpoint uses the cache, which belongs to the account (here: its key) and the model.
      const prompt = minimum !== undefined && parts.some((p) => p.breakpoint) ? promptCache.account(`${options.accessKeyId}\u0000${route.modelId}`, route.modelId, parts, { mode: "breakpoints", minimum, granularity: 1 }, delay) : undefined;
      return { status: 200, body: converseResponse(respond(callOf(req, route.modelId)), "end_turn", undefined, prompt), ...(delay > 0 ? { delayMs: delay } : {}) };
    },
    options.reply ? { reply: options.reply } : {},
  );
  return { ...fake, images, promptCache };
}
