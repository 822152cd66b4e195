import { afterEach, describe, expect, it } from "vitest";
import { createOpenAICompatibleEmbedder, createOpenAICompatibleGenerator, isModelError } from "../src/index.ts";
import { startStrictOllama } from "./support/strict/ollama.ts";
import type { StrictFake } from "./support/strict/strict-fake.ts";

describe("Ollama (flavor ollama) against the strict Ollama fake", () => {
  let server: StrictFake | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const request = { system: "You are Dana.", user: "Would you buy this?", images: [{ bytes: new Uint8Array([1, 2, 3]), mime: "image/jpeg" as const }], maxOutputTokens: 300 };

  for (const model of ["llava:13b", "qwen2.5vl:7b", "llama3.2-vision:11b", "gemma3:12b"]) {
    it(`${model}: generates without a key, with max_tokens and the seat temperature, and sends no reasoning_effort`, async () => {
      server = await startStrictOllama();
      for (const temperature of [0.5, 1.0]) {
        const gen = createOpenAICompatibleGenerator({ model, flavor: "ollama", baseURL: server.url, temperature, reasoningEffort: "high" });
        expect(gen.temperature).toBe(temperature);
        const result = await gen.generate(request);
        expect(result).toMatchObject({ provider: "ollama", model, text: "I would probably buy it." });
      }
      const body = server.requests[0]!.body as Record<string, unknown>;
      expect(server.requests[0]!.headers.authorization).toBeUndefined();
      expect(body).toMatchObject({ max_tokens: 300, temperature: 0.5 });
      expect("reasoning_effort" in body).toBe(false);
      expect(server.refusals).toEqual([]);
    });
  }

  it("reports a model that is not pulled as unknown_model", async () => {
    server = await startStrictOllama();
    const err = await createOpenAICompatibleGenerator({ model: "llava:34b", flavor: "ollama", baseURL: server.url }).generate(request).catch((e: unknown) => e);
    expect(isModelError(err) && err.misconfiguration?.cause).toBe("unknown_model");
  });

  it("embeds with nomic-embed-text", async () => {
    server = await startStrictOllama();
    const vectors = await createOpenAICompatibleEmbedder({ model: "nomic-embed-text", flavor: "ollama", baseURL: server.url }).embed(["a", "b"]);
    expect(vectors.map((v) => v.length)).toEqual([768, 768]);
  });

  it("is refused by the fake for max_completion_tokens (ignored by Ollama) and thinking on llava (the fake is not permissive)", async () => {
    server = await startStrictOllama();
    const forced = await createOpenAICompatibleGenerator({ model: "llava:13b", flavor: "ollama", baseURL: server.url, maxTokensField: "max_completion_tokens" }).generate(request).catch((e: unknown) => e);
    expect(isModelError(forced) && forced.kind).toBe("misconfigured");
    const thinking = await fetch(`${server.url}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "llava:13b", messages: [{ role: "user", content: "hi" }], reasoning_effort: "high" }) });
    expect(thinking.status).toBe(400);
    expect(server.refusals.map((r) => r.status)).toEqual([400, 400]);
  });
});
