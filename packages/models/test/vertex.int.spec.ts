import { generateKeyPairSync } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { createVertexEmbedder, createVertexGenerator, serviceAccountTokens, type ServiceAccountKey } from "../src/adapters/vertex.ts";
import { createCallPolicy, isModelError } from "../src/index.ts";
import { startStrictVertex, type StrictVertex } from "./support/strict/vertex.ts";

const PROJECT = "adrank-test";
const LOCATION = "europe-west4";
const EMAIL = "adrank@adrank-test.iam.gserviceaccount.com";
const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString();
const request = { system: "You are Dana.", user: "Would you buy this?", images: [] };
const policy = () => createCallPolicy({ timeoutMs: 5_000, maxRetries: 1, baseDelayMs: 5, maxDelayMs: 10 });

describe("vertex against the strict Vertex AI fake, with the service-account token exchange", () => {
  let fake: StrictVertex | undefined;
  afterEach(async () => {
    const refusals = fake?.refusals.map((r) => r.rule) ?? [];
    await fake?.close();
    fake = undefined;
    expect(refusals).toEqual([]);
  });
  const start = async () => {
    fake = await startStrictVertex({ publicKey, clientEmail: EMAIL, project: PROJECT, location: LOCATION, respond: (call) => `vertex answer from ${call.model}` });
    const key: ServiceAccountKey = { client_email: EMAIL, private_key: pem, project_id: PROJECT, token_uri: fake.tokenUri };
    return { srv: fake, key };
  };

  it("exchanges the signed assertion for a token at the key's token_uri and generates with it", async () => {
    const { srv, key } = await start();
    const gen = createVertexGenerator({ model: "gemini-2.5-flash", serviceAccount: key, location: LOCATION, baseURL: srv.url, temperature: 0.5, policy: policy() });
    const first = await gen.generate(request);
    await gen.generate(request);
    expect(first).toMatchObject({ text: "vertex answer from gemini-2.5-flash", provider: "vertex", model: "gemini-2.5-flash" });
    const paths = srv.requests.map((r) => r.path);
    // One token, reused for the second call.
    expect(paths).toEqual(["/token", `/v1/projects/${PROJECT}/locations/${LOCATION}/publishers/google/models/gemini-2.5-flash:generateContent`, `/v1/projects/${PROJECT}/locations/${LOCATION}/publishers/google/models/gemini-2.5-flash:generateContent`]);
    expect(srv.requests[1]!.headers.authorization).toBe(`Bearer ${srv.issued[0]}`);
  });

  it("shares one token exchange between concurrent calls, and one caller's cancellation does not fail the others", async () => {
    const { srv, key } = await start();
    const tokens = serviceAccountTokens(key, { provider: "vertex", model: "gemini-2.5-flash" });
    const cancelled = new AbortController();
    const first = tokens.token(cancelled.signal);
    const second = tokens.token();
    cancelled.abort(new Error("the first request was cancelled"));
    const [a, b] = await Promise.allSettled([first, second]);
    expect(a).toMatchObject({ status: "rejected", reason: new Error("the first request was cancelled") });
    expect(b).toEqual({ status: "fulfilled", value: srv.issued[0] });
    expect(srv.requests.filter((r) => r.path === "/token")).toHaveLength(1);
  });

  it("sends no thinkingConfig to gemini-2.0-flash on Vertex either", async () => {
    const { srv, key } = await start();
    await createVertexGenerator({ model: "gemini-2.0-flash", serviceAccount: key, location: LOCATION, baseURL: srv.url, policy: policy() }).generate(request);
    expect((srv.requests[1]!.body as { generationConfig: Record<string, unknown> }).generationConfig.thinkingConfig).toBeUndefined();
  });

  for (const model of ["gemini-embedding-001", "gemini-embedding-2"]) {
    it(`${model} embeds 3 texts into 3 vectors, one request per text`, async () => {
      const { srv, key } = await start();
      const vectors = await createVertexEmbedder({ model, serviceAccount: key, location: LOCATION, baseURL: srv.url, policy: policy() }).embed(["yes", "maybe", "no"]);
      expect(vectors).toHaveLength(3);
      expect(new Set(vectors.map((v) => v[0])).size).toBe(3);
      expect(srv.requests.filter((r) => r.path !== "/token")).toHaveLength(3);
    });
  }

  it("reports a key the token endpoint refuses as a credentials misconfiguration", async () => {
    const { srv, key } = await start();
    const other = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" }).toString();
    const err = await createVertexGenerator({ model: "gemini-2.5-flash", serviceAccount: { ...key, private_key: other }, location: LOCATION, baseURL: srv.url, policy: policy() })
      .generate(request)
      .catch((e: unknown) => e);
    expect(isModelError(err) && err.misconfiguration?.cause).toBe("credentials");
    expect(srv.refusals).toHaveLength(1);
    expect(srv.refusals[0]!.rule).toMatch(/signed by the service account/);
    srv.refusals.length = 0;
  });
});
