import { generateKeyPairSync } from "node:crypto";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { createBedrockGenerator } from "../src/adapters/bedrock.ts";
import { createVertexGenerator } from "../src/adapters/vertex.ts";
import { createAnthropicGenerator, createCallPolicy, createGeminiGenerator, createOpenAICompatibleGenerator, createSimGenerator, type GenerateRequest, type Generator } from "../src/index.ts";
import { startStrictAnthropic } from "./support/strict/anthropic.ts";
import { AZURE_FAKE_KEY, startStrictAzure } from "./support/strict/azure.ts";
import { startStrictBedrock } from "./support/strict/bedrock.ts";
import { startStrictGemini } from "./support/strict/gemini.ts";
import { startStrictOllama } from "./support/strict/ollama.ts";
import { validateChatCompletionRequest } from "./support/strict/openapi-validator.ts";
import { OPENAI_FAKE_KEY, openaiChatCompletion, startStrictOpenAI } from "./support/strict/openai.ts";
import { OPENROUTER_FAKE_KEY, startStrictOpenRouter } from "./support/strict/openrouter.ts";
import type { ReportedModelOptions, StrictFake } from "./support/strict/strict-fake.ts";
import { startStrictVertex } from "./support/strict/vertex.ts";

/*
 * Where each provider's reply names the model that answered (the installed SDKs' types):
 * - OpenAI, Azure OpenAI, OpenRouter, Ollama: `ChatCompletion.model` ("The model used for the
 *   chat completion."), node_modules/openai/resources/chat/completions/completions.d.ts.
 * - Anthropic: `Message.model`, node_modules/@anthropic-ai/sdk/resources/messages/messages.d.ts.
 * - Gemini API and Vertex AI: `GenerateContentResponse.modelVersion` ("Output only. The model
 *   version used to generate the response."), node_modules/@google/genai/dist/genai.d.ts.
 * - Bedrock: `ConverseResponse` (node_modules/@aws-sdk/client-bedrock-runtime/dist-types/models/models_0.d.ts)
 *   has output, stopReason, usage, metrics, additionalModelResponseFields, trace,
 *   performanceConfig and serviceTier: no model. Only a prompt router's trace names one.
 */

const request: GenerateRequest = { system: "You are Dana.", user: "Would you buy this?", images: [] };
const policy = () => createCallPolicy({ timeoutMs: 20_000, maxRetries: 0, baseDelayMs: 5, maxDelayMs: 10 });
/** What a provider sends back for a dated snapshot of the model asked for. */
const dated = (requested: string) => `${requested}-2024-08-06`;
/** A provider reply we must not put on a receipt whole. */
const HUGE = "m".repeat(10_000);

type Body = Record<string, unknown>;

/** The value at a dotted path of a JSON body. */
function at(body: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((value, key) => (value !== null && typeof value === "object" ? (value as Body)[key] : undefined), body);
}

/**
 * `thinking` against the body the fake received: every `path=value` it states is in the body
 * at `root`, and nothing under `root`'s reasoning field is left unstated.
 */
function expectThinkingOnWire(thinking: string | null, body: unknown, root: string, field: string) {
  const sent = at(body, root ? `${root}.${field}` : field);
  if (thinking === null) {
    expect(sent).toBeUndefined();
    return;
  }
  expect(sent).toBeDefined();
  const stated = thinking.split(", ").map((pair) => pair.split("="));
  for (const [path, value] of stated) expect(String(at(body, root ? `${root}.${path}` : path!))).toBe(value);
  const leaves = typeof sent === "object" && sent !== null ? Object.keys(sent).map((k) => `${field}.${k}`) : [field];
  expect(stated.map(([path]) => path).sort()).toEqual(leaves.sort());
}

// The OpenAI fakes compile OpenAI's OpenAPI document on first use, which takes seconds: done
// here, so no call waits on it.
beforeAll(() => {
  validateChatCompletionRequest({});
});

let fake: StrictFake | undefined;
afterEach(async () => {
  const refusals = fake?.refusals.map((r) => r.rule) ?? [];
  await fake?.close();
  fake = undefined;
  // A fake's refusal would mean the body we compared thinking with is not one the provider takes.
  expect(refusals).toEqual([]);
});

/** One provider under test: a fake that reports `reportedModel`, and a generator on it. */
interface Case {
  name: string;
  /** The configured model (on Azure, the deployment). */
  model: string;
  start(options: ReportedModelOptions): Promise<StrictFake>;
  generator(fake: StrictFake): Generator;
  /** The model the provider would be asked for, as the fake sees it (Azure: the deployment's model). */
  requested: string;
}

const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const VERTEX = { project: "adrank-test", location: "europe-west4", clientEmail: "adrank@adrank-test.iam.gserviceaccount.com" };
const vertexKey = (tokenUri: string) => ({ client_email: VERTEX.clientEmail, private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(), project_id: VERTEX.project, token_uri: tokenUri });

const cases: Case[] = [
  {
    name: "OpenAI",
    model: "gpt-4o",
    requested: "gpt-4o",
    start: (o) => startStrictOpenAI(o),
    generator: (f) => createOpenAICompatibleGenerator({ model: "gpt-4o", apiKey: OPENAI_FAKE_KEY, baseURL: f.url, policy: policy() }),
  },
  {
    name: "Azure OpenAI",
    model: "ranker",
    requested: "gpt-4o",
    start: (o) => startStrictAzure({ ...o, deployments: { ranker: "gpt-4o" } }),
    generator: (f) => createOpenAICompatibleGenerator({ model: "ranker", rulesModel: "gpt-4o", flavor: "azure", apiKey: AZURE_FAKE_KEY, baseURL: f.url, policy: policy() }),
  },
  {
    name: "OpenRouter",
    model: "openai/gpt-4.1",
    requested: "openai/gpt-4.1",
    start: (o) => startStrictOpenRouter(o),
    generator: (f) => createOpenAICompatibleGenerator({ model: "openai/gpt-4.1", flavor: "openrouter", apiKey: OPENROUTER_FAKE_KEY, baseURL: f.url, policy: policy() }),
  },
  {
    name: "Ollama",
    model: "llava",
    requested: "llava",
    start: (o) => startStrictOllama(o),
    generator: (f) => createOpenAICompatibleGenerator({ model: "llava", flavor: "ollama", baseURL: f.url, policy: policy() }),
  },
  {
    name: "Anthropic",
    model: "claude-haiku-4-5",
    requested: "claude-haiku-4-5",
    start: (o) => startStrictAnthropic(o),
    generator: (f) => createAnthropicGenerator({ model: "claude-haiku-4-5", apiKey: "sk-ant-test-0123456789", baseURL: f.url, policy: policy() }),
  },
  {
    name: "Gemini",
    model: "gemini-2.5-flash",
    requested: "gemini-2.5-flash",
    start: (o) => startStrictGemini(o),
    generator: (f) => createGeminiGenerator({ model: "gemini-2.5-flash", apiKey: "AIza-test-0123456789", baseURL: f.url, policy: policy() }),
  },
  {
    name: "Vertex AI",
    model: "gemini-2.5-flash",
    requested: "gemini-2.5-flash",
    start: (o) => startStrictVertex({ ...o, ...VERTEX, publicKey }),
    generator: (f) =>
      createVertexGenerator({ model: "gemini-2.5-flash", serviceAccount: vertexKey(`${f.url}/token`), location: VERTEX.location, baseURL: f.url, policy: policy() }),
  },
];

describe("modelVersion: the exact model the provider reported answering with", () => {
  for (const c of cases) {
    it(`${c.name}: is the version the reply names, not the configured ${c.model}`, async () => {
      const asked: string[] = [];
      fake = await c.start({
        reportedModel: (requested) => {
          asked.push(requested);
          return dated(requested);
        },
      });
      const result = await c.generator(fake).generate(request);
      expect(asked).toEqual([c.requested]);
      expect(result.modelVersion).toBe(dated(c.requested));
      expect(result.model).toBe(c.model);
    });

    it(`${c.name}: drops a reported version of 10,000 characters`, async () => {
      fake = await c.start({ reportedModel: () => HUGE });
      const result = await c.generator(fake).generate(request);
      expect(result.text).not.toBe("");
      expect(result).not.toHaveProperty("modelVersion");
    });

    it(`${c.name}: strips control and bidi characters from the reported version`, async () => {
      fake = await c.start({ reportedModel: (requested) => `\u202e${requested}\u0000-2024\n-08-06\u001b[0m ` });
      const result = await c.generator(fake).generate(request);
      expect(result.modelVersion).toBe(`${c.requested}-2024-08-06[0m`);
    });
  }

  it("OpenAI: is the version of the reply that answered, not of an earlier empty one", async () => {
    fake = await startStrictOpenAI({
      reportedModel: dated,
      // The first attempt comes back empty from another snapshot; the adapter asks again.
      reply: (_req, index) => (index === 0 ? { status: 200, body: openaiChatCompletion("", "gpt-4o-2024-05-13") } : undefined),
    });
    const result = await cases[0]!.generator(fake).generate(request);
    expect(fake.requests).toHaveLength(2);
    expect(result.modelVersion).toBe("gpt-4o-2024-08-06");
  });

  it("Bedrock: is absent, since Converse names no model", async () => {
    const credentials = { accessKeyId: "AKIATESTBEDROCK0001", secretAccessKey: "bedrock/test/secret+key0123456789abcdefXY" };
    fake = await startStrictBedrock({ ...credentials, region: "eu-central-1" });
    const model = "eu.anthropic.claude-sonnet-4-5-20250929-v1:0";
    const result = await createBedrockGenerator({ model, region: "eu-central-1", credentials, endpoint: fake.url, policy: policy() }).generate(request);
    expect(result.text).toBe("I would buy it.");
    expect(result).not.toHaveProperty("modelVersion");
  });

  it("sim: is the sim model's own name, since the sim is that exact version", async () => {
    const gen = createSimGenerator({ model: "sim-gen-b" });
    const result = await gen.generate({ ...request, images: [] });
    expect(result.modelVersion).toBe("sim-gen-b");
    expect(gen.thinking).toBeNull();
  });
});

describe("thinking: the reasoning control every call sends, as the body carries it", () => {
  const bedrockCredentials = { accessKeyId: "AKIATESTBEDROCK0001", secretAccessKey: "bedrock/test/secret+key0123456789abcdefXY" };
  const wire: Array<{ name: string; expected: string | null; root: string; field: string; run: () => Promise<{ gen: Generator; fake: StrictFake }> }> = [
    {
      name: "OpenAI gpt-5-mini with effort low",
      expected: "reasoning_effort=low",
      root: "",
      field: "reasoning_effort",
      run: async () => {
        const f = await startStrictOpenAI();
        return { fake: f, gen: createOpenAICompatibleGenerator({ model: "gpt-5-mini", apiKey: OPENAI_FAKE_KEY, baseURL: f.url, reasoningEffort: "low", policy: policy() }) };
      },
    },
    {
      name: "OpenAI gpt-4o, which does not reason, with effort low configured",
      expected: null,
      root: "",
      field: "reasoning_effort",
      run: async () => {
        const f = await startStrictOpenAI();
        return { fake: f, gen: createOpenAICompatibleGenerator({ model: "gpt-4o", apiKey: OPENAI_FAKE_KEY, baseURL: f.url, reasoningEffort: "low", policy: policy() }) };
      },
    },
    {
      name: "Azure deployment of o4-mini with effort medium",
      expected: "reasoning_effort=medium",
      root: "",
      field: "reasoning_effort",
      run: async () => {
        const f = await startStrictAzure({ deployments: { thinker: "o4-mini" } });
        return { fake: f, gen: createOpenAICompatibleGenerator({ model: "thinker", rulesModel: "o4-mini", flavor: "azure", apiKey: AZURE_FAKE_KEY, baseURL: f.url, reasoningEffort: "medium", policy: policy() }) };
      },
    },
    {
      name: "OpenRouter openai/gpt-5-mini with effort low",
      expected: "reasoning.effort=low",
      root: "",
      field: "reasoning",
      run: async () => {
        const f = await startStrictOpenRouter();
        return { fake: f, gen: createOpenAICompatibleGenerator({ model: "openai/gpt-5-mini", flavor: "openrouter", apiKey: OPENROUTER_FAKE_KEY, baseURL: f.url, reasoningEffort: "low", policy: policy() }) };
      },
    },
    {
      name: "Ollama llava, which does not think, with effort high configured",
      expected: null,
      root: "",
      field: "reasoning_effort",
      run: async () => {
        const f = await startStrictOllama();
        return { fake: f, gen: createOpenAICompatibleGenerator({ model: "llava:13b", flavor: "ollama", baseURL: f.url, reasoningEffort: "high", policy: policy() }) };
      },
    },
    {
      name: "Anthropic claude-haiku-4-5 with a 2048-token budget",
      expected: "thinking.type=enabled, thinking.budget_tokens=2048",
      root: "",
      field: "thinking",
      run: async () => {
        const f = await startStrictAnthropic();
        return { fake: f, gen: createAnthropicGenerator({ model: "claude-haiku-4-5", apiKey: "sk-ant-test-0123456789", baseURL: f.url, thinkingBudget: 2048, policy: policy() }) };
      },
    },
    {
      name: "Anthropic claude-haiku-4-5 without a budget",
      expected: null,
      root: "",
      field: "thinking",
      run: async () => {
        const f = await startStrictAnthropic();
        return { fake: f, gen: createAnthropicGenerator({ model: "claude-haiku-4-5", apiKey: "sk-ant-test-0123456789", baseURL: f.url, policy: policy() }) };
      },
    },
    {
      name: "Anthropic claude-opus-4-7, which takes only adaptive thinking, with a 2048-token budget",
      expected: "thinking.type=adaptive",
      root: "",
      field: "thinking",
      run: async () => {
        const f = await startStrictAnthropic();
        return { fake: f, gen: createAnthropicGenerator({ model: "claude-opus-4-7", apiKey: "sk-ant-test-0123456789", baseURL: f.url, thinkingBudget: 2048, policy: policy() }) };
      },
    },
    {
      name: "Anthropic claude-sonnet-5, which thinks unless turned off, without a budget",
      expected: "thinking.type=disabled",
      root: "",
      field: "thinking",
      run: async () => {
        const f = await startStrictAnthropic();
        return { fake: f, gen: createAnthropicGenerator({ model: "claude-sonnet-5", apiKey: "sk-ant-test-0123456789", baseURL: f.url, policy: policy() }) };
      },
    },
    {
      name: "Gemini 2.5 Flash with budget 0",
      expected: "thinkingConfig.thinkingBudget=0, thinkingConfig.includeThoughts=false",
      root: "generationConfig",
      field: "thinkingConfig",
      run: async () => {
        const f = await startStrictGemini();
        return { fake: f, gen: createGeminiGenerator({ model: "gemini-2.5-flash", apiKey: "AIza-test-0123456789", baseURL: f.url, thinkingBudget: 0, policy: policy() }) };
      },
    },
    {
      name: "Gemini 2.0 Flash, which does not think",
      expected: null,
      root: "generationConfig",
      field: "thinkingConfig",
      run: async () => {
        const f = await startStrictGemini();
        return { fake: f, gen: createGeminiGenerator({ model: "gemini-2.0-flash", apiKey: "AIza-test-0123456789", baseURL: f.url, policy: policy() }) };
      },
    },
    {
      name: "Gemini 3 Flash preview, which takes a level, at the default budget",
      expected: "thinkingConfig.thinkingLevel=LOW, thinkingConfig.includeThoughts=false",
      root: "generationConfig",
      field: "thinkingConfig",
      run: async () => {
        const f = await startStrictGemini();
        return { fake: f, gen: createGeminiGenerator({ model: "gemini-3-flash-preview", apiKey: "AIza-test-0123456789", baseURL: f.url, policy: policy() }) };
      },
    },
    {
      name: "Vertex gemini-2.5-flash at the default budget",
      expected: "thinkingConfig.thinkingBudget=512, thinkingConfig.includeThoughts=false",
      root: "generationConfig",
      field: "thinkingConfig",
      run: async () => {
        const f = await startStrictVertex({ ...VERTEX, publicKey });
        return { fake: f, gen: createVertexGenerator({ model: "gemini-2.5-flash", serviceAccount: vertexKey(f.tokenUri), location: VERTEX.location, baseURL: f.url, policy: policy() }) };
      },
    },
    {
      name: "Bedrock Claude Sonnet 4.5 with a 2048-token budget",
      expected: "thinking.type=enabled, thinking.budget_tokens=2048",
      root: "additionalModelRequestFields",
      field: "thinking",
      run: async () => {
        const f = await startStrictBedrock({ ...bedrockCredentials, region: "eu-central-1" });
        return { fake: f, gen: createBedrockGenerator({ model: "eu.anthropic.claude-sonnet-4-5-20250929-v1:0", region: "eu-central-1", credentials: bedrockCredentials, endpoint: f.url, thinkingBudget: 2048, policy: policy() }) };
      },
    },
    {
      name: "Bedrock Nova Pro, which takes no thinking",
      expected: null,
      root: "additionalModelRequestFields",
      field: "thinking",
      run: async () => {
        const f = await startStrictBedrock({ ...bedrockCredentials, region: "eu-central-1" });
        return { fake: f, gen: createBedrockGenerator({ model: "amazon.nova-pro-v1:0", region: "eu-central-1", credentials: bedrockCredentials, endpoint: f.url, policy: policy() }) };
      },
    },
  ];

  for (const w of wire) {
    it(`${w.name}: ${w.expected ?? "null"}, and the body agrees`, async () => {
      const { gen, fake: started } = await w.run();
      fake = started;
      expect(gen.thinking).toBe(w.expected);
      await gen.generate(request);
      // Vertex's first request is the token exchange; the generate call is the last one.
      expectThinkingOnWire(gen.thinking, fake.requests.at(-1)!.body, w.root, w.field);
    });
  }
});
