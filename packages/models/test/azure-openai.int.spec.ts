import { afterEach, describe, expect, it } from "vitest";
import { AZURE_OPENAI_DEFAULT_API_VERSION } from "../src/adapters/openai-compatible.ts";
import { createCallPolicy, createOpenAICompatibleEmbedder, createOpenAICompatibleGenerator, isModelError, type OpenAICompatibleOptions } from "../src/index.ts";
import { AZURE_FAKE_KEY, azureContentFiltered, azureRateLimited, startStrictAzure } from "./support/strict/azure.ts";
import type { StrictFake } from "./support/strict/strict-fake.ts";

describe("Azure OpenAI (flavor azure) against the strict Azure fake", () => {
  let server: StrictFake | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const deployments = { ranker: "gpt-4.1", thinker: "gpt-5-mini", vectors: "text-embedding-3-large" };
  const start = async (reply?: (i: number) => ReturnType<typeof azureRateLimited> | undefined) => {
    server = await startStrictAzure({ deployments, ...(reply ? { reply: (_r, i) => reply(i) } : {}) });
    return server;
  };
  const generator = (srv: StrictFake, options: Partial<OpenAICompatibleOptions>) => createOpenAICompatibleGenerator({ model: "ranker", rulesModel: "gpt-4.1", flavor: "azure", apiKey: AZURE_FAKE_KEY, baseURL: srv.url, ...options });
  const request = { system: "You are Dana.", user: "Would you buy this?", images: [{ bytes: new Uint8Array([1, 2, 3]), mime: "image/png" as const }] };

  it("sends the api-key header, the deployment in the path and the api-version query", async () => {
    const srv = await start();
    const result = await generator(srv, { temperature: 0.5 }).generate(request);
    expect(result).toMatchObject({ provider: "azure", model: "ranker", text: "I would probably buy it." });
    const sent = srv.requests[0]!;
    expect(sent.headers["api-key"]).toBe(AZURE_FAKE_KEY);
    expect(sent.headers.authorization).toBeUndefined();
    expect(sent.path).toBe(`/openai/deployments/ranker/chat/completions?api-version=${AZURE_OPENAI_DEFAULT_API_VERSION}`);
    expect((sent.body as { temperature?: number }).temperature).toBe(0.5);
    expect(srv.refusals).toEqual([]);
  });

  it("follows the deployment's model rules (rulesModel): a gpt-5-mini deployment gets no temperature and max_completion_tokens", async () => {
    const srv = await start();
    const gen = generator(srv, { model: "thinker", rulesModel: "gpt-5-mini", temperature: 0.5, reasoningEffort: "low", apiVersion: "2025-04-01-preview" });
    expect(gen.temperature).toBeNull();
    await gen.generate(request);
    const body = srv.requests[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({ reasoning_effort: "low" });
    expect(typeof body["max_completion_tokens"]).toBe("number");
    expect("temperature" in body).toBe(false);
    expect(srv.refusals).toEqual([]);
  });

  it("reports an unknown deployment as unknown_model and a wrong key as credentials", async () => {
    const srv = await start();
    const missing = await generator(srv, { model: "nope" }).generate(request).catch((e: unknown) => e);
    expect(isModelError(missing) && missing.misconfiguration?.cause).toBe("unknown_model");
    const badKey = await generator(srv, { apiKey: "wrong" }).generate(request).catch((e: unknown) => e);
    expect(isModelError(badKey) && badKey.misconfiguration?.cause).toBe("credentials");
  });

  it("takes Azure's content filter as a refusal of the content, and honours its retry-after", async () => {
    const srv = await start((i) => (i === 0 ? azureRateLimited(2) : i === 1 ? azureContentFiltered() : undefined));
    const waits: number[] = [];
    const err = await generator(srv, { policy: createCallPolicy({ sleep: async (ms) => void waits.push(ms) }) }).generate(request).catch((e: unknown) => e);
    expect(waits).toEqual([2000]);
    expect(isModelError(err) && err.kind).toBe("refused");
  });

  it("embeds through an embedding deployment", async () => {
    const srv = await start();
    const vectors = await createOpenAICompatibleEmbedder({ model: "vectors", flavor: "azure", apiKey: AZURE_FAKE_KEY, baseURL: srv.url }).embed(["a", "b"]);
    expect(vectors.map((v) => v.length)).toEqual([3072, 3072]);
    expect(srv.requests[0]!.path).toBe(`/openai/deployments/vectors/embeddings?api-version=${AZURE_OPENAI_DEFAULT_API_VERSION}`);
  });

  it("is refused by the fake without an api-key or with an old api-version and reasoning_effort (the fake is not permissive)", async () => {
    const srv = await start();
    const noKey = await fetch(`${srv.url}/openai/deployments/ranker/chat/completions?api-version=2025-04-01-preview`, { method: "POST", headers: { authorization: `Bearer ${AZURE_FAKE_KEY}`, "content-type": "application/json" }, body: "{}" });
    expect(noKey.status).toBe(401);
    const oldVersion = await generator(srv, { model: "thinker", rulesModel: "gpt-5-mini", reasoningEffort: "low", apiVersion: "2024-10-21" }).generate(request).catch((e: unknown) => e);
    expect(isModelError(oldVersion) && oldVersion.kind).toBe("misconfigured");
    expect(srv.refusals.map((r) => r.status)).toEqual([401, 400]);
  });
});
