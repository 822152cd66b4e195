import { SignatureV4 } from "@smithy/signature-v4";
import { Sha256 } from "@smithy/core/checksum";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createBedrockEmbedder, createBedrockGenerator, type BedrockOptions } from "../src/adapters/bedrock.ts";
import { createCallPolicy, describeModelError, isModelError, type CallPolicyOptions, type ImageInput, type ModelError } from "../src/index.ts";
import { bedrockFaults, startStrictBedrock, type StrictBedrock } from "./support/strict/bedrock.ts";
import type { StrictFakeOptions } from "./support/strict/strict-fake.ts";

const REGION = "eu-central-1";
const ACCESS_KEY_ID = "AKIATESTBEDROCK0001";
const SECRET = "bedrock/test/secret+key0123456789abcdefXY";
const credentials = { accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET };

const PNG = new Uint8Array(Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==", "base64"));
const WEBP = new Uint8Array([82, 73, 70, 70, 1, 2, 3, 4, 87, 69, 66, 80]);
const JPEG = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 74, 70, 73, 70, 0]);

type ConverseBody = {
  system?: Array<{ text: string }>;
  messages: Array<{ role: string; content: Array<{ text?: string; image?: { format: string; source: { bytes: string } } }> }>;
  inferenceConfig?: { maxTokens?: number; temperature?: number };
  additionalModelRequestFields?: { thinking?: { type: string; budget_tokens?: number } };
};

async function failureOf(promise: Promise<unknown>): Promise<ModelError> {
  try {
    await promise;
  } catch (err) {
    if (isModelError(err)) return err;
    throw new Error(`expected a ModelError, got ${String(err)}`, { cause: err });
  }
  throw new Error("expected the call to fail");
}

let server: StrictBedrock | undefined;
/** Refusals a test expects (a wrong key, an altered body); any other fails the test. */
let expectedRefusals = 0;
afterEach(async () => {
  const refusals = server?.refusals ?? [];
  await server?.close();
  server = undefined;
  const expected = expectedRefusals;
  expectedRefusals = 0;
  if (expected === 0) expect(refusals.map((r) => `${r.status}: ${r.rule}`)).toEqual([]);
});

const start = async (options: StrictFakeOptions = {}) => {
  server = await startStrictBedrock({ accessKeyId: ACCESS_KEY_ID, secretAccessKey: SECRET, region: REGION, ...options });
  return server;
};
const policy = (options: CallPolicyOptions = {}) => createCallPolicy({ timeoutMs: 5_000, maxRetries: 3, baseDelayMs: 5, maxDelayMs: 20, ...options });
const generator = (srv: StrictBedrock, model: string, options: Partial<BedrockOptions> = {}) =>
  createBedrockGenerator({ model, region: REGION, credentials, endpoint: srv.url, policy: policy(), ...options });
const request = (images: ImageInput[] = [{ bytes: PNG, mime: "image/png" }]) => ({ system: "You are Dana, 34, a careful shopper.", user: "Would you buy this?", images });
const bodyOf = (srv: StrictBedrock, i = 0) => srv.requests[i]!.body as ConverseBody;

describe("bedrock generator against the strict SigV4-checking fake", () => {
  const families: Array<[string, { temperature: boolean }]> = [
    ["us.anthropic.claude-sonnet-4-5-20250929-v1:0", { temperature: true }],
    ["eu.anthropic.claude-haiku-4-5-20251001-v1:0", { temperature: true }],
    ["global.anthropic.claude-sonnet-4-6", { temperature: true }],
    ["us.anthropic.claude-opus-4-6-v1", { temperature: true }],
    ["us.anthropic.claude-opus-4-7", { temperature: false }],
    ["amazon.nova-pro-v1:0", { temperature: true }],
    ["amazon.nova-lite-v1:0", { temperature: true }],
    ["us.meta.llama3-2-11b-instruct-v1:0", { temperature: true }],
    ["us.meta.llama4-maverick-17b-instruct-v1:0", { temperature: true }],
  ];
  for (const [model, { temperature }] of families) {
    it(`${model}: a signed call with one image and a vote with two images both succeed`, async () => {
      const srv = await start({ respond: (call) => `${call.model} saw ${call.images} image(s)` });
      const gen = generator(srv, model, { temperature: 0.5 });
      const one = await gen.generate(request());
      const two = await gen.generate(request([{ bytes: PNG, mime: "image/png" }, { bytes: WEBP, mime: "image/webp" }]));
      expect(one).toMatchObject({ text: `${model} saw 1 image(s)`, provider: "bedrock", model, simulated: false, usage: { outputTokens: 40 } });
      // A model with prompt caching gets a cache checkpoint, and its usage is the fake's own count of the prompt.
      expect(one.usage?.inputTokens).toBe(srv.promptCache.accounts[0]?.promptTokens ?? 900);
      expect(gen.cachesPrompts).toBe(/sonnet-4-[56]/.test(model));
      expect(two.text).toBe(`${model} saw 2 image(s)`);
      expect(srv.requests[0]!.path).toBe(`/model/${encodeURIComponent(model)}/converse`);
      expect(bodyOf(srv).system).toEqual([{ text: "You are Dana, 34, a careful shopper." }]);
      // The cache checkpoint closes the stable prefix after the last image, on models that take one.
      const checkpoint = gen.cachesPrompts || /opus-4-[67]|haiku-4-5/.test(model) ? ["cachePoint"] : [];
      expect(bodyOf(srv, 1).messages[0]!.content.map((c) => c.text ?? c.image?.format ?? Object.keys(c)[0])).toEqual(["Image 1:", "png", "Image 2:", "webp", ...checkpoint, "Would you buy this?"]);
      expect(srv.images[1]).toEqual([PNG, WEBP]);
      expect(bodyOf(srv).inferenceConfig?.temperature).toBe(temperature ? 0.5 : undefined);
      expect(gen.temperature).toBe(temperature ? 0.5 : null);
    });
  }

  it("sends Claude 4.5 thinking as an enabled budget without temperature, and Opus 4.7 thinking as adaptive", async () => {
    const srv = await start();
    await generator(srv, "us.anthropic.claude-sonnet-4-5-20250929-v1:0", { temperature: 0.5, thinkingBudget: 2048, maxOutputTokens: 1000 }).generate(request());
    await generator(srv, "us.anthropic.claude-opus-4-7", { thinkingBudget: 4096 }).generate(request([{ bytes: JPEG, mime: "image/jpeg" }]));
    expect(bodyOf(srv).additionalModelRequestFields).toEqual({ thinking: { type: "enabled", budget_tokens: 2048 } });
    expect(bodyOf(srv).inferenceConfig).toEqual({ maxTokens: 3048 });
    expect(bodyOf(srv, 1).additionalModelRequestFields).toEqual({ thinking: { type: "adaptive" } });
  });

  it("refuses at start a thinking budget for a model without thinking", async () => {
    const srv = await start();
    expect(() => generator(srv, "amazon.nova-pro-v1:0", { thinkingBudget: 2048 })).toThrow(/takes no thinking budget/);
  });

  it("the fake refuses what the real service refuses: temperature on Opus 4.7, an on-demand Claude id, a mislabelled image", async () => {
    const srv = await start();
    // Built as a model we do not know (so temperature is not filtered), but sent to Opus 4.7's id.
    const viaUnknown = createBedrockGenerator({ model: "us.anthropic.claude-opus-4-7", region: REGION, credentials, endpoint: srv.url, policy: policy() });
    expect(viaUnknown.temperature).toBeNull();
    const onDemand = await failureOf(generator(srv, "anthropic.claude-sonnet-4-5-20250929-v1:0").generate(request()));
    expect(onDemand).toMatchObject({ kind: "misconfigured", status: 400, misconfiguration: { cause: "unknown_model" } });
    const mislabelled = await failureOf(generator(srv, "amazon.nova-pro-v1:0").generate(request([{ bytes: PNG, mime: "image/jpeg" }])));
    expect(mislabelled).toMatchObject({ kind: "refused", status: 400 });
    expect(srv.refusals.map((r) => r.status)).toEqual([400, 400]);
    expectedRefusals = 2;
  });

  it("a wrong secret key is refused by the fake's signature check and becomes misconfigured/credentials, naming the key setting", async () => {
    const srv = await start();
    const gen = generator(srv, "amazon.nova-pro-v1:0", { credentials: { accessKeyId: ACCESS_KEY_ID, secretAccessKey: `${SECRET}-wrong` }, settings: { key: "BEDROCK_SECRET_ACCESS_KEY" } });
    const err = await failureOf(gen.generate(request()));
    expect(srv.refusals.map((r) => r.rule)).toEqual([expect.stringMatching(/^SigV4: InvalidSignatureException/)]);
    expect(err).toMatchObject({ kind: "misconfigured", status: 403, retryable: false, misconfiguration: { cause: "credentials" } });
    expect(err.misconfiguration!.fix).toContain("BEDROCK_SECRET_ACCESS_KEY");
    expect(err.message).not.toContain(SECRET);
    expect(describeModelError(err, "scoring model")).toBe("The service's model configuration failed (scoring model, bedrock); the operator has been told what to fix.");
    expect(srv.requests).toHaveLength(1);
    expectedRefusals = 1;
  });

  it("an unknown access key id is UnrecognizedClientException, also credentials", async () => {
    const srv = await start();
    const err = await failureOf(generator(srv, "amazon.nova-pro-v1:0", { credentials: { accessKeyId: "AKIAOTHER", secretAccessKey: SECRET } }).generate(request()));
    expect(srv.refusals.map((r) => r.rule)).toEqual([expect.stringMatching(/^SigV4: UnrecognizedClientException/)]);
    expect(err).toMatchObject({ kind: "misconfigured", misconfiguration: { cause: "credentials" } });
    expectedRefusals = 1;
  });

  it("ambient AWS_* variables and ~/.aws files do not change what is sent", async () => {
    const srv = await start();
    const comparable = (i: number) => {
      const { authorization, "x-amz-date": _date, "amz-sdk-invocation-id": _id, host: _host, ...headers } = srv.requests[i]!.headers;
      return { path: srv.requests[i]!.path, headers, body: srv.requests[i]!.body, credential: String(authorization).split(",")[0]!.replace(/\/\d{8}\//, "/DATE/") };
    };
    await generator(srv, "amazon.nova-lite-v1:0", { temperature: 0.2 }).generate(request());

    const dir = mkdtempSync(join(tmpdir(), "aws-ambient-"));
    writeFileSync(join(dir, "config"), "[default]\nregion = us-west-2\nendpoint_url = http://127.0.0.1:1\nsdk_ua_app_id = ambient-app\nmax_attempts = 7\n[profile other]\nregion = ap-south-1\n");
    writeFileSync(join(dir, "credentials"), "[default]\naws_access_key_id = AKIAFROMFILE\naws_secret_access_key = fromfile\n[other]\naws_access_key_id = AKIAOTHERFILE\naws_secret_access_key = other\n");
    const ambient: Record<string, string> = {
      AWS_ACCESS_KEY_ID: "AKIAFROMENV",
      AWS_SECRET_ACCESS_KEY: "fromenv",
      AWS_SESSION_TOKEN: "token-from-env",
      AWS_REGION: "us-east-1",
      AWS_DEFAULT_REGION: "us-east-1",
      AWS_PROFILE: "other",
      AWS_CONFIG_FILE: join(dir, "config"),
      AWS_SHARED_CREDENTIALS_FILE: join(dir, "credentials"),
      AWS_BEARER_TOKEN_BEDROCK: "bedrock-api-key-from-env",
      AWS_AUTH_SCHEME_PREFERENCE: "httpBearerAuth",
      AWS_ENDPOINT_URL: "http://127.0.0.1:1",
      AWS_ENDPOINT_URL_BEDROCK_RUNTIME: "http://127.0.0.1:1",
      AWS_SDK_UA_APP_ID: "ambient-app",
      AWS_MAX_ATTEMPTS: "9",
      AWS_DEFAULTS_MODE: "in-region",
      AWS_USE_FIPS_ENDPOINT: "true",
      AWS_EC2_METADATA_DISABLED: "false",
    };
    const saved = Object.fromEntries(Object.keys(ambient).map((k) => [k, process.env[k]]));
    Object.assign(process.env, ambient);
    try {
      await generator(srv, "amazon.nova-lite-v1:0", { temperature: 0.2 }).generate(request());
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    expect(srv.requests).toHaveLength(2);
    expect(comparable(1)).toEqual(comparable(0));
    expect(comparable(1).credential).toBe(`AWS4-HMAC-SHA256 Credential=${ACCESS_KEY_ID}/DATE/${REGION}/bedrock/aws4_request`);
    expect(srv.requests[1]!.headers["x-amz-security-token"]).toBeUndefined();
    expect(String(srv.requests[1]!.headers["user-agent"])).not.toContain("ambient-app");
  });

  it("sends a session token, signed, when one is given", async () => {
    const srv = await start();
    await generator(srv, "amazon.nova-pro-v1:0", { credentials: { ...credentials, sessionToken: "FwoGZXIvYXdzEXAMPLE" } }).generate(request());
    expect(srv.requests[0]!.headers["x-amz-security-token"]).toBe("FwoGZXIvYXdzEXAMPLE");
    expect(String(srv.requests[0]!.headers.authorization)).toMatch(/SignedHeaders=[^,]*x-amz-security-token/);
  });

  it("retries a ThrottlingException and returns the answer that follows", async () => {
    const srv = await start({ reply: (_req, i) => (i < 2 ? bedrockFaults.throttling() : undefined), respond: () => "after the throttle" });
    const result = await generator(srv, "amazon.nova-pro-v1:0").generate(request());
    expect(result.text).toBe("after the throttle");
    expect(srv.requests).toHaveLength(3);
  });

  it("honours a retry-after hint on a throttle", async () => {
    const delays: number[] = [];
    const srv = await start({ reply: (_req, i) => (i === 0 ? { ...bedrockFaults.throttling(), headers: { "x-amzn-errortype": "ThrottlingException", "retry-after": "2" } } : undefined) });
    await generator(srv, "amazon.nova-pro-v1:0", { policy: policy({ sleep: async (ms) => void delays.push(ms) }) }).generate(request());
    expect(delays).toEqual([2000]);
  });

  it("does not retry a ServiceQuotaExceededException: misconfigured quota_exhausted", async () => {
    const srv = await start({ reply: () => bedrockFaults.quota() });
    const err = await failureOf(generator(srv, "amazon.nova-pro-v1:0").generate(request()));
    expect(err).toMatchObject({ kind: "misconfigured", retryable: false, misconfiguration: { cause: "quota_exhausted" } });
    expect(srv.requests).toHaveLength(1);
  });

  it("asks again with a larger limit after a max_tokens stop", async () => {
    const srv = await start({ reply: (_req, i) => (i === 0 ? bedrockFaults.maxTokens("I would prob", 1024) : undefined), respond: () => "I would probably buy it." });
    const result = await generator(srv, "us.anthropic.claude-haiku-4-5-20251001-v1:0").generate(request());
    expect(result.text).toBe("I would probably buy it.");
    expect(srv.requests.map((r) => (r.body as ConverseBody).inferenceConfig?.maxTokens)).toEqual([1024, 2048]);
    // The cut-off first answer (scripted, 900 tokens in) and the second, counted by the fake; Haiku 4.5's 4,096-token minimum is not reached.
    expect(result.usage).toEqual({ inputTokens: 900 + srv.promptCache.accounts[0]!.promptTokens, outputTokens: 1064, cachedInputTokens: 0, cacheWriteInputTokens: 0 });
  });

  it("never grows the limit past the model's maximum (Llama 3.2: 2048)", async () => {
    const srv = await start({ reply: () => bedrockFaults.maxTokens("cut", 100) });
    const err = await failureOf(generator(srv, "us.meta.llama3-2-90b-instruct-v1:0", { maxOutputTokens: 1500 }).generate(request()));
    expect(srv.requests.map((r) => (r.body as ConverseBody).inferenceConfig?.maxTokens)).toEqual([1500, 2048, 2048]);
    expect(err.kind).toBe("bad_response");
  });

  it("a content_filtered stop is a refusal, not asked again", async () => {
    const srv = await start({ reply: () => bedrockFaults.contentFiltered() });
    const err = await failureOf(generator(srv, "amazon.nova-pro-v1:0").generate(request()));
    expect(err).toMatchObject({ kind: "refused", retryable: false, reason: "stop reason content_filtered" });
    expect(srv.requests).toHaveLength(1);
  });

  it("a model_context_window_exceeded stop is unusable and not asked again", async () => {
    const srv = await start({ reply: () => ({ status: 200, body: { output: { message: { role: "assistant", content: [{ text: "partial" }] } }, stopReason: "model_context_window_exceeded", usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 }, metrics: { latencyMs: 1 } } }) });
    const err = await failureOf(generator(srv, "global.anthropic.claude-sonnet-4-6").generate(request()));
    expect(err.kind).toBe("bad_response");
    expect(srv.requests).toHaveLength(1);
  });

  it("embeds one text per Titan V2 call, in order", async () => {
    const srv = await start({ embed: (text) => [text.length, 1, 2] });
    const embedder = createBedrockEmbedder({ region: REGION, credentials, endpoint: srv.url, policy: policy(), dimensions: 256 });
    const vectors = await embedder.embed(["one", "three", "seven!"]);
    expect(vectors).toEqual([
      [3, 1, 2],
      [5, 1, 2],
      [6, 1, 2],
    ]);
    expect(srv.requests.map((r) => r.path)).toEqual(Array(3).fill(`/model/${encodeURIComponent("amazon.titan-embed-text-v2:0")}/invoke`));
    expect(srv.requests.map((r) => r.body)).toContainEqual({ inputText: "three", dimensions: 256, normalize: true });
  });
});

describe("the fake's SigV4 check is not permissive", () => {
  const signer = new SignatureV4({ credentials, region: REGION, service: "bedrock", sha256: Sha256 });
  const signedRequest = async (url: URL, body: string) =>
    signer.sign({
      method: "POST",
      protocol: "http:",
      hostname: url.hostname,
      port: Number(url.port),
      path: `/model/${encodeURIComponent("amazon.nova-pro-v1:0")}/converse`,
      headers: { host: url.host, "content-type": "application/json" },
      body,
      query: {},
    });
  const body = JSON.stringify({ messages: [{ role: "user", content: [{ text: "Would you buy this?" }] }], inferenceConfig: { maxTokens: 100 } });
  const send = (url: URL, signed: Awaited<ReturnType<typeof signedRequest>>, sentBody: string) =>
    fetch(new URL(signed.path, url), { method: "POST", headers: signed.headers as Record<string, string>, body: sentBody });

  it("accepts a request signed by the AWS SDK's own signer, and rejects it once the body is altered after signing", async () => {
    const srv = await start();
    const url = new URL(srv.url);
    const signed = await signedRequest(url, body);
    const ok = await send(url, signed, body);
    expect(ok.status).toBe(200);
    const altered = body.replace("maxTokens\":100", "maxTokens\":101");
    expect(altered).not.toBe(body);
    const refused = await send(url, signed, altered);
    expect(refused.status).toBe(403);
    expect(refused.headers.get("x-amzn-errortype")).toMatch(/^InvalidSignatureException/);
    expect(srv.refusals.map((r) => r.status)).toEqual([403]);
    expectedRefusals = 1;
  });

  it("rejects a request without an Authorization header, and one signed for another region", async () => {
    const srv = await start();
    const url = new URL(srv.url);
    const unsigned = await fetch(new URL(`/model/${encodeURIComponent("amazon.nova-pro-v1:0")}/converse`, url), { method: "POST", headers: { "content-type": "application/json" }, body });
    expect(unsigned.status).toBe(403);
    const otherRegion = await new SignatureV4({ credentials, region: "us-east-1", service: "bedrock", sha256: Sha256 }).sign({
      method: "POST",
      protocol: "http:",
      hostname: url.hostname,
      port: Number(url.port),
      path: `/model/${encodeURIComponent("amazon.nova-pro-v1:0")}/converse`,
      headers: { host: url.host, "content-type": "application/json" },
      body,
      query: {},
    });
    expect((await send(url, otherRegion, body)).status).toBe(403);
    expect(srv.refusals.map((r) => r.rule)).toEqual([expect.stringMatching(/MissingAuthenticationToken/), expect.stringMatching(/InvalidSignatureException: Credential should be scoped to a valid region/)]);
    expectedRefusals = 2;
  });
});
