import { afterEach, describe, expect, it } from "vitest";
import { createCallPolicy, describeModelError, isModelError, realSleep, type CallPolicy, type CallPolicyOptions, type Embedder, type GenerationOptions, type Generator, type ImageInput, type ModelError } from "../../src/index.ts";
import { type FakeProvider, type RecordedRequest, type Reply } from "./fake-provider.ts";
import { startStrictServer, type Check, type StrictFake } from "./strict/strict-fake.ts";

/** Token counts of one answer as a test states them: `output` is the visible answer, `reasoning` comes on top. */
export interface Tokens {
  input: number;
  output: number;
  reasoning: number;
}

/** What differs between providers: their wire format and how an adapter is built. */
export interface WireFormat {
  provider: string;
  model: string;
  apiKey: string;
  /** The request path the generator must call. */
  generatePath: string;
  /** The credential as the provider's auth header carries it, or undefined. */
  credentialOf(headers: RecordedRequest["headers"]): string | undefined;
  /** Model name as sent; undefined when the model travels in the path. */
  modelOf(body: unknown): string | undefined;
  /** Images of a generate request, in order, with their mime type and base64 data. */
  imagesOf(body: unknown): Array<{ mime: string; data: string }>;
  /** The system and user text of a generate request. */
  textsOf(body: unknown): { system: string; user: string };
  okGenerate(text: string): unknown;
  errorBody(status: number): unknown;
  /** The output limit a generate request asked for (answer budget plus any reasoning budget). */
  outputLimitOf(body: unknown): number;
  /** Response bodies for the tests of answers that cannot be used, every one reporting its tokens. */
  answers: {
    ok(text: string, tokens: Tokens): unknown;
    /** No text, finished normally. */
    empty(tokens: Tokens): unknown;
    /** Stopped by the output limit after `text` (which may be ""). */
    truncated(text: string, tokens: Tokens): unknown;
    /** Declined by the model or the provider's safety filter. */
    refusal(): unknown;
    /** How our messages name the provider's stop reasons. */
    stops: { empty: string; truncated: string };
    /** The `reason` of the error a refusal ends in: the provider's stop code, when it gives one. */
    refusalReason: string | undefined;
  };
  makeGenerator(baseURL: string, policy: CallPolicy, options?: GenerationOptions): Generator;
  /**
   * The provider's own request rules (strict/<provider>.ts): every request of every test here
   * is checked first, and a test fails if the fake refused any request it did not expect.
   */
  check: Check;
  embedding?: {
    path: string;
    inputsOf(body: unknown): string[];
    ok(vectors: number[][]): unknown;
    makeEmbedder(baseURL: string, policy: CallPolicy): Embedder;
  };
}

/** A real 1x1 PNG: adapters pass bytes through untouched, so any bytes with a known base64 do. */
const PNG = new Uint8Array(Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64"));
const WEBP = new Uint8Array([82, 73, 70, 70, 1, 2, 3, 4, 87, 69, 66, 80]);

async function failureOf(promise: Promise<unknown>): Promise<ModelError> {
  try {
    await promise;
  } catch (err) {
    if (isModelError(err)) return err;
    throw new Error(`expected a ModelError, got ${String(err)}`, { cause: err });
  }
  throw new Error("expected the call to fail");
}

export function describeAdapterContract(wire: WireFormat): void {
  describe(`${wire.provider} adapter against a local ${wire.provider} wire-format server`, () => {
    let server: StrictFake | undefined;
    afterEach(async () => {
      const refusals = server?.refusals ?? [];
      await server?.close();
      server = undefined;
      // What our adapter sent must be what the real provider accepts, in every test.
      expect(refusals.map((r) => `${r.status}: ${r.rule}`)).toEqual([]);
    });

    const start = async (reply: (req: RecordedRequest, index: number) => Reply): Promise<FakeProvider> => {
      server = await startStrictServer(wire.check, reply);
      return server;
    };
    const policy = (options: CallPolicyOptions = {}) => createCallPolicy({ timeoutMs: 5_000, maxRetries: 3, baseDelayMs: 5, maxDelayMs: 20, ...options });
    const request = (images: ImageInput[] = [{ bytes: PNG, mime: "image/png" }]) => ({ system: "You are Dana, 34, a careful shopper.", user: "Would you buy this? Answer in two sentences.", images });
    const ok = (text = "I would probably buy it.\nRATIONALE: Clear product.\nPRODUCT: A kettle.") => ({ status: 200, body: wire.okGenerate(text) });

    it("sends the model, credential, prompt and base64 image, and returns the model's text", async () => {
      const srv = await start(() => ok());
      const result = await wire.makeGenerator(srv.url, policy()).generate(request());

      expect(result).toMatchObject({ text: "I would probably buy it.\nRATIONALE: Clear product.\nPRODUCT: A kettle.", provider: wire.provider, model: wire.model, simulated: false });
      expect(srv.requests).toHaveLength(1);
      const [sent] = srv.requests;
      expect(sent!.method).toBe("POST");
      expect(sent!.path.split("?")[0]).toBe(wire.generatePath);
      expect(wire.credentialOf(sent!.headers)).toBe(wire.apiKey);
      const model = wire.modelOf(sent!.body);
      if (model !== undefined) expect(model).toBe(wire.model);
      expect(wire.imagesOf(sent!.body)).toEqual([{ mime: "image/png", data: Buffer.from(PNG).toString("base64") }]);
      expect(wire.textsOf(sent!.body)).toEqual({ system: "You are Dana, 34, a careful shopper.", user: "Would you buy this? Answer in two sentences." });
    });

    it("sends both images of a vote in prompt order, each with its own mime type", async () => {
      const srv = await start(() => ok("WINNER: 2"));
      await wire.makeGenerator(srv.url, policy()).generate(request([{ bytes: PNG, mime: "image/png" }, { bytes: WEBP, mime: "image/webp" }]));
      expect(wire.imagesOf(srv.requests[0]!.body)).toEqual([
        { mime: "image/png", data: Buffer.from(PNG).toString("base64") },
        { mime: "image/webp", data: Buffer.from(WEBP).toString("base64") },
      ]);
    });

    for (const [status, cause] of [[401, "credentials"], [403, "credentials"], [400, "invalid_request"], [404, "unknown_model"]] as const) {
      it(`maps HTTP ${status} to a "${cause}" misconfiguration without retrying, and never echoes the key`, async () => {
        const srv = await start(() => ({ status, body: wire.errorBody(status) }));
        const err = await failureOf(wire.makeGenerator(srv.url, policy()).generate(request()));
        expect(err).toMatchObject({ kind: "misconfigured", retryable: false, status, provider: wire.provider, model: wire.model, misconfiguration: { cause } });
        expect(describeModelError(err, "scoring model")).toBe(`The service's model configuration failed (scoring model, ${wire.provider}); the operator has been told what to fix.`);
        expect(srv.requests).toHaveLength(1);
        expect(err.message).not.toContain(wire.apiKey);
        expect(err.message).not.toContain("Dana");
      });
    }

    it("retries a 500 and returns the answer that follows", async () => {
      const srv = await start((_req, i) => (i === 0 ? { status: 500, body: wire.errorBody(500) } : ok("fine now")));
      const result = await wire.makeGenerator(srv.url, policy()).generate(request());
      expect(result.text).toBe("fine now");
      expect(srv.requests).toHaveLength(2);
    });

    it("waits at least the Retry-After of a 429 before trying again", async () => {
      const srv = await start((_req, i) => (i === 0 ? { status: 429, headers: { "retry-after": "1" }, body: wire.errorBody(429) } : ok("after the wait")));
      const result = await wire.makeGenerator(srv.url, policy({ sleep: realSleep })).generate(request());
      expect(result.text).toBe("after the wait");
      const [first, second] = srv.requests;
      // Timer granularity can land a millisecond early; the provider's second is what matters.
      expect(second!.receivedAt - first!.receivedAt).toBeGreaterThanOrEqual(995);
    });

    for (const [status, kind] of [[429, "rate_limited"], [503, "unavailable"]] as const) {
      it(`gives up with "${kind}" after the configured retries of HTTP ${status}`, async () => {
        const srv = await start(() => ({ status, body: wire.errorBody(status) }));
        const delays: number[] = [];
        const err = await failureOf(wire.makeGenerator(srv.url, policy({ maxRetries: 2, baseDelayMs: 100, maxDelayMs: 1_000, random: () => 0.5, sleep: async (ms) => void delays.push(ms) })).generate(request()));
        expect(err).toMatchObject({ kind, status, retryable: true });
        expect(err.message).toMatch(/3 attempts/);
        expect(srv.requests).toHaveLength(3);
        // Exponential windows 100, 200 ms with a mid draw: 50, 100.
        expect(delays).toEqual([50, 100]);
      });
    }

    it('ends a call the caller cancels mid-flight quickly, as "aborted"', async () => {
      const srv = await start(() => ({ hang: true }));
      const controller = new AbortController();
      const started = performance.now();
      setTimeout(() => controller.abort(), 100);
      const err = await failureOf(wire.makeGenerator(srv.url, policy()).generate({ ...request(), signal: controller.signal }));
      expect(err.kind).toBe("aborted");
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(srv.requests).toHaveLength(1);
      await expect.poll(() => srv.abandoned()).toBe(1);
    });

    it('reports an attempt that outlives its timeout as "timeout"', async () => {
      const srv = await start(() => ({ hang: true }));
      const started = performance.now();
      const err = await failureOf(wire.makeGenerator(srv.url, policy({ timeoutMs: 150, maxRetries: 1 })).generate(request()));
      expect(err).toMatchObject({ kind: "timeout", retryable: true });
      expect(srv.requests).toHaveLength(2);
      expect(performance.now() - started).toBeLessThan(2_000);
    });

    it("never has more calls in flight at the server than the concurrency limit", async () => {
      const srv = await start(() => ({ ...ok("slow answer"), delayMs: 80 }));
      const gen = wire.makeGenerator(srv.url, policy({ concurrency: 2 }));
      const results = await Promise.all(Array.from({ length: 5 }, () => gen.generate(request())));
      expect(results.map((r) => r.text)).toEqual(Array(5).fill("slow answer"));
      expect(srv.requests).toHaveLength(5);
      expect(srv.maxInFlight()).toBe(2);
    });

    describe("answers that cannot be used", () => {
      const answer = (body: unknown): Reply => ({ status: 200, body });
      const usageOf = (...all: Tokens[]) => ({
        inputTokens: all.reduce((n, t) => n + t.input, 0),
        outputTokens: all.reduce((n, t) => n + t.output + t.reasoning, 0),
        reasoningTokens: all.reduce((n, t) => n + t.reasoning, 0),
      });
      const limits = (srv: FakeProvider) => srv.requests.map((r) => wire.outputLimitOf(r.body));

      it("asks again after an empty answer and returns the next one, with the usage of both attempts", async () => {
        const first = { input: 700, output: 0, reasoning: 300 };
        const second = { input: 700, output: 12, reasoning: 200 };
        const srv = await start((_req, i) => answer(i === 0 ? wire.answers.empty(first) : wire.answers.ok("I would buy it.", second)));
        const result = await wire.makeGenerator(srv.url, policy()).generate(request());
        expect(result.text).toBe("I would buy it.");
        expect(result.usage).toEqual(usageOf(first, second));
        expect(result.usage).toEqual({ inputTokens: 1400, outputTokens: 512, reasoningTokens: 500 });
        expect(limits(srv)).toEqual([limits(srv)[0], limits(srv)[0]]);
      });

      it("asks again with double the output limit after a truncated answer", async () => {
        const srv = await start((_req, i) => answer(i === 0 ? wire.answers.truncated("I would prob", { input: 700, output: 1000, reasoning: 0 }) : wire.answers.ok("I would probably buy it.", { input: 700, output: 20, reasoning: 0 })));
        const result = await wire.makeGenerator(srv.url, policy()).generate(request());
        expect(result.text).toBe("I would probably buy it.");
        const [first, second] = limits(srv);
        expect(second).toBe(first! * 2);
        expect(result.usage).toEqual({ inputTokens: 1400, outputTokens: 1020, reasoningTokens: 0 });
      });

      it('ends a limit used up by reasoning in "bad_response" after the configured retries, naming the reason and keeping the usage', async () => {
        const tokens = { input: 700, output: 14, reasoning: 1010 };
        const srv = await start(() => answer(wire.answers.truncated("", tokens)));
        const err = await failureOf(wire.makeGenerator(srv.url, policy(), { maxOutputTokens: 1024, answerRetries: 2 }).generate(request()));
        const [first] = limits(srv);
        // Double, then double again; the third attempt is the last (MODEL_ANSWER_RETRIES=2).
        expect(limits(srv)).toEqual([first, first! * 2, first! * 4]);
        expect(err).toMatchObject({ kind: "bad_response", retryable: false, provider: wire.provider, model: wire.model });
        expect(err.message).toBe(`${wire.provider} model ${wire.model} returned no text: the output limit of ${first! * 4} tokens was used up (${wire.answers.stops.truncated}, 1010 reasoning tokens) after 3 attempts`);
        expect(err.reason).toBe(`no text, the output limit was used up by reasoning (${wire.answers.stops.truncated})`);
        expect(describeModelError(err, "scoring model")).toBe(`The scoring model (${wire.provider}) returned an answer that could not be used: no text, the output limit was used up by reasoning (${wire.answers.stops.truncated}).`);
        expect(err.usage).toEqual(usageOf(tokens, tokens, tokens));
        expect(err.toJSON()).toMatchObject({ reason: err.reason, usage: err.usage });
        expect(err.message).not.toContain("Dana");
      });

      it("asks an empty answer again at the same limit, and names the stop reason when it stays empty", async () => {
        const srv = await start(() => answer(wire.answers.empty({ input: 700, output: 0, reasoning: 0 })));
        const err = await failureOf(wire.makeGenerator(srv.url, policy(), { answerRetries: 1 }).generate(request()));
        const [first] = limits(srv);
        expect(limits(srv)).toEqual([first, first]);
        expect(err.kind).toBe("bad_response");
        expect(err.message).toBe(`${wire.provider} model ${wire.model} returned no text (${wire.answers.stops.empty}) after 2 attempts`);
        expect(err.reason).toBe(`no text (${wire.answers.stops.empty})`);
      });

      it("ends an answer still cut off at the last attempt in bad_response, and grows the limit to four times the first at most", async () => {
        const srv = await start(() => answer(wire.answers.truncated("I would prob", { input: 700, output: 100, reasoning: 0 })));
        const err = await failureOf(wire.makeGenerator(srv.url, policy(), { answerRetries: 4 }).generate(request()));
        const [first] = limits(srv);
        expect(limits(srv)).toEqual([first, first! * 2, first! * 4, first! * 4, first! * 4]);
        expect(err.reason).toBe(`the answer was cut off by the output limit (${wire.answers.stops.truncated})`);
      });

      it("does not ask again after a refusal", async () => {
        const srv = await start(() => answer(wire.answers.refusal()));
        const err = await failureOf(wire.makeGenerator(srv.url, policy()).generate(request()));
        expect(srv.requests).toHaveLength(1);
        expect(err).toMatchObject({ kind: "refused", retryable: false });
        expect(err.reason).toBe(wire.answers.refusalReason);
        const why = wire.answers.refusalReason ? ` (${wire.answers.refusalReason})` : "";
        expect(describeModelError(err, "voter model")).toBe(`The voter model (${wire.provider}) refused this image or text${why}.`);
        expect(err.message).not.toContain("Dana");
      });

      it("makes a single attempt when answer retries are 0", async () => {
        const srv = await start(() => answer(wire.answers.empty({ input: 700, output: 0, reasoning: 0 })));
        const err = await failureOf(wire.makeGenerator(srv.url, policy(), { answerRetries: 0 }).generate(request()));
        expect(srv.requests).toHaveLength(1);
        expect(err.message).toBe(`${wire.provider} model ${wire.model} returned no text (${wire.answers.stops.empty})`);
      });
    });

    const embedding = wire.embedding;
    if (embedding) {
      it("embeds a whole batch of texts in one call and keeps their order", async () => {
        const texts = ["I would definitely buy it.", "I might.", "Never."];
        const vectors = texts.map((_t, i) => [i + 0.5, 1 - i, 0.25]);
        const srv = await start(() => ({ status: 200, body: embedding.ok(vectors) }));
        const out = await embedding.makeEmbedder(srv.url, policy()).embed(texts);
        expect(out).toEqual(vectors);
        expect(srv.requests).toHaveLength(1);
        expect(srv.requests[0]!.path.split("?")[0]).toBe(embedding.path);
        expect(wire.credentialOf(srv.requests[0]!.headers)).toBe(wire.apiKey);
        expect(embedding.inputsOf(srv.requests[0]!.body)).toEqual(texts);
      });

      it('treats an embedding answer of the wrong length as "bad_response"', async () => {
        const srv = await start(() => ({ status: 200, body: embedding.ok([[1, 2]]) }));
        const err = await failureOf(embedding.makeEmbedder(srv.url, policy()).embed(["a", "b"]));
        expect(err.kind).toBe("bad_response");
      });
    }
  });
}
