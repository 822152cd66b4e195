import type { RecordedRequest, Reply } from "../fake-provider.ts";
import { imageSize } from "./image-size.ts";
import { claudeImageTokens, textTokens } from "./image-tokens.ts";
import { createPromptCacheBook, digestOf, type PromptAccount, type PromptPart } from "./prompt-cache-book.ts";
import { header, startStrictServer, type Check, type ModelCall, type PromptCaching, type ReportedModelOptions, type StrictFake, type StrictFakeOptions } from "./strict-fake.ts";

/**
 * A strict fake of Anthropic's Messages API (POST /v1/messages) under the `anthropic-version` the
 * installed SDK sends. Each rule cites where it comes from:
 * - SDK: node_modules/@anthropic-ai/sdk/resources/messages/messages.d.ts (request and response types)
 * - CLIENT: node_modules/@anthropic-ai/sdk/client.js (headers the SDK sends)
 * - ERRORS: https://platform.claude.com/docs/en/api/errors (statuses, error types, the envelope)
 * - THINKING: https://platform.claude.com/docs/en/build-with-claude/thinking-troubleshooting
 * - ADAPTIVE: https://platform.claude.com/docs/en/build-with-claude/adaptive-thinking
 * - FABLE5: https://platform.claude.com/docs/en/models/fable-5/migration-guide
 * - MODELS: https://platform.claude.com/docs/en/models/overview
 * - VISION: https://platform.claude.com/docs/en/build-with-claude/vision (image formats)
 * - RATES: https://platform.claude.com/docs/en/api/rate-limits (rate-limit headers, RFC 3339 resets)
 * - AUTH: https://platform.claude.com/docs/en/manage-claude/authentication (API key as a bearer token, or x-api-key)
 * - CACHING: https://platform.claude.com/docs/en/build-with-claude/prompt-caching (cache_control
 *   breakpoints, at most 4; minimum cacheable length per model; cache_read_input_tokens and
 *   cache_creation_input_tokens beside input_tokens; a 5-minute lifetime; an entry is available
 *   only after the first response, so concurrent requests miss) - kept by prompt-cache-book.ts.
 * The fake keeps its own reading of these documents rather than importing src/capabilities, so
 * a wrong rule there is caught here instead of being agreed with.
 */

/** The only version whose body schema the fake models: the one the SDK sends (CLIENT). */
export const ANTHROPIC_FAKE_VERSION = "2026-10-21";

/** Top-level body properties of `MessageCreateParamsBase` (SDK); `user_profile_id` and `workspace_id` are header params the SDK strips. */
const BODY_PROPERTIES = new Set([
  "max_tokens",
  "messages",
  "model",
  "cache_control",
  "container",
  "diagnostics",
  "inference_geo",
  "metadata",
  "output_config",
  "service_tier",
  "speed",
  "stop_sequences",
  "stream",
  "system",
  "thinking",
  "tool_choice",
  "tools",
]);

type ThinkingType = "enabled" | "disabled" | "adaptive" | "between_tools";

interface FakeModel {
  /** The thinking types the model takes; others are a 400 (THINKING table; ADAPTIVE; FABLE5). */
  thinking: ReadonlySet<ThinkingType>;
  /** The largest max_tokens (MODELS and each model's page). */
  maxOutput: number;
}

const model = (thinking: ThinkingType[], maxOutput: number): FakeModel => ({ thinking: new Set(thinking), maxOutput });
// Claude 4.5: manual thinking or none; adaptive is refused (ADAPTIVE: "do not support adaptive thinking").
const CLAUDE_45 = model(["enabled", "disabled"], 64_000);
// Claude 4.6: both modes, enabled deprecated but accepted (THINKING).
// Opus 4.7 / 4.8: enabled refused with a 400 (THINKING).
// Mythos Preview: both modes, disabled refused (THINKING; ADAPTIVE).
// Claude 5: adaptive, can be disabled; Fable 5.x, Mythos 5.x and Opus 5.5 refuse enabled and disabled (FABLE5; MODELS "always on").
// Only Sonnet 5.5 takes between_tools, in place of disabled (THINKING).
const ALWAYS_ON = model(["adaptive"], 128_000);

/** The model ids the SDK's `Model` union lists (SDK), each with its rules. Any other id is a 404. */
export const ANTHROPIC_FAKE_MODELS: Readonly<Record<string, FakeModel>> = {
  "claude-haiku-4-5": CLAUDE_45,
  "claude-haiku-4-5-20251001": CLAUDE_45,
  "claude-sonnet-4-5": CLAUDE_45,
  "claude-sonnet-4-5-20250929": CLAUDE_45,
  "claude-opus-4-5": CLAUDE_45,
  "claude-opus-4-5-20251101": CLAUDE_45,
  "claude-sonnet-4-6": model(["enabled", "disabled", "adaptive"], 64_000),
  "claude-opus-4-6": model(["enabled", "disabled", "adaptive"], 128_000),
  "claude-opus-4-7": model(["adaptive", "disabled"], 128_000),
  "claude-opus-4-8": model(["adaptive", "disabled"], 128_000),
  "claude-mythos-preview": model(["enabled", "adaptive"], 64_000),
  "claude-sonnet-5": model(["adaptive", "disabled"], 128_000),
  "claude-opus-5": model(["adaptive", "disabled"], 128_000),
  "claude-fable-5": ALWAYS_ON,
  "claude-fable-5-1": ALWAYS_ON,
  "claude-fable-5-2": ALWAYS_ON,
  "claude-mythos-5": ALWAYS_ON,
  "claude-mythos-5-1": ALWAYS_ON,
  "claude-mythos-5-2": ALWAYS_ON,
  "claude-opus-5-5": ALWAYS_ON,
  "claude-sonnet-5-5": model(["adaptive", "between_tools"], 128_000),
  "claude-haiku-5-5": model(["adaptive", "disabled"], 128_000),
};

/**
 * The minimum cacheable prompt length per model (CACHING: "Cache limitations"): shorter prefixes
 * are processed without caching, and without an error. Models the page does not list are given 1024.
 */
export function anthropicCacheMinimum(modelId: string): number {
  if (/^claude-(opus-4-[567]|haiku-4-5|mythos-preview)/.test(modelId)) return 4096;
  if (/^claude-(opus-5|fable-5|mythos-5)(?!-5)/.test(modelId) && !modelId.startsWith("claude-opus-5-5")) return 512;
  return 1024;
}

/** The smallest manual thinking budget (SDK `ThinkingConfigEnabled.budget_tokens`: "Must be ≥1024 and less than `max_tokens`"). */
const MIN_BUDGET = 1024;

/** Image media types the API takes (SDK `Base64ImageSource.media_type`; VISION). */
const MEDIA_TYPES = new Set(["image/jpeg", "image/png", "image/gif", "image/webp"]);

let requestCounter = 0;
const requestId = () => `req_fake${String(++requestCounter).padStart(6, "0")}`;

/** Anthropic's error envelope (ERRORS): `{type: "error", error: {type, message}, request_id}`. */
export function anthropicErrorBody(type: string, message: string, details?: Record<string, unknown>): unknown {
  return { type: "error", error: { type, message, ...(details ? { details } : {}) }, request_id: requestId() };
}

type Refused = NonNullable<ReturnType<Check>>;
const refuse = (status: number, type: string, message: string, rule: string): Refused => ({ status, body: anthropicErrorBody(type, message), rule });
const invalid = (message: string, rule: string) => refuse(400, "invalid_request_error", message, rule);

const isObject = (x: unknown): x is Record<string, unknown> => typeof x === "object" && x !== null && !Array.isArray(x);
const isInt = (x: unknown): x is number => typeof x === "number" && Number.isInteger(x);

/** What the image bytes are, by their magic numbers; null when none of the four formats. */
function sniffImage(bytes: Buffer): string | null {
  if (bytes.length >= 4 && bytes[0] === 0x89 && bytes.toString("latin1", 1, 4) === "PNG") return "image/png";
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (bytes.length >= 4 && bytes.toString("latin1", 0, 4) === "GIF8") return "image/gif";
  if (bytes.length >= 12 && bytes.toString("latin1", 0, 4) === "RIFF" && bytes.toString("latin1", 8, 12) === "WEBP") return "image/webp";
  return null;
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

function checkImage(block: Record<string, unknown>, at: string): Refused | null {
  const source = block["source"];
  if (!isObject(source)) return invalid(`${at}.source: Field required`, "an image block needs a source (SDK ImageBlockParam)");
  if (source["type"] === "url") return typeof source["url"] === "string" ? null : invalid(`${at}.source.url: Field required`, "a url image source needs a url (SDK URLImageSource)");
  if (source["type"] !== "base64") return invalid(`${at}.source.type: Input should be 'base64', 'url' or 'file'`, "image source type (SDK ImageBlockParam)");
  const mediaType = source["media_type"];
  if (typeof mediaType !== "string" || !MEDIA_TYPES.has(mediaType)) {
    return invalid(`${at}.source.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`, "image media type outside jpeg/png/gif/webp (SDK Base64ImageSource; VISION)");
  }
  const data = source["data"];
  if (typeof data !== "string" || data.length === 0 || !BASE64.test(data)) return invalid(`${at}.source.data: The image data is not valid base64.`, "image data must be base64 (SDK Base64ImageSource)");
  const actual = sniffImage(Buffer.from(data, "base64"));
  if (actual === null) return invalid(`${at}.source: Could not process image`, "image bytes are none of the supported formats (VISION)");
  if (actual !== mediaType) return invalid(`${at}.source: The image was specified using the ${mediaType} media type, but the image appears to be a ${actual} image`, "image bytes must match the media type (VISION)");
  return null;
}

// Block types a user message may carry (SDK ContentBlockParam); only text and image are checked in depth.
const BLOCK_TYPES = new Set(["text", "image", "document", "search_result", "thinking", "redacted_thinking", "tool_use", "tool_result", "server_tool_use", "web_search_tool_result", "container_upload"]);

function checkMessages(messages: unknown): Refused | null {
  if (messages === undefined) return invalid("messages: Field required", "messages is required (SDK MessageCreateParamsBase)");
  if (!Array.isArray(messages)) return invalid("messages: Input should be a valid list", "messages is a list (SDK)");
  if (messages.length === 0) return invalid("messages: at least one message is required", "messages may not be empty (SDK)");
  for (const [i, message] of messages.entries()) {
    const at = `messages.${i}`;
    if (!isObject(message)) return invalid(`${at}: Input should be a valid dictionary`, "each message is an object (SDK MessageParam)");
    for (const key of Object.keys(message)) if (key !== "role" && key !== "content") return invalid(`${at}.${key}: Extra inputs are not permitted`, "MessageParam has only role and content (SDK)");
    if (message["role"] !== "user" && message["role"] !== "assistant") return invalid(`${at}.role: Input should be 'user' or 'assistant'`, "role is user or assistant (SDK MessageParam)");
    const content = message["content"];
    if (typeof content === "string") {
      if (content.length === 0) return invalid(`${at}: text content blocks must be non-empty`, "empty text is refused (ERRORS, common validation errors)");
      continue;
    }
    if (!Array.isArray(content)) return invalid(`${at}.content: Field required`, "content is a string or a list of blocks (SDK MessageParam)");
    for (const [j, block] of content.entries()) {
      const bat = `${at}.content.${j}`;
      if (!isObject(block) || typeof block["type"] !== "string" || !BLOCK_TYPES.has(block["type"])) {
        return invalid(`${bat}: Input tag '${isObject(block) ? String(block["type"]) : ""}' found using 'type' does not match any of the expected tags`, "unknown content block type (SDK ContentBlockParam)");
      }
      if (block["cache_control"] !== undefined && block["cache_control"] !== null) {
        const refusedCache = checkCacheControl(block["cache_control"], `${bat}.cache_control`);
        if (refusedCache) return refusedCache;
        if (block["type"] === "text" && block["text"] === "") return invalid(`${bat}: cache_control cannot be set for empty text blocks`, "no breakpoint on an empty text block (CACHING)");
      }
      if (block["type"] === "text") {
        if (typeof block["text"] !== "string") return invalid(`${bat}.text: Field required`, "a text block needs text (SDK TextBlockParam)");
        if (block["text"].length === 0) return invalid(`${at}: text content blocks must be non-empty`, "empty text is refused (ERRORS, common validation errors)");
      }
      if (block["type"] === "image") {
        const refused = checkImage(block, `${bat}.image`);
        if (refused) return refused;
      }
    }
  }
  return null;
}

/** `CacheControlEphemeral` (SDK): `{type: "ephemeral", ttl?: "5m" | "1h"}` and nothing else. */
function checkCacheControl(value: unknown, at: string): Refused | null {
  if (!isObject(value)) return invalid(`${at}: Input should be a valid dictionary`, "cache_control is an object (SDK CacheControlEphemeral)");
  if (value["type"] !== "ephemeral") return invalid(`${at}.type: Input should be 'ephemeral'`, "cache_control.type is ephemeral (SDK CacheControlEphemeral)");
  for (const key of Object.keys(value)) if (key !== "type" && key !== "ttl") return invalid(`${at}.${key}: Extra inputs are not permitted`, "CacheControlEphemeral has type and ttl (SDK)");
  if (value["ttl"] !== undefined && value["ttl"] !== "5m" && value["ttl"] !== "1h") return invalid(`${at}.ttl: Input should be '5m' or '1h'`, "ttl is 5m or 1h (SDK CacheControlEphemeral)");
  return null;
}

/** Every block that carries a breakpoint: system blocks, then message blocks (CACHING: at most 4 per request). */
function breakpointCount(body: Record<string, unknown>): number {
  const blocks: unknown[] = [...(Array.isArray(body["system"]) ? body["system"] : [])];
  for (const message of (body["messages"] as Array<{ content: unknown }>) ?? []) if (Array.isArray(message.content)) blocks.push(...message.content);
  return blocks.filter((b) => isObject(b) && b["cache_control"] !== undefined && b["cache_control"] !== null).length;
}

function checkThinking(thinking: unknown, modelId: string, rules: FakeModel, maxTokens: number): Refused | null {
  if (thinking === undefined) return null;
  if (!isObject(thinking)) return invalid("thinking: Input should be a valid dictionary", "thinking is an object (SDK ThinkingConfigParam)");
  const type = thinking["type"];
  if (type !== "enabled" && type !== "disabled" && type !== "adaptive" && type !== "between_tools") {
    return invalid(`thinking: Input tag '${String(type)}' found using 'type' does not match any of the expected tags: 'enabled', 'disabled', 'between_tools', 'adaptive'`, "thinking.type (SDK ThinkingConfigParam)");
  }
  const allowed = type === "enabled" ? ["type", "budget_tokens", "display"] : type === "adaptive" ? ["type", "display"] : ["type"];
  for (const key of Object.keys(thinking)) if (!allowed.includes(key)) return invalid(`thinking.${type}.${key}: Extra inputs are not permitted`, `ThinkingConfig ${type} has no ${key} (SDK)`);
  if (!rules.thinking.has(type)) {
    return invalid(`"thinking.type.${type}" is not supported for this model (${modelId}).`, `${modelId} does not take thinking.type ${type} (THINKING; ADAPTIVE; FABLE5)`);
  }
  if (type === "enabled") {
    const budget = thinking["budget_tokens"];
    if (!isInt(budget)) return invalid("thinking.enabled.budget_tokens: Field required", "enabled thinking needs an integer budget_tokens (SDK ThinkingConfigEnabled)");
    if (budget < MIN_BUDGET) return invalid(`thinking.enabled.budget_tokens: Input should be greater than or equal to ${MIN_BUDGET}`, "budget_tokens >= 1024 (SDK ThinkingConfigEnabled)");
    if (budget >= maxTokens) return invalid("`max_tokens` must be greater than `thinking.budget_tokens`", "budget_tokens < max_tokens (SDK ThinkingConfigEnabled)");
  }
  return null;
}

/**
 * The Messages API's own checks of one request, in the order the API applies them: route,
 * credential, version header, then the body against `MessageCreateParamsBase`.
 */
export function anthropicCheck(apiKey: string): Check {
  return (req: RecordedRequest) => {
    const path = req.path.split("?")[0];
    if (req.method !== "POST" || path !== "/v1/messages") return refuse(404, "not_found_error", "Not Found", `only POST /v1/messages is served here (SDK Messages.create); got ${req.method} ${path}`);
    // An API key travels as `Authorization: Bearer` (AUTH; CLIENT apiKeyAuth) or in `x-api-key` (AUTH, direct HTTP).
    const bearer = header(req.headers, "authorization");
    const keys = [header(req.headers, "x-api-key"), bearer === undefined ? undefined : /^Bearer (.+)$/.exec(bearer)?.[1] ?? ""].filter((k) => k !== undefined);
    if (keys.length === 0) return refuse(401, "authentication_error", "x-api-key header is required", "no credential header (ERRORS 401 authentication_error)");
    if (keys.some((k) => k !== apiKey)) return refuse(401, "authentication_error", "invalid x-api-key", "wrong API key (ERRORS 401 authentication_error)");
    const version = header(req.headers, "anthropic-version");
    if (version === undefined) return invalid("anthropic-version: header is required", "no anthropic-version header (CLIENT sends one on every request)");
    if (version !== ANTHROPIC_FAKE_VERSION) return invalid(`anthropic-version: unknown version \`${version}\``, `anthropic-version ${version} is not the version this fake models (${ANTHROPIC_FAKE_VERSION})`);

    const body = req.body;
    if (!isObject(body)) return invalid("The request body is not valid JSON.", "the body is a JSON object (ERRORS)");
    for (const key of Object.keys(body)) {
      if (!BODY_PROPERTIES.has(key)) return invalid(`${key}: Extra inputs are not permitted`, `${key} is not a property of MessageCreateParamsBase under ${ANTHROPIC_FAKE_VERSION} (SDK messages.d.ts)`);
    }
    const modelId = body["model"];
    if (modelId === undefined) return invalid("model: Field required", "model is required (SDK MessageCreateParamsBase)");
    if (typeof modelId !== "string") return invalid("model: Input should be a valid string", "model is a string (SDK)");
    const maxTokens = body["max_tokens"];
    if (maxTokens === undefined) return invalid("max_tokens: Field required", "max_tokens is required (SDK MessageCreateParamsBase)");
    if (!isInt(maxTokens)) return invalid("max_tokens: Input should be a valid integer", "max_tokens is an integer (SDK)");
    if (maxTokens < 0) return invalid("max_tokens: Input should be greater than or equal to 0", "max_tokens >= 0; 0 only warms the prompt cache (SDK)");
    const refusedMessages = checkMessages(body["messages"]);
    if (refusedMessages) return refusedMessages;
    const system = body["system"];
    if (system !== undefined && typeof system !== "string" && !(Array.isArray(system) && system.every((b) => isObject(b) && b["type"] === "text" && typeof b["text"] === "string"))) {
      return invalid("system: Input should be a valid string or a list of text blocks", "system is a string or text blocks (SDK MessageCreateParamsBase)");
    }
    if (Array.isArray(system)) {
      for (const [k, block] of (system as Array<Record<string, unknown>>).entries()) {
        for (const key of Object.keys(block)) if (!["type", "text", "cache_control", "citations"].includes(key)) return invalid(`system.${k}.${key}: Extra inputs are not permitted`, "TextBlockParam has type, text, cache_control, citations (SDK)");
        if (block["text"] === "") return invalid(`system.${k}: text content blocks must be non-empty`, "empty text is refused (ERRORS)");
        if (block["cache_control"] !== undefined && block["cache_control"] !== null) {
          const refusedCache = checkCacheControl(block["cache_control"], `system.${k}.cache_control`);
          if (refusedCache) return refusedCache;
        }
      }
    }
    const breakpoints = breakpointCount(body);
    if (breakpoints > 4) return invalid(`A maximum of 4 blocks with cache_control may be provided. Found ${breakpoints}.`, "at most 4 cache breakpoints per request (CACHING)");
    const rules = ANTHROPIC_FAKE_MODELS[modelId];
    if (!rules) return refuse(404, "not_found_error", `model: ${modelId}`, `unknown model ${modelId} (ERRORS 404 not_found_error; SDK Model union)`);
    if (maxTokens > rules.maxOutput) {
      return invalid(`max_tokens: ${maxTokens} > ${rules.maxOutput}, which is the maximum allowed number of output tokens for ${modelId}`, `max_tokens above ${modelId}'s output maximum (MODELS)`);
    }
    const refusedThinking = checkThinking(body["thinking"], modelId, rules, maxTokens);
    if (refusedThinking) return refusedThinking;
    const output = body["output_config"];
    if (output !== undefined) {
      if (!isObject(output)) return invalid("output_config: Input should be a valid dictionary", "output_config is an object (SDK OutputConfig)");
      for (const key of Object.keys(output)) if (key !== "effort" && key !== "format") return invalid(`output_config.${key}: Extra inputs are not permitted`, "OutputConfig has effort and format (SDK)");
      const effort = output["effort"];
      if (effort !== undefined && effort !== null && !["low", "medium", "high", "xhigh", "max"].includes(String(effort))) {
        return invalid("output_config.effort: Input should be 'low', 'medium', 'high', 'xhigh' or 'max'", "effort values (SDK OutputConfig)");
      }
    }
    return null;
  };
}

/** The generate call as the fake read it. */
function callOf(body: Record<string, unknown>): ModelCall {
  const system = body["system"];
  const userTexts: string[] = [];
  let images = 0;
  for (const message of body["messages"] as Array<{ role: string; content: unknown }>) {
    if (message.role !== "user") continue;
    if (typeof message.content === "string") userTexts.push(message.content);
    else
      for (const block of message.content as Array<{ type: string; text?: string }>) {
        if (block.type === "text" && block.text !== undefined) userTexts.push(block.text);
        if (block.type === "image") images++;
      }
  }
  return {
    model: String(body["model"]),
    system: typeof system === "string" ? system : Array.isArray(system) ? system.map((b: { text: string }) => b.text).join("\n") : "",
    user: userTexts.join("\n"),
    images,
  };
}

/**
 * The prompt as Anthropic's cache sees it (CACHING: tools, then system, then messages), each
 * block with its breakpoint; images at width x height / 750 (image-tokens.ts).
 */
export function anthropicPromptParts(body: Record<string, unknown>): PromptPart[] {
  const parts: PromptPart[] = [];
  const marked = (b: Record<string, unknown>) => b["cache_control"] !== undefined && b["cache_control"] !== null;
  const system = body["system"];
  if (typeof system === "string" && system !== "") parts.push({ kind: "text", tokens: textTokens(system), digest: digestOf(`system:${system}`) });
  if (Array.isArray(system)) for (const b of system as Array<Record<string, unknown>>) parts.push({ kind: "text", tokens: textTokens(String(b["text"])), digest: digestOf(`system:${String(b["text"])}`), breakpoint: marked(b) });
  for (const message of body["messages"] as Array<{ role: string; content: unknown }>) {
    const blocks = typeof message.content === "string" ? [{ type: "text", text: message.content }] : (message.content as Array<Record<string, unknown>>);
    for (const b of blocks) {
      if (b["type"] === "image") {
        const data = String((b["source"] as { data?: unknown }).data ?? "");
        const size = imageSize(Buffer.from(data, "base64"));
        parts.push({ kind: "image", tokens: size ? claudeImageTokens(size.width, size.height) : 1600, digest: digestOf(data), breakpoint: marked(b) });
      } else {
        const text = typeof b["text"] === "string" ? b["text"] : JSON.stringify(b);
        parts.push({ kind: "text", tokens: textTokens(text), digest: digestOf(`${message.role}:${text}`), breakpoint: marked(b) });
      }
    }
  }
  // A top-level cache_control puts the breakpoint on the last cacheable block (SDK MessageCreateParamsBase.cache_control).
  if (isObject(body["cache_control"]) && parts.length > 0) parts[parts.length - 1] = { ...parts.at(-1)!, breakpoint: true };
  return parts;
}

export interface MessageShape {
  model: string;
  text: string;
  stopReason?: string;
  inputTokens?: number;
  outputTokens?: number;
  /** How the prompt cache served this prompt; absent: no cache use (0 read, 0 written). */
  prompt?: PromptAccount;
  /** Extra blocks before the text, e.g. a thinking block. */
  before?: unknown[];
}

/** A `Message` as the SDK types it (SDK messages.d.ts `Message`, `Usage`). */
export function anthropicMessage(shape: MessageShape): unknown {
  return {
    id: `msg_fake${String(++requestCounter).padStart(6, "0")}`,
    type: "message",
    role: "assistant",
    model: shape.model,
    content: [...(shape.before ?? []), ...(shape.text ? [{ type: "text", text: shape.text, citations: null }] : [])],
    container: null,
    diagnostics: null,
    stop_reason: shape.stopReason ?? "end_turn",
    stop_sequence: null,
    stop_details: null,
    usage: {
      // input_tokens counts only what was neither read from nor written to the cache (SDK Usage; CACHING "Tracking cache performance").
      input_tokens: shape.prompt ? shape.prompt.promptTokens - shape.prompt.cachedTokens - shape.prompt.writtenTokens : (shape.inputTokens ?? 100),
      output_tokens: shape.outputTokens ?? Math.max(1, Math.ceil(shape.text.length / 4)),
      cache_creation_input_tokens: shape.prompt?.writtenTokens ?? 0,
      cache_read_input_tokens: shape.prompt?.cachedTokens ?? 0,
      server_tool_use: null,
      service_tier: "standard",
    },
  };
}

const modelOf = (req: RecordedRequest) => String((req.body as { model?: unknown }).model);

/** 529 overloaded_error with `retry-after` (ERRORS: 529 overloaded_error, "use retry-after if it is there"). */
export function anthropicOverloaded(retryAfterSeconds: number): Reply {
  return { status: 529, headers: { "retry-after": String(retryAfterSeconds), "request-id": requestId() }, body: anthropicErrorBody("overloaded_error", "Overloaded") };
}

/**
 * 429 rate_limit_error with `retry-after` and the `anthropic-ratelimit-requests-*` headers, the
 * reset as an RFC 3339 time (RATES). Without `retryAfterSeconds`, only the reset says when.
 */
export function anthropicRateLimited(options: { retryAfterSeconds?: number; requestsResetAt: Date }): Reply {
  return {
    status: 429,
    headers: {
      ...(options.retryAfterSeconds === undefined ? {} : { "retry-after": String(options.retryAfterSeconds) }),
      "anthropic-ratelimit-requests-limit": "50",
      "anthropic-ratelimit-requests-remaining": "0",
      "anthropic-ratelimit-requests-reset": options.requestsResetAt.toISOString(),
      "request-id": requestId(),
    },
    body: anthropicErrorBody("rate_limit_error", "This request would exceed your organization's rate limit of 50 requests per minute."),
  };
}

/** 429 for a usage tier's monthly spend cap: no retry-after, `error.details.error_code` set (ERRORS). */
export function anthropicSpendCapReached(): Reply {
  return { status: 429, body: anthropicErrorBody("rate_limit_error", "You have reached your monthly usage limit.", { error_code: "enforced_spend_limit_reached" }) };
}

/** A valid call answered with a `refusal` stop (SDK StopReason). */
export function anthropicRefusal(req: RecordedRequest): Reply {
  return { status: 200, body: anthropicMessage({ model: modelOf(req), text: "I can't help with that.", stopReason: "refusal" }) };
}

/** A valid call answered with text that stopped because the context window filled (SDK StopReason). */
export function anthropicContextWindowExceeded(req: RecordedRequest, text = "I would probably"): Reply {
  return { status: 200, body: anthropicMessage({ model: modelOf(req), text, stopReason: "model_context_window_exceeded" }) };
}

/**
 * Starts the strict Anthropic fake on 127.0.0.1. Valid calls are answered with a `Message`
 * whose text is `respond(call)`, stop_reason end_turn.
 */
export async function startStrictAnthropic(options: StrictFakeOptions & ReportedModelOptions = {}): Promise<StrictFake & PromptCaching> {
  const apiKey = options.apiKey ?? "sk-ant-test-0123456789";
  const reported = options.reportedModel ?? ((requested: string) => requested);
  const respond = options.respond ?? (() => "I would probably buy it.");
  const promptCache = createPromptCacheBook();
  const delay = options.answerDelayMs ?? 0;
  const server = await startStrictServer(
    anthropicCheck(apiKey),
    (req) => {
      const body = req.body as Record<string, unknown>;
      const call = callOf(body);
      // Caches are isolated between organizations (here: keys) and models (CACHING).
      const prompt = promptCache.account(`${apiKey}\u0000${call.model}`, call.model, anthropicPromptParts(body), { mode: "breakpoints", minimum: anthropicCacheMinimum(call.model), granularity: 1 }, delay);
      return { status: 200, headers: { "request-id": requestId() }, body: anthropicMessage({ model: reported(call.model), text: respond(call), prompt }), ...(delay > 0 ? { delayMs: delay } : {}) };
    },
    options.reply ? { reply: options.reply } : {},
  );
  return { ...server, promptCache };
}
