import Anthropic, { APIError } from "@anthropic-ai/sdk";
import type { ContentBlockParam } from "@anthropic-ai/sdk/resources/messages/messages";
import type { ModelError } from "../model-error.ts";
import { createCallPolicy, type CallPolicy } from "../resilience/call-policy.ts";
import { badResponse, modelErrorFromHttpFailure, type ModelTarget } from "../resilience/http-failure.ts";
import { retryAfterMs } from "../resilience/retry-after.ts";
import type { GenerateRequest, GenerateResult, Generator } from "../types.ts";
import { DEFAULT_MAX_OUTPUT_TOKENS, labelledImages, toBase64 } from "./prompt-parts.ts";

export const ANTHROPIC_DEFAULT_BASE_URL = "https://api.anthropic.com";

export interface AnthropicOptions {
  model: string;
  apiKey: string;
  baseURL?: string;
  /** Shared retry, timeout and concurrency policy; one per provider. */
  policy?: CallPolicy;
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

/**
 * A generator on Anthropic's Messages API. Anthropic offers no embeddings, so there is no
 * embedder here; configuration rejects it as one.
 *
 * @example
 * const gen = createAnthropicGenerator({ model: "claude-sonnet-4-6", apiKey: process.env.ANTHROPIC_API_KEY! });
 */
export function createAnthropicGenerator(options: AnthropicOptions): Generator {
  const provider = "anthropic";
  const model = options.model;
  const target = { provider, model };
  const policy = options.policy ?? createCallPolicy();
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
    async generate(req: GenerateRequest): Promise<GenerateResult> {
      const content: ContentBlockParam[] = [];
      for (const { label, image } of labelledImages(req.images)) {
        if (label) content.push({ type: "text", text: label });
        content.push({ type: "image", source: { type: "base64", media_type: image.mime, data: toBase64(image.bytes) } });
      }
      content.push({ type: "text", text: req.user });
      const body = {
        model,
        system: req.system,
        max_tokens: req.maxOutputTokens ?? DEFAULT_MAX_OUTPUT_TOKENS,
        messages: [{ role: "user" as const, content }],
        ...(req.temperature === undefined ? {} : { temperature: req.temperature }),
      };

      const message = await policy.run(target, req.signal, (signal) => client.messages.create(body, { signal }), classify(target, policy.now));
      const text = (message.content ?? [])
        .flatMap((block) => (block.type === "text" ? [block.text] : []))
        .join("")
        .trim();
      if (!text) throw badResponse(target, `returned no text${message.stop_reason ? ` (stop reason ${message.stop_reason})` : ""}`);
      return {
        text,
        provider,
        model,
        simulated: false,
        ...(message.usage ? { usage: { inputTokens: message.usage.input_tokens, outputTokens: message.usage.output_tokens } } : {}),
      };
    },
  };
}
