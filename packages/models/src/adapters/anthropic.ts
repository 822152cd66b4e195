import Anthropic, { APIError } from "@anthropic-ai/sdk";
import type { ContentBlockParam, ImageBlockParam, Message, MessageCreateParamsNonStreaming, TextBlockParam, ThinkingConfigParam } from "@anthropic-ai/sdk/resources/messages/messages";
import { ANTHROPIC_API_VERSION, anthropicModelRules, anthropicStopMeaning, type AnthropicModelRules } from "../capabilities/anthropic.ts";
import { anthropicPromptCacheMinimum, cachesScoringPrefix } from "../capabilities/prompt-cache.ts";
import type { ModelError } from "../model-error.ts";
import { askUntilAnswered, stopReason, type AnswerAttempt } from "../resilience/ask-until-answered.ts";
import { createCallPolicy, type CallPolicy } from "../resilience/call-policy.ts";
import { badResponse, modelErrorFromHttpFailure, type HttpFailure, type ModelTarget } from "../resilience/http-failure.ts";
import type { ModelSettings } from "../resilience/model-settings.ts";
import { retryAfterMs, type HeaderReader } from "../resilience/retry-after.ts";
import type { GenerateRequest, GenerateResult, Generator, TokenUsage } from "../types.ts";
import { DEFAULT_ANSWER_RETRIES, DEFAULT_MAX_OUTPUT_TOKENS, type GenerationOptions } from "./generation-options.ts";
import { labelledImages, toBase64 } from "./prompt-parts.ts";
import { modelVersionField } from "./reported-model-version.ts";
import { sentSettingStatement } from "./sent-setting-statement.ts";

export const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com";

/** Anthropic's smallest extended-thinking budget (SDK `ThinkingConfigEnabled.budget_tokens`: "Must be ≥1024"). */
export const ANTHROPIC_MIN_THINKING_BUDGET = 1024;

/**
 * Room kept in `max_tokens` for a model that thinks whether asked or not (Fable 5, Opus 5.5, ...)
 * when no thinking budget is configured, so its thinking does not eat the answer budget. Our
 * choice: the docs give no figure, and a cut-off answer is still asked again with more room.
 */
export const ANTHROPIC_ALWAYS_ON_THINKING_ROOM = 4096;

/** Under anthropic-version 2026-10-21 no Claude model takes a temperature (SDK `MessageCreateParamsBase`). */
export const ANTHROPIC_TAKES_TEMPERATURE = false;

export interface AnthropicOptions extends GenerationOptions {
  model: string;
  apiKey: string;
  baseURL?: string;
  /** Shared retry, timeout and concurrency policy; one per provider. */
  policy?: CallPolicy;
  /**
   * A thinking budget (at least 1024). A model that takes manual thinking gets
   * `{type: "enabled", budget_tokens}`; one that takes only adaptive thinking gets
   * `{type: "adaptive"}` (Anthropic offers no budget for it). Either way `max_tokens` is this
   * budget plus the answer budget, so thinking does not eat the answer. Absent: no thinking,
   * or as little as the model allows.
   */
  thinkingBudget?: number;
  /** Where the operator configures this model, named in misconfiguration messages. */
  settings?: ModelSettings;
  /** The provider name this generator reports and its errors carry (a profile's name). Default "anthropic". */
  provider?: string;
}

/**
 * What the adapter will not do with these options, one sentence each, for configuration to log
 * at start: the temperature is ignored, the model is unknown, a budget is not a budget here.
 *
 * @example
 * anthropicStartupWarnings({ model: "claude-opus-4-7", temperature: 0.5 });
 * // ["anthropic model claude-opus-4-7: the temperature 0.5 is ignored: ..."]
 */
export function anthropicStartupWarnings(options: Pick<AnthropicOptions, "model" | "temperature" | "thinkingBudget">): string[] {
  const rules = anthropicModelRules(options.model);
  const who = `anthropic model ${options.model}`;
  const warnings: string[] = [];
  if (options.temperature !== undefined) {
    warnings.push(`${who}: the temperature ${options.temperature} is ignored: Anthropic's Messages API (version ${ANTHROPIC_API_VERSION}) takes no temperature, so each seat samples at the model's default.`);
  }
  if (!rules.known) {
    warnings.push(`${who}: not a model we know the rules of; sending no thinking parameter and no temperature. Check the name, or see docs/models.md for the supported models.`);
  }
  if (options.thinkingBudget !== undefined && rules.thinking === "adaptive-only") {
    warnings.push(`${who}: takes only adaptive thinking, so the thinking budget ${options.thinkingBudget} is sent as {type: "adaptive"} and only raises max_tokens; the model decides how much to think.`);
  }
  if (options.thinkingBudget !== undefined && rules.thinking === "none") {
    warnings.push(`${who}: no thinking parameter is sent to an unknown model; the thinking budget ${options.thinkingBudget} only raises max_tokens.`);
  }
  return warnings;
}

/** The `thinking` we send and the output room we reserve for thinking on top of the answer budget. */
export interface AnthropicThinkingPlan {
  thinking: ThinkingConfigParam | undefined;
  reserve: number;
}

/**
 * How thinking is asked for, from the model's rules and the configured budget:
 * - a budget on a model that takes manual thinking: `enabled` with that budget;
 * - a budget on an adaptive-only model: `adaptive`. Its docs say budget_tokens has no
 *   replacement and `output_config.effort` is an output-wide control, not a thinking budget, so
 *   no effort is sent (the model's default applies) and the budget only sizes max_tokens;
 * - no budget on a model that thinks by default: turned off where it can be (`disabled`, or
 *   `between_tools` on Sonnet 5.5), as before; where it cannot, room is kept for it.
 */
export function anthropicThinkingPlan(rules: AnthropicModelRules, thinkingBudget: number | undefined): AnthropicThinkingPlan {
  if (thinkingBudget !== undefined) {
    if (rules.thinking === "enabled-only") return { thinking: { type: "enabled", budget_tokens: thinkingBudget }, reserve: thinkingBudget };
    // Where `enabled` is deprecated (4.6, Mythos Preview) the supported mode is used; the budget keeps its room in max_tokens.
    if (rules.thinking === "adaptive-only" || rules.thinking === "enabled-or-adaptive") return { thinking: { type: "adaptive" }, reserve: thinkingBudget };
    return { thinking: undefined, reserve: thinkingBudget };
  }
  if (!rules.thinksByDefault) return { thinking: undefined, reserve: 0 };
  if (rules.turnOff) return { thinking: { type: rules.turnOff }, reserve: 0 };
  return { thinking: undefined, reserve: ANTHROPIC_ALWAYS_ON_THINKING_ROOM };
}

const RATE_LIMITS = ["requests", "tokens", "input-tokens", "output-tokens"] as const;

/**
 * How long Anthropic asked us to wait: `retry-after` first; on a 429 or a 529 without one, the
 * latest `anthropic-ratelimit-*-reset` (RFC 3339) among the limits whose `-remaining` is 0, or
 * among all that are given when none says how much remains.
 * Source: https://platform.claude.com/docs/en/api/rate-limits (response headers).
 */
export function anthropicRetryAfterMs(headers: HeaderReader | null | undefined, status: number | undefined, nowMs: number): number | undefined {
  const stated = retryAfterMs(headers, nowMs);
  if (stated !== undefined || !headers || (status !== 429 && status !== 529)) return stated;
  const limits = RATE_LIMITS.map((name) => ({
    remaining: headers.get(`anthropic-ratelimit-${name}-remaining`)?.trim(),
    resetAt: Date.parse(headers.get(`anthropic-ratelimit-${name}-reset`)?.trim() ?? ""),
  })).filter((l) => !Number.isNaN(l.resetAt));
  const exhausted = limits.filter((l) => l.remaining === "0");
  const chosen = exhausted.length > 0 ? exhausted : limits.every((l) => l.remaining === undefined) ? limits : [];
  if (chosen.length === 0) return undefined;
  return Math.max(0, Math.max(...chosen.map((l) => l.resetAt)) - nowMs);
}

// `error.details.error_code` values that mean money, not congestion (SDK resources/shared.d.ts).
const SPENT = new Set(["enforced_spend_limit_reached", "contract_spend_limit_reached", "linked_organization_spend_limit_reached", "linked_organization_billing_unavailable"]);

/**
 * What Anthropic's error body says beyond the status, from `error.type`, `error.details.error_code`
 * and `error.message` (https://platform.claude.com/docs/en/api/errors): a spend limit or billing
 * stop is an exhausted quota (a 400, 402, or a 429 whose code is enforced_spend_limit_reached);
 * an image it cannot read is the content's fault; a parameter or thinking type the model does
 * not take is an unsupported parameter; not_found is an unknown model.
 */
export function anthropicErrorMeaning(error: { type: string | null; errorCode: string | null; apiMessage: string | null }): HttpFailure["meaning"] {
  const message = error.apiMessage ?? "";
  if ((error.errorCode && SPENT.has(error.errorCode)) || error.type === "billing_error") return "quota_exhausted";
  if (error.type === "not_found_error") return "unknown_model";
  if (error.type === "authentication_error" || error.type === "permission_error") return "credentials";
  if (error.type !== "invalid_request_error") return undefined;
  if (/credit balance|spend limit|usage limit|billing/i.test(message)) return "quota_exhausted";
  if (/\bimage\b/i.test(message)) return "content";
  if (/extra inputs are not permitted|not supported|unsupported|not permitted|unknown (parameter|field)|thinking\.type/i.test(message)) return "unsupported_parameter";
  return undefined;
}

function classify(target: ModelTarget, now: () => number) {
  return (err: unknown): ModelError => {
    if (err instanceof APIError) {
      const status = typeof err.status === "number" ? err.status : undefined;
      return modelErrorFromHttpFailure(target, {
        status,
        retryAfterMs: anthropicRetryAfterMs(err.headers, status, now()),
        code: err.errorCode ?? err.type ?? null,
        meaning: status === undefined ? undefined : anthropicErrorMeaning(err),
        cause: err,
      });
    }
    return badResponse(target, "failed while handling the response", err);
  };
}

/**
 * `ANTHROPIC_CUSTOM_HEADERS` is read by the SDK whatever options it gets: every header it names is
 * overridden here, with our own value for the ones the SDK sets itself and removed otherwise,
 * so nothing ambient reaches Anthropic (SDK client.js, constructor).
 */
function ambientHeaderOverrides(apiKey: string): Record<string, string | null> {
  const ambient = process.env.ANTHROPIC_CUSTOM_HEADERS;
  if (!ambient) return {};
  // The SDK sends the key as a bearer token (client.js apiKeyAuth).
  const own: Record<string, string> = { authorization: `Bearer ${apiKey}`, "anthropic-version": ANTHROPIC_API_VERSION, accept: "application/json" };
  const overrides: Record<string, string | null> = {};
  for (const line of ambient.split("\n")) {
    const name = line.slice(0, Math.max(0, line.indexOf(":"))).trim().toLowerCase();
    if (name) overrides[name] = own[name] ?? null;
  }
  return overrides;
}

function usageOf(message: Message): TokenUsage | undefined {
  const usage = message.usage;
  if (!usage) return undefined;
  // output_tokens already holds the thinking tokens: that is what Anthropic bills as output.
  const thinking = usage.output_tokens_details?.thinking_tokens;
  // input_tokens counts only the tokens after the last cache breakpoint: cache reads and writes
  // are reported beside it (SDK Usage), and all three are prompt tokens.
  const read = usage.cache_read_input_tokens;
  const written = usage.cache_creation_input_tokens;
  return {
    inputTokens: (usage.input_tokens ?? 0) + (read ?? 0) + (written ?? 0),
    outputTokens: usage.output_tokens ?? 0,
    ...(typeof thinking === "number" ? { reasoningTokens: thinking } : {}),
    ...(typeof read === "number" ? { cachedInputTokens: read } : {}),
    ...(typeof written === "number" ? { cacheWriteInputTokens: written } : {}),
  };
}

/**
 * Marks the end of the stable prefix with Anthropic's cache breakpoint: the last image when
 * there is one (the system text and the image come before it and are the same for every sample
 * of an evaluation), else the system text. What follows (the framing, copy, seat) is not cached.
 * A prefix shorter than the model's minimum is simply not cached, without an error
 * (https://platform.claude.com/docs/en/build-with-claude/prompt-caching). Returns the system as
 * it is sent: a block when it carries the breakpoint, else the string (an empty text block is refused).
 */
function cacheBreakpoint(content: ContentBlockParam[], system: string): string | TextBlockParam[] {
  const lastImage = content.findLastIndex((block) => block.type === "image");
  if (lastImage >= 0) {
    content[lastImage] = { ...(content[lastImage] as ImageBlockParam), cache_control: { type: "ephemeral" } };
    return system;
  }
  return system === "" ? system : [{ type: "text", text: system, cache_control: { type: "ephemeral" } }];
}

function answerOf(message: Message): AnswerAttempt {
  // Thinking blocks are the model's scratch work, not its answer.
  const text = (message.content ?? [])
    .flatMap((block) => (block.type === "text" ? [block.text] : []))
    .join("")
    .trim();
  const meaning = anthropicStopMeaning(message.stop_reason);
  const attempt: AnswerAttempt = {
    text,
    truncated: meaning === "truncated",
    refused: meaning === "refused",
    stop: stopReason("stop reason", message.stop_reason),
    usage: usageOf(message),
    // The model that handled the request (SDK Message.model).
    ...modelVersionField(message.model),
  };
  if (meaning === "ask-again" || meaning === "give-up") attempt.unusable = meaning;
  return attempt;
}

/**
 * A generator on Anthropic's Messages API. Anthropic offers no embeddings, so there is no
 * embedder here; configuration rejects it as one. No temperature is ever sent (the API version
 * has none); thinking follows the model's rules (capabilities/anthropic.ts). An empty or cut-off
 * answer is asked again (see `askUntilAnswered`).
 *
 * @example
 * const gen = createAnthropicGenerator({ model: "claude-sonnet-4-6", apiKey: process.env.ANTHROPIC_API_KEY!, thinkingBudget: 2048 });
 */
export function createAnthropicGenerator(options: AnthropicOptions): Generator {
  const provider = options.provider ?? "anthropic";
  const model = options.model;
  const target: ModelTarget = { provider, model, ...(options.settings ? { settings: options.settings } : {}) };
  const rules = anthropicModelRules(model);
  const policy = options.policy ?? createCallPolicy();
  const thinkingBudget = options.thinkingBudget;
  if (thinkingBudget !== undefined && !(Number.isInteger(thinkingBudget) && thinkingBudget >= ANTHROPIC_MIN_THINKING_BUDGET)) {
    throw new RangeError(`Anthropic's thinking budget must be a whole number of at least ${ANTHROPIC_MIN_THINKING_BUDGET} tokens, got ${thinkingBudget}`);
  }
  // budget_tokens must stay below max_tokens, which cannot pass the model's maximum (SDK ThinkingConfigEnabled).
  if (thinkingBudget !== undefined && thinkingBudget >= rules.maxOutputTokens) {
    throw new RangeError(`Anthropic model ${model} writes at most ${rules.maxOutputTokens} tokens, so its thinking budget must be below that, got ${thinkingBudget}`);
  }
  const plan = anthropicThinkingPlan(rules, thinkingBudget);
  const answerBudget = options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  const retries = options.answerRetries ?? DEFAULT_ANSWER_RETRIES;
  // Every value is explicit, so no ANTHROPIC_* variable of the process is read instead (SDK client.js, constructor).
  const client = new Anthropic({
    apiKey: options.apiKey,
    authToken: null,
    baseURL: options.baseURL ?? ANTHROPIC_DEFAULT_BASE_URL,
    webhookKey: null,
    defaultHeaders: ambientHeaderOverrides(options.apiKey),
    openTelemetry: false,
    maxRetries: 0,
    // A backstop only: our policy aborts each attempt on its own timer.
    timeout: policy.timeoutMs + 5_000,
    logLevel: "off",
  });

  return {
    provider,
    model,
    temperature: null,
    thinking: sentSettingStatement(plan.thinking ? { thinking: plan.thinking } : undefined),
    cachesPrompts: cachesScoringPrefix(anthropicPromptCacheMinimum(model)),
    async generate(req: GenerateRequest): Promise<GenerateResult> {
      const content: ContentBlockParam[] = [];
      for (const { label, image } of labelledImages(req.images)) {
        if (label) content.push({ type: "text", text: label });
        content.push({ type: "image", source: { type: "base64", media_type: image.mime, data: toBase64(image.bytes) } });
      }
      const system = cacheBreakpoint(content, req.system);
      content.push({ type: "text", text: req.user });
      const bodyFor = (outputLimit: number): MessageCreateParamsNonStreaming => {
        const body: MessageCreateParamsNonStreaming = {
          model,
          system,
          // A cut-off answer is asked again with more room, but never past the model's maximum.
          max_tokens: Math.min(outputLimit, rules.maxOutputTokens),
          messages: [{ role: "user", content }],
        };
        if (plan.thinking) body.thinking = plan.thinking;
        return body;
      };

      const limits = { deadlineAt: req.deadlineAt };
      const answered = await askUntilAnswered(target, { outputLimit: (req.maxOutputTokens ?? answerBudget) + plan.reserve, retries }, async (outputLimit) => {
        const body = bodyFor(outputLimit);
        const message = await policy.run(target, req.signal, (signal) => client.messages.create(body, { signal }), classify(target, policy.now), limits);
        return answerOf(message);
      });
      return { text: answered.text, provider, model, simulated: false, ...(answered.modelVersion === undefined ? {} : { modelVersion: answered.modelVersion }), ...(answered.usage ? { usage: answered.usage } : {}) };
    },
  };
}
