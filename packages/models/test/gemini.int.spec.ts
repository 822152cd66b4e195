import { expect } from "vitest";
import { createGeminiEmbedder, createGeminiGenerator } from "../src/index.ts";
import { describeAdapterContract } from "./support/adapter-contract.ts";

type Part = { text?: string; inlineData?: { mimeType: string; data: string } };
type GenerateBody = { contents: Array<{ role: string; parts: Part[] }>; systemInstruction?: { parts: Part[] }; generationConfig?: Record<string, unknown> };

const MODEL = "gemini-2.5-flash";
const EMBED_MODEL = "gemini-embedding-001";
const KEY = "AIza-test-0123456789";

const statusName: Record<number, string> = { 400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 403: "PERMISSION_DENIED", 404: "NOT_FOUND", 429: "RESOURCE_EXHAUSTED", 500: "INTERNAL", 503: "UNAVAILABLE" };

describeAdapterContract({
  provider: "gemini",
  model: MODEL,
  apiKey: KEY,
  generatePath: `/v1/models/${MODEL}:generateContent`,
  credentialOf: (h) => h["x-goog-api-key"] as string | undefined,
  // Gemini carries the model in the path, asserted there.
  modelOf: () => undefined,
  imagesOf: (b) =>
    (b as GenerateBody).contents[0]!.parts.flatMap((p) => (p.inlineData ? [{ mime: p.inlineData.mimeType, data: p.inlineData.data }] : [])),
  textsOf: (b) => ({ system: (b as GenerateBody).systemInstruction!.parts.map((p) => p.text).join(""), user: (b as GenerateBody).contents[0]!.parts.at(-1)!.text! }),
  okGenerate: (text) => ({
    candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP", index: 0 }],
    usageMetadata: { promptTokenCount: 700, candidatesTokenCount: 30, totalTokenCount: 730 },
    modelVersion: MODEL,
  }),
  errorBody: (status) => ({ error: { code: status, message: `upstream said ${status}`, status: statusName[status] ?? "UNKNOWN" } }),
  makeGenerator: (url, policy) => createGeminiGenerator({ model: MODEL, apiKey: KEY, baseURL: url, policy }),
  embedding: {
    path: `/v1/models/${EMBED_MODEL}:batchEmbedContents`,
    inputsOf: (b) =>
      (b as { requests: Array<{ model: string; taskType?: string; content: { parts: Part[] } }> }).requests.map((r) => {
        expect(r.model).toBe(`models/${EMBED_MODEL}`);
        expect(r.taskType).toBe("SEMANTIC_SIMILARITY");
        return r.content.parts.map((p) => p.text).join("");
      }),
    ok: (vectors) => ({ embeddings: vectors.map((values) => ({ values })) }),
    makeEmbedder: (url, policy) => createGeminiEmbedder({ model: EMBED_MODEL, apiKey: KEY, baseURL: url, policy }),
  },
});
