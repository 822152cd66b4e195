import { afterEach, describe, expect, it } from "vitest";
import { createOpenAICompatibleGenerator, isModelError, type OpenAICompatibleOptions } from "../src/index.ts";
import { OPENROUTER_FAKE_KEY, openrouterFlagged, openrouterNoCredits, startStrictOpenRouter } from "./support/strict/openrouter.ts";
import type { StrictFake } from "./support/strict/strict-fake.ts";

describe("OpenRouter (flavor openrouter) against the strict OpenRouter fake", () => {
  let server: StrictFake | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });
  const request = { system: "You are Dana.", user: "Would you buy this?", images: [{ bytes: new Uint8Array([1, 2, 3]), mime: "image/webp" as const }] };
  const generator = (srv: StrictFake, options: Partial<OpenAICompatibleOptions>) => createOpenAICompatibleGenerator({ model: "openai/gpt-5-mini", flavor: "openrouter", apiKey: OPENROUTER_FAKE_KEY, baseURL: srv.url, ...options });

  it("sends the Bearer key and the attribution headers, and max_tokens with reasoning.effort for openai/gpt-5-mini", async () => {
    server = await startStrictOpenRouter();
    const gen = generator(server, { appUrl: "https://adrank.example", appTitle: "AdRank", temperature: 0.5, reasoningEffort: "low" });
    expect(gen.temperature).toBeNull();
    const result = await gen.generate(request);
    expect(result).toMatchObject({ provider: "openrouter", model: "openai/gpt-5-mini" });
    const sent = server.requests[0]!;
    expect(sent.headers.authorization).toBe(`Bearer ${OPENROUTER_FAKE_KEY}`);
    expect(sent.headers["http-referer"]).toBe("https://adrank.example");
    expect(sent.headers["x-title"]).toBe("AdRank");
    expect(sent.body).toMatchObject({ model: "openai/gpt-5-mini", reasoning: { effort: "low" } });
    expect(typeof (sent.body as { max_tokens?: number }).max_tokens).toBe("number");
    expect(server.refusals).toEqual([]);
  });

  it("sends the temperature to openai/gpt-4.1 and nothing model-specific to a model it has no rules for", async () => {
    server = await startStrictOpenRouter();
    await generator(server, { model: "openai/gpt-4.1", temperature: 1.0, reasoningEffort: "high" }).generate(request);
    await generator(server, { model: "anthropic/claude-sonnet-4.5", temperature: 0.5, reasoningEffort: "high" }).generate(request);
    expect(server.requests[0]!.body).toMatchObject({ temperature: 1 });
    expect("reasoning" in (server.requests[0]!.body as object)).toBe(false);
    expect(Object.keys(server.requests[1]!.body as object).sort()).toEqual(["max_tokens", "messages", "model"]);
    expect(server.refusals).toEqual([]);
  });

  it("reads 402 as an exhausted credit and 403 as flagged content", async () => {
    server = await startStrictOpenRouter({ reply: (_r, i) => (i === 0 ? openrouterNoCredits() : openrouterFlagged()) });
    const credits = await generator(server, {}).generate(request).catch((e: unknown) => e);
    expect(isModelError(credits) && credits.misconfiguration?.cause).toBe("quota_exhausted");
    const flagged = await generator(server, {}).generate(request).catch((e: unknown) => e);
    expect(isModelError(flagged) && flagged.kind).toBe("refused");
  });

  it("is refused by the fake for an unknown model id and a missing key (the fake is not permissive)", async () => {
    server = await startStrictOpenRouter();
    const unknown = await generator(server, { model: "openai/gpt-9" }).generate(request).catch((e: unknown) => e);
    expect(isModelError(unknown) && unknown.kind).toBe("misconfigured");
    const noKey = await fetch(`${server.url}/chat/completions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ model: "openai/gpt-4.1", messages: [{ role: "user", content: "hi" }] }) });
    expect(noKey.status).toBe(401);
    expect(await noKey.json()).toEqual({ error: { code: 401, message: "No auth credentials found" } });
    expect(server.refusals).toHaveLength(2);
  });
});
