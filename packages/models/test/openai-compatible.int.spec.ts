import { afterEach, describe, expect, it } from "vitest";
import { createCallPolicy, createOpenAICompatibleGenerator, isModelError, createOpenAICompatibleEmbedder } from "../src/index.ts";
import { describeAdapterContract } from "./support/adapter-contract.ts";
import { startFakeProvider, type FakeProvider } from "./support/fake-provider.ts";

type ChatBody = { model: string; max_tokens?: number; max_completion_tokens?: number; messages: Array<{ role: string; content: string | Array<{ type: string; text?: string; image_url?: { url: string } }> }> };

const MODEL = "gpt-4o-mini";
const KEY = "sk-test-0123456789";

const chatOk = (text: string) => ({
  id: "chatcmpl-1",
  object: "chat.completion",
  created: 1_700_000_000,
  model: MODEL,
  choices: [{ index: 0, message: { role: "assistant", content: text, refusal: null }, logprobs: null, finish_reason: "stop" }],
  usage: { prompt_tokens: 812, completion_tokens: 41, total_tokens: 853 },
});

const userParts = (body: unknown) => {
  const content = (body as ChatBody).messages[1]!.content;
  return typeof content === "string" ? [] : content;
};

describeAdapterContract({
  provider: "openai",
  model: MODEL,
  apiKey: KEY,
  generatePath: "/v1/chat/completions",
  credentialOf: (h) => h.authorization?.replace(/^Bearer /, ""),
  modelOf: (b) => (b as ChatBody).model,
  imagesOf: (b) =>
    userParts(b)
      .filter((p) => p.type === "image_url")
      .map((p) => {
        const match = /^data:([^;]+);base64,(.*)$/.exec(p.image_url!.url);
        return { mime: match![1]!, data: match![2]! };
      }),
  textsOf: (b) => ({ system: (b as ChatBody).messages[0]!.content as string, user: userParts(b).at(-1)!.text! }),
  okGenerate: chatOk,
  errorBody: (status) => ({ error: { message: `upstream said ${status}`, type: status === 429 ? "requests" : "invalid_request_error", param: null, code: null } }),
  makeGenerator: (url, policy) => createOpenAICompatibleGenerator({ model: MODEL, apiKey: KEY, baseURL: `${url}/v1`, policy }),
  embedding: {
    path: "/v1/embeddings",
    inputsOf: (b) => (b as { input: string[] }).input,
    // Answered out of order: the adapter must order by `index`.
    ok: (vectors) => ({ object: "list", model: "text-embedding-3-small", data: vectors.map((embedding, index) => ({ object: "embedding", index, embedding })).reverse(), usage: { prompt_tokens: 9, total_tokens: 9 } }),
    makeEmbedder: (url, policy) => createOpenAICompatibleEmbedder({ model: "text-embedding-3-small", apiKey: KEY, baseURL: `${url}/v1`, policy }),
  },
});

describe("openai-compatible specifics", () => {
  let server: FakeProvider | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const image = { bytes: new Uint8Array([1, 2, 3]), mime: "image/jpeg" as const };

  it("talks to a keyless local server (Ollama style) without any Authorization header, using max_tokens", async () => {
    server = await startFakeProvider(() => ({ status: 200, body: chatOk("ok") }));
    const gen = createOpenAICompatibleGenerator({ model: "llava:13b", baseURL: `${server.url}/v1`, policy: createCallPolicy() });
    const result = await gen.generate({ system: "s", user: "u", images: [image], maxOutputTokens: 300 });
    expect(result.usage).toEqual({ inputTokens: 812, outputTokens: 41 });
    const sent = server.requests[0]!;
    expect(sent.headers.authorization).toBeUndefined();
    expect((sent.body as ChatBody).model).toBe("llava:13b");
    expect((sent.body as ChatBody).max_tokens).toBe(300);
    expect((sent.body as ChatBody).max_completion_tokens).toBeUndefined();
  });

  it("sends max_completion_tokens when told to (OpenAI's newer models accept only that)", async () => {
    server = await startFakeProvider(() => ({ status: 200, body: chatOk("ok") }));
    const gen = createOpenAICompatibleGenerator({ model: MODEL, apiKey: KEY, baseURL: `${server.url}/v1`, maxTokensField: "max_completion_tokens" });
    await gen.generate({ system: "s", user: "u", images: [], maxOutputTokens: 222, temperature: 0.7 });
    const body = server.requests[0]!.body as ChatBody & { temperature?: number };
    expect(body.max_completion_tokens).toBe(222);
    expect(body.max_tokens).toBeUndefined();
    expect(body.temperature).toBe(0.7);
  });

  it("labels the two images of a vote so the prompt can say Image 1 and Image 2", async () => {
    server = await startFakeProvider(() => ({ status: 200, body: chatOk("WINNER: 1") }));
    const gen = createOpenAICompatibleGenerator({ model: MODEL, apiKey: KEY, baseURL: `${server.url}/v1` });
    await gen.generate({ system: "s", user: "Which wins?", images: [image, image] });
    expect(userParts(server.requests[0]!.body).map((p) => p.type === "text" ? p.text : "<image>")).toEqual(["Image 1:", "<image>", "Image 2:", "<image>", "Which wins?"]);
  });

  it('reports an empty completion as "bad_response" and an exhausted quota as a 429 that is not retried', async () => {
    server = await startFakeProvider((_r, i) =>
      i === 0 ? { status: 200, body: chatOk("") } : { status: 429, body: { error: { message: "You exceeded your current quota", type: "insufficient_quota", code: "insufficient_quota", param: null } } },
    );
    const gen = createOpenAICompatibleGenerator({ model: MODEL, apiKey: KEY, baseURL: `${server.url}/v1`, policy: createCallPolicy({ baseDelayMs: 1 }) });
    const empty = await gen.generate({ system: "s", user: "u", images: [] }).catch((e: unknown) => e);
    expect(isModelError(empty) && empty.kind).toBe("bad_response");
    const quota = await gen.generate({ system: "s", user: "u", images: [] }).catch((e: unknown) => e);
    expect(isModelError(quota) && { kind: quota.kind, retryable: quota.retryable }).toEqual({ kind: "rate_limited", retryable: false });
    expect(server.requests).toHaveLength(2);
  });

  it("honours retry-after-ms, which OpenAI sends next to Retry-After", async () => {
    server = await startFakeProvider((_r, i) => (i === 0 ? { status: 429, headers: { "retry-after-ms": "1234", "retry-after": "2" }, body: { error: { message: "slow down" } } } : { status: 200, body: chatOk("ok") }));
    const waits: number[] = [];
    const gen = createOpenAICompatibleGenerator({ model: MODEL, apiKey: KEY, baseURL: `${server.url}/v1`, policy: createCallPolicy({ sleep: async (ms) => void waits.push(ms) }) });
    await gen.generate({ system: "s", user: "u", images: [] });
    expect(waits).toEqual([1234]);
  });
});
