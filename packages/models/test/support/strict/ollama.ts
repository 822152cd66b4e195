import type { RecordedRequest } from "../fake-provider.ts";
import { modelCallOf, openaiChatCompletion, openaiEmbeddingList } from "./openai.ts";
import { hashEmbedding, startStrictServer, type Check, type ReportedModelOptions, type StrictFake, type StrictFakeOptions } from "./strict-fake.ts";

/**
 * A strict fake of Ollama's OpenAI-compatible endpoint at `<url>` = http://127.0.0.1:<port>/v1.
 * Sources: /work/shared/provider-specs/ollama/openai-compatibility.mdx (supported request fields
 * of /v1/chat/completions and /v1/embeddings; base64 images only; reasoning_effort values
 * high/medium/low/max/none) and ollama/ollama openai/openai.go (error body
 * `{error: {message, type, param, code}}` with type invalid_request_error / not_found_error /
 * api_error; data URLs of jpeg, png or webp only). No key is needed; one sent is ignored.
 *
 * Ollama silently ignores a field it does not support (e.g. `max_completion_tokens`, so the
 * output limit would not apply); this fake refuses it instead, stricter than the real server.
 */

const CHAT_FIELDS = new Set(["model", "messages", "stream", "stream_options", "max_tokens", "seed", "stop", "temperature", "frequency_penalty", "presence_penalty", "top_p", "response_format", "tools", "reasoning", "reasoning_effort"]);
const EMBED_FIELDS = new Set(["model", "input", "encoding_format", "dimensions"]);
const EFFORTS = ["high", "medium", "low", "max", "none"];
const IMAGE = /^data:image\/(jpeg|jpg|png|webp);base64,[A-Za-z0-9+/]+={0,2}$/;

export interface FakeOllamaModel {
  /** Takes a thinking request (reasoning_effort); others are refused one (Ollama: "does not support thinking"). */
  thinks: boolean;
  embeds: boolean;
  dimensions?: number;
}

/** Pulled models, by full name:tag. */
export const OLLAMA_FAKE_MODELS: Readonly<Record<string, FakeOllamaModel>> = {
  "llava:13b": { thinks: false, embeds: false },
  "llava:latest": { thinks: false, embeds: false },
  "qwen2.5vl:7b": { thinks: false, embeds: false },
  "llama3.2-vision:11b": { thinks: false, embeds: false },
  "gemma3:12b": { thinks: false, embeds: false },
  "qwen3:8b": { thinks: true, embeds: false },
  "nomic-embed-text:latest": { thinks: false, embeds: true, dimensions: 768 },
};

const ollamaError = (status: number, message: string, rule: string) => ({
  status,
  body: { error: { message, type: status === 400 ? "invalid_request_error" : status === 404 ? "not_found_error" : "api_error", param: null, code: null } },
  rule,
});

const fullName = (model: string) => (model.includes(":") ? model : `${model}:latest`);

export function ollamaCheck(models: Readonly<Record<string, FakeOllamaModel>>): Check {
  return (req: RecordedRequest) => {
    const path = req.path.split("?")[0];
    const kind = req.method === "POST" && path === "/v1/chat/completions" ? "chat" : req.method === "POST" && path === "/v1/embeddings" ? "embedding" : null;
    if (!kind) return ollamaError(404, "404 page not found", `no such route ${req.method} ${path}`);
    const body = req.body as Record<string, unknown> | undefined;
    if (!body || typeof body !== "object" || Array.isArray(body)) return ollamaError(400, "invalid request", "body is not a JSON object");
    const allowed = kind === "chat" ? CHAT_FIELDS : EMBED_FIELDS;
    const unsupported = Object.keys(body).find((k) => !allowed.has(k));
    if (unsupported) return ollamaError(400, `unsupported field ${unsupported}`, `${unsupported} is not a supported request field (Ollama would ignore it)`);
    const name = String(body["model"] ?? "");
    const model = models[fullName(name)];
    if (!model) return ollamaError(404, `model "${name}" not found, try pulling it first`, `model ${name} is not pulled`);
    if (kind === "embedding") {
      if (!model.embeds) return ollamaError(400, `"${name}" does not support embeddings`, `${name} is not an embedding model`);
      return null;
    }
    if (!Array.isArray(body["messages"])) return ollamaError(400, "[] is too short - 'messages'", "no messages");
    for (const message of body["messages"] as Array<{ content?: unknown }>) {
      if (typeof message.content === "string") continue;
      if (!Array.isArray(message.content)) return ollamaError(400, "invalid message content type", "content is neither text nor parts");
      for (const part of message.content as Array<{ type?: string; image_url?: unknown }>) {
        if (part.type === "text") continue;
        if (part.type !== "image_url") return ollamaError(400, "invalid message format", `part type ${String(part.type)}`);
        const url = typeof part.image_url === "string" ? part.image_url : (part.image_url as { url?: unknown } | undefined)?.url;
        if (typeof url !== "string" || !IMAGE.test(url)) return ollamaError(400, "invalid image input", "image is not a base64 data URL of jpeg, png or webp (image URLs are not supported)");
      }
    }
    const effort = body["reasoning_effort"] ?? (body["reasoning"] as { effort?: unknown } | undefined)?.effort;
    if (effort !== undefined) {
      if (!EFFORTS.includes(String(effort))) return ollamaError(400, `invalid reasoning value: '${String(effort)}'`, "reasoning_effort not one of high, medium, low, max, none");
      if (!model.thinks && effort !== "none") return ollamaError(400, `"${name}" does not support thinking`, `thinking requested from ${name}, which does not think`);
    }
    const maxTokens = body["max_tokens"];
    if (maxTokens !== undefined && !Number.isInteger(maxTokens)) return ollamaError(400, "json: cannot unmarshal max_tokens", "max_tokens is not an integer");
    return null;
  };
}

export async function startStrictOllama(options: StrictFakeOptions & ReportedModelOptions & { models?: Readonly<Record<string, FakeOllamaModel>> } = {}): Promise<StrictFake> {
  const models = options.models ?? OLLAMA_FAKE_MODELS;
  const reported = options.reportedModel ?? ((requested: string) => requested);
  const respond = options.respond ?? (() => "I would probably buy it.");
  const server = await startStrictServer(
    ollamaCheck(models),
    (req) => {
      const body = req.body as { model: string; input?: string | string[] };
      if (req.path.split("?")[0] === "/v1/embeddings") {
        const texts = Array.isArray(body.input) ? body.input : [body.input ?? ""];
        const dimensions = models[fullName(body.model)]!.dimensions ?? 768;
        return { status: 200, body: openaiEmbeddingList(texts.map((t) => options.embed?.(t, body.model) ?? hashEmbedding(t, dimensions)), body.model) };
      }
      return { status: 200, body: { ...openaiChatCompletion(respond(modelCallOf(req.body, body.model)), reported(body.model)), system_fingerprint: "fp_ollama" } };
    },
    options.reply ? { reply: options.reply } : {},
  );
  return { ...server, url: `${server.url}/v1` };
}
