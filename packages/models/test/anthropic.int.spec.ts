import { expect } from "vitest";
import { createAnthropicGenerator } from "../src/index.ts";
import { describeAdapterContract } from "./support/adapter-contract.ts";

type MessagesBody = { model: string; system: string; max_tokens: number; messages: Array<{ role: string; content: Array<{ type: string; text?: string; source?: { type: string; media_type: string; data: string } }> }> };

const MODEL = "claude-sonnet-4-6";
const KEY = "sk-ant-test-0123456789";

const errorType: Record<number, string> = { 400: "invalid_request_error", 401: "authentication_error", 403: "permission_error", 404: "not_found_error", 429: "rate_limit_error", 500: "api_error", 503: "overloaded_error" };

describeAdapterContract({
  provider: "anthropic",
  model: MODEL,
  apiKey: KEY,
  generatePath: "/v1/messages",
  // The SDK sends the key as x-api-key or as a bearer token depending on its version.
  credentialOf: (h) => (h["x-api-key"] as string | undefined) ?? h.authorization?.replace(/^Bearer /, ""),
  modelOf: (b) => (b as MessagesBody).model,
  imagesOf: (b) =>
    (b as MessagesBody).messages[0]!.content
      .filter((c) => c.type === "image")
      .map((c) => {
        expect(c.source!.type).toBe("base64");
        return { mime: c.source!.media_type, data: c.source!.data };
      }),
  textsOf: (b) => ({ system: (b as MessagesBody).system, user: (b as MessagesBody).messages[0]!.content.at(-1)!.text! }),
  okGenerate: (text) => ({
    id: "msg_01",
    type: "message",
    role: "assistant",
    model: MODEL,
    content: [{ type: "text", text }],
    stop_reason: "end_turn",
    stop_sequence: null,
    usage: { input_tokens: 912, output_tokens: 38 },
  }),
  errorBody: (status) => ({ type: "error", error: { type: errorType[status] ?? "api_error", message: `upstream said ${status}` } }),
  makeGenerator: (url, policy) => createAnthropicGenerator({ model: MODEL, apiKey: KEY, baseURL: url, policy }),
});
