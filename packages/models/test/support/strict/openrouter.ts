import type { RecordedRequest, Reply } from "../fake-provider.ts";
import { fakeChatModel, modelCallOf, openaiChatCompletion } from "./openai.ts";
import { header, startStrictServer, type Check, type ReportedModelOptions, type StrictFake, type StrictFakeOptions } from "./strict-fake.ts";

/**
 * A strict fake of OpenRouter's chat completions at `<url>` = http://127.0.0.1:<port>/api/v1.
 * Sources: openrouter.ai/docs/api-reference/overview (request schema, Bearer key, the optional
 * HTTP-Referer / X-Title headers), openrouter.ai/docs/api-reference/errors (error body
 * `{error: {code: <number>, message, metadata?}}`, 401/402/403/429 meanings) and
 * openrouter.ai/docs/use-cases/reasoning-tokens (`reasoning.effort`).
 *
 * OpenRouter ignores fields it does not know and drops parameters a provider does not take,
 * which would silently lose a setting; this fake refuses both instead (stricter than the real
 * API, never more permissive), so a test cannot pass with a setting that has no effect.
 * For `openai/` models the OpenAI rules (openai.ts) decide temperature and reasoning values.
 */

/** The request fields OpenRouter's schema names (overview page, "Request Schema"). */
const DOCUMENTED_FIELDS = new Set(["messages", "prompt", "model", "response_format", "stop", "stream", "max_tokens", "temperature", "tools", "tool_choice", "seed", "top_p", "top_k", "frequency_penalty", "presence_penalty", "repetition_penalty", "logit_bias", "top_logprobs", "min_p", "top_a", "prediction", "transforms", "models", "route", "provider", "user", "reasoning", "usage"]);
const EFFORTS = ["xhigh", "high", "medium", "low", "minimal", "none"];

export const OPENROUTER_FAKE_MODELS = ["openai/gpt-5-mini", "openai/gpt-5", "openai/gpt-4.1", "openai/gpt-4o-mini", "openai/o4-mini", "anthropic/claude-sonnet-4.5", "google/gemini-2.5-flash"] as const;

const openRouterError = (status: number, message: string, rule: string, metadata?: Record<string, unknown>) => ({ status, body: { error: { code: status, message, ...(metadata ? { metadata } : {}) } }, rule });

export function openrouterCheck(apiKey: string, models: readonly string[]): Check {
  return (req: RecordedRequest) => {
    const path = req.path.split("?")[0];
    if (req.method !== "POST" || path !== "/api/v1/chat/completions") return openRouterError(404, "Not Found", `no such route ${req.method} ${path}`);
    const authorization = header(req.headers, "authorization");
    if (!authorization) return openRouterError(401, "No auth credentials found", "no Authorization header");
    if (authorization !== `Bearer ${apiKey}`) return openRouterError(401, "User not found.", "wrong key");
    const body = req.body as Record<string, unknown> | undefined;
    if (!body || typeof body !== "object" || Array.isArray(body)) return openRouterError(400, "Invalid JSON body", "body is not a JSON object");
    const unknown = Object.keys(body).find((k) => !DOCUMENTED_FIELDS.has(k));
    if (unknown) return openRouterError(400, `Unrecognized field: ${unknown}`, `${unknown} is not in OpenRouter's request schema (it would be ignored)`);
    const model = String(body["model"]);
    if (!models.includes(model)) return openRouterError(400, `${model} is not a valid model ID`, `unknown model ${model}`);
    if (!Array.isArray(body["messages"]) || body["messages"].length === 0) return openRouterError(400, "Input required: specify \"prompt\" or \"messages\"", "no messages");
    const maxTokens = body["max_tokens"];
    if (maxTokens !== undefined && (!Number.isInteger(maxTokens) || (maxTokens as number) < 1)) return openRouterError(400, "max_tokens must be an integer of at least 1", "max_tokens range [1, context_length)");
    const temperature = body["temperature"];
    if (temperature !== undefined && (typeof temperature !== "number" || temperature < 0 || temperature > 2)) return openRouterError(400, "temperature must be between 0 and 2", "temperature range [0, 2]");
    const reasoning = body["reasoning"] as { effort?: unknown } | undefined;
    if (reasoning !== undefined && (typeof reasoning !== "object" || !EFFORTS.includes(String(reasoning.effort)))) return openRouterError(400, "Invalid reasoning effort", "reasoning.effort not one of xhigh..none");
    const openai = model.startsWith("openai/") ? fakeChatModel(model.slice("openai/".length)) : undefined;
    if (openai?.defaultTemperatureOnly && temperature !== undefined && temperature !== 1) return openRouterError(400, "temperature is not supported by this model", `temperature sent to ${model}, which takes only the default (OpenRouter would drop it)`);
    if (reasoning !== undefined && (openai ? openai.efforts === null || !openai.efforts.includes(String(reasoning.effort)) : true)) {
      return openRouterError(400, "reasoning is not supported by this model with this effort", `reasoning.effort ${String(reasoning.effort)} not taken by ${model}`);
    }
    return null;
  };
}

/** OpenRouter's 402: credits used up (not worth retrying). */
export function openrouterNoCredits(): Reply {
  return { status: 402, body: { error: { code: 402, message: "Insufficient credits. Add more using https://openrouter.ai/settings/credits", metadata: { limit_source: "openrouter_credits" } } } };
}

/** OpenRouter's 403: the model's moderation flagged the input. */
export function openrouterFlagged(): Reply {
  return { status: 403, body: { error: { code: 403, message: "Input was flagged by moderation", metadata: { reasons: ["violence"], flagged_input: "…", provider_name: "OpenAI", model_slug: "openai/gpt-5-mini" } } } };
}

export const OPENROUTER_FAKE_KEY = "sk-or-v1-strict";

export async function startStrictOpenRouter(options: StrictFakeOptions & ReportedModelOptions & { models?: readonly string[] } = {}): Promise<StrictFake> {
  const apiKey = options.apiKey ?? OPENROUTER_FAKE_KEY;
  const reported = options.reportedModel ?? ((requested: string) => requested);
  const respond = options.respond ?? (() => "I would probably buy it.");
  const server = await startStrictServer(
    openrouterCheck(apiKey, options.models ?? OPENROUTER_FAKE_MODELS),
    (req) => {
      const model = String((req.body as { model: string }).model);
      return { status: 200, body: { ...openaiChatCompletion(respond(modelCallOf(req.body, model)), reported(model)), provider: "OpenAI" } };
    },
    options.reply ? { reply: options.reply } : {},
  );
  return { ...server, url: `${server.url}/api/v1` };
}
