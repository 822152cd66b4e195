import Anthropic, { APIError } from "@anthropic-ai/sdk";
import type { ContentBlockParam, Message, MessageCreateParamsNonStreaming } from "@anthropic-ai/sdk/resources/messages/messages";
import type { ModelError } from "../model-error.ts";
import { askUntilAnswered, stopReason, type AnswerAttempt } from "../resilience/ask-until-answered.ts";
import { createCallPolicy, type CallPolicy } from "../resilience/call-policy.ts";
import { badResponse, modelErrorFromHttpFailure, type ModelTarget } from "../resilience/http-failure.ts";
import { retryAfterMs } from "../resilience/retry-after.ts";
import type { GenerateRequest, GenerateResult, Generator, TokenUsage } from "../types.ts";
import { DEFAULT_ANSWER_RETRIES, DEFAULT_MAX_OUTPUT_TOKENS, type GenerationOptions } from "./generation-options.ts";
import { labelledImages, toBase64 } from "./prompt-parts.ts";

export const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com";

/** Anthropic's smallest extended-thinking budget. */
export const ANTHROPIC_MIN_THINKING_BUDGET = 1024;

export interface AnthropicOptions extends GenerationOptions {
  model: string;
  apiKey: string;
  baseURL?: string;
  /** Shared retry, timeout and concurrency policy; one per provider. */
  policy?: CallPolicy;
  /**
   * Turns extended thinking on with this budget (at least 1024); absent: no `thinking` is sent
   * and the model answers without it. With thinking, no temperature is sent (Anthropic forbids
   * one) and `max_tokens` is this budget plus the answer budget, as thinking counts inside it.
   */
  thinkingBudget?: number;
}

function classify(target: ModelTarget, now: () => number) {
  return (err: unknown): ModelError => {
    if (err instanceof APIError) {
      return modelErrorFromHttpFailure(target, {
        status: typeof err.status === "number" ? err.status : undefined,
        retryAfterMs: retryAfterMs(err.headers, now()),
        code: err.errorCode ?? err.type ?? null,
        cause: err,
      });
    }
    return badResponse(target, "failed while handling the response", err);
  };
}

function usageOf(message: Message): TokenUsage | undefined {
  const usage = message.usage;
  if (!usage) return undefined;
  // output_tokens already holds the thinking tokens: that is what Anthropic bills as output.
  const thinking = usage.output_tokens_details?.thinking_tokens;
  return { inputTokens: usage.input_tokens ?? 0, outputTokens: usage.output_tokens ?? 0, ...(typeof thinking === "number" ? { reasoningTokens: thinking } : {}) };
}

function answerOf(message: Message): AnswerAttempt {
  // Thinking blocks are the model's scratch work, not its answer.
  const text = (message.content ?? [])
    .flatMap((block) => (block.type === "text" ? [block.text] : []))
    .join("")
    .trim();
  return {
    text,
    truncated: message.stop_reason === "max_tokens",
    refused: message.stop_reason === "refusal",
    stop: stopReason("stop reason", message.stop_reason),
    usage: usageOf(message),
  };
}

/**
 * A generator on Anthropic's Messages API. Anthropic offers no embeddings, so there is no
 * embedder here; configuration rejects it as one. An empty or cut-off answer is asked again
 * (see `askUntilAnswered`).
 *
 * @example
 * const gen = createAnthropicGenerator({ model: "claude-sonnet-4-6", apiKey: process.env.ANTHROPIC_API_KEY!, temperature: 0.5 });
 */
export function createAnthropicGenerator(options: AnthropicOptions): Generator {
  const provider = "anthropic";
  const model = options.model;
  const target = { provider, model };
  const policy = options.policy ?? createCallPolicy();
  const thinkingBudget = options.thinkingBudget;
  if (thinkingBudget !== undefined && !(Number.isInteger(thinkingBudget) && thinkingBudget >= ANTHROPIC_MIN_THINKING_BUDGET)) {
    throw new RangeError(`Anthropic's thinking budget must be a whole number of at least ${ANTHROPIC_MIN_THINKING_BUDGET} tokens, got ${thinkingBudget}`);
  }
  const answerBudget = options.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS;
  const retries = options.answerRetries ?? DEFAULT_ANSWER_RETRIES;
  const temperature = thinkingBudget === undefined ? (options.temperature ?? null) : null;
  const client = new Anthropic({
    apiKey: options.apiKey,
    baseURL: options.baseURL ?? ANTHROPIC_DEFAULT_BASE_URL,
    maxRetries: 0,
    // A backstop only: our policy aborts each attempt on its own timer.
    timeout: policy.timeoutMs + 5_000,
    logLevel: "off",
  });

  return {
    provider,
    model,
    temperature,
    async generate(req: GenerateRequest): Promise<GenerateResult> {
      const content: ContentBlockParam[] = [];
      for (const { label, image } of labelledImages(req.images)) {
        if (label) content.push({ type: "text", text: label });
        content.push({ type: "image", source: { type: "base64", media_type: image.mime, data: toBase64(image.bytes) } });
      }
      content.push({ type: "text", text: req.user });
      const sentTemperature = thinkingBudget === undefined ? (req.temperature ?? temperature) : null;
      const bodyFor = (outputLimit: number): MessageCreateParamsNonStreaming => ({
        model,
        system: req.system,
        max_tokens: outputLimit,
        messages: [{ role: "user", content }],
        ...(thinkingBudget === undefined ? {} : { thinking: { type: "enabled", budget_tokens: thinkingBudget } }),
        ...(sentTemperature === null ? {} : { temperature: sentTemperature }),
      });

      const answered = await askUntilAnswered(target, { outputLimit: (req.maxOutputTokens ?? answerBudget) + (thinkingBudget ?? 0), retries }, async (outputLimit) => {
        const body = bodyFor(outputLimit);
        const message = await policy.run(target, req.signal, (signal) => client.messages.create(body, { signal }), classify(target, policy.now));
        return answerOf(message);
      });
      return { text: answered.text, provider, model, simulated: false, ...(answered.usage ? { usage: answered.usage } : {}) };
    },
  };
}
