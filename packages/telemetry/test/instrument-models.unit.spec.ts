import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { ModelError, type Embedder, type Generator } from "@adrank/models";
import { createMetrics, instrumentEmbedder, instrumentGenerator, modelCallInstruments } from "../src/index.ts";
import { installInMemoryTracing } from "./in-memory-tracing.ts";

const SECRET_PROMPT = "persona: secret-campaign-42";
const request = { system: "You judge ads.", user: SECRET_PROMPT, images: [{ mime: "image/png" as const, data: Buffer.from("png-bytes") }] };

describe("instrumented model calls", () => {
  let tracing: ReturnType<typeof installInMemoryTracing>;
  beforeAll(() => {
    tracing = installInMemoryTracing();
  });
  afterAll(() => tracing.uninstall());
  beforeEach(() => tracing.reset());

  it("gives each call a GenAI span with tokens and a latency observation, and never the prompt", async () => {
    const metrics = createMetrics("scorer");
    const inner: Generator = {
      provider: "openai",
      model: "gpt-vision",
      temperature: 0.5,
      thinking: null,
      generate: async () => ({ text: "4", provider: "openai", model: "gpt-vision", modelVersion: "gpt-vision-2026", simulated: false, usage: { inputTokens: 812, outputTokens: 3 } }),
    };
    const generator = instrumentGenerator(inner, modelCallInstruments(metrics));
    expect((await generator.generate(request as never)).text).toBe("4");

    const [span] = tracing.spans();
    expect(span!.name).toBe("chat gpt-vision");
    expect(span!.attributes).toMatchObject({
      "gen_ai.system": "openai",
      "gen_ai.operation.name": "chat",
      "gen_ai.request.model": "gpt-vision",
      "gen_ai.response.model": "gpt-vision-2026",
      "gen_ai.usage.input_tokens": 812,
      "gen_ai.usage.output_tokens": 3,
    });
    expect(JSON.stringify(span!.attributes)).not.toContain("secret-campaign");

    const [, body] = await metrics.render();
    expect(body).toMatch(/adrank_model_call_seconds_count\{[^}]*provider="openai"[^}]*model="gpt-vision"[^}]*outcome="ok"[^}]*\} 1/);
    // Spend per model, for the operator: what the provider reported, summed across calls.
    await generator.generate(request as never);
    const [, after] = await metrics.render();
    expect(after).toMatch(/adrank_model_tokens_total\{[^}]*model="gpt-vision"[^}]*direction="input"[^}]*\} 1624/);
    expect(after).toMatch(/adrank_model_tokens_total\{[^}]*model="gpt-vision"[^}]*direction="output"[^}]*\} 6/);
  });

  it("counts a failed call by the error's kind and keeps the error for the caller", async () => {
    const metrics = createMetrics("scorer");
    const refusal = new ModelError({ kind: "rate_limited", provider: "anthropic", model: "claude", message: "The provider asked us to slow down.", retryAfterMs: 1000 });
    const inner: Generator = { provider: "anthropic", model: "claude", temperature: null, thinking: null, generate: async () => { throw refusal; } };
    const generator = instrumentGenerator(inner, modelCallInstruments(metrics));
    await expect(generator.generate(request as never)).rejects.toBe(refusal);

    const [, body] = await metrics.render();
    expect(body).toMatch(/adrank_model_call_errors_total\{[^}]*kind="rate_limited"[^}]*\} 1/);
    expect(body).toMatch(/adrank_model_call_seconds_count\{[^}]*outcome="error"[^}]*\} 1/);
    expect(tracing.spans()[0]!.status.code).toBe(2);
  });

  it("gives an embedding batch one span with the batch size", async () => {
    const metrics = createMetrics("scorer");
    const inner: Embedder = { provider: "sim", model: "sim-embed", embed: async (texts) => texts.map(() => [1, 0]) };
    const embedder = instrumentEmbedder(inner, modelCallInstruments(metrics));
    expect(await embedder.embed(["a", "b", "c"])).toHaveLength(3);
    const [span] = tracing.spans();
    expect(span!.attributes).toMatchObject({ "gen_ai.operation.name": "embeddings", "adrank.texts": 3 });
  });
});
