import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { call, rank, type HttpResult } from "../support/http.ts";
import { missingServices, REPO_ROOT } from "../support/paths.ts";
import { pngDataUri } from "../support/png.ts";
import { startStack, type Stack } from "../support/stack.ts";
import type { ServiceProcess } from "../support/service-process.ts";
// The strict provider fakes of the models package: each refuses what the real API refuses
// (each rule cites the provider's own specification), so a request that passes here would
// pass there. Reused rather than copied.
import type { ModelCall, StrictFake } from "../../packages/models/test/support/strict/strict-fake.ts";
import { startStrictOpenAI } from "../../packages/models/test/support/strict/openai.ts";
import { startStrictAnthropic } from "../../packages/models/test/support/strict/anthropic.ts";
import { startStrictGemini } from "../../packages/models/test/support/strict/gemini.ts";
import { startStrictVertex } from "../../packages/models/test/support/strict/vertex.ts";
import { startStrictBedrock } from "../../packages/models/test/support/strict/bedrock.ts";
import { startStrictAzure } from "../../packages/models/test/support/strict/azure.ts";
import { startStrictOpenRouter } from "../../packages/models/test/support/strict/openrouter.ts";
import { startStrictOllama } from "../../packages/models/test/support/strict/ollama.ts";

// Every supported model family, in every role it can fill (generator, voter, embedder), makes
// a real rank of the three example creatives and a real pairwise comparison through the
// running stack: gateway, ledger, scorer and panel-voter as processes, each model answering
// from a strict local fake of its provider. The scorer and voter start with
// ADRANK_MODELS_CHECK_AT_START=true, so they become ready only after the preflight check's
// real calls succeeded too. No fake may refuse a single request.

const missing = missingServices(["gateway", "ledger", "scorer", "panel-voter"]);

const audience = { name: "Trail runners", demographics: { ageRange: "25-34" } };
const exampleAds = ["autumn-promo.png", "spring-sale.png", "summer-launch.png"].map((file) => pngDataUri(readFileSync(join(REPO_ROOT, "examples/ads", file))));
const copy = JSON.parse(readFileSync(join(REPO_ROOT, "examples/copy.json"), "utf8")) as { headline: string; body: string };

/** A persona's answer for one image, a verdict for two: what the scorer and the voter parse. */
const respond = (call: ModelCall): string =>
  call.images === 2
    ? "The first one stops me: a clear product and a bold colour.\nWINNER: 1"
    : "I would probably stop scrolling for this one and take a closer look.\nRATIONALE: The bold colours and the clear offer.\nPRODUCT: Running shoes on sale.";

const KEYS = { openai: "sk-e2e-openai-0123", anthropic: "sk-ant-e2e-0123", gemini: "AIza-e2e-0123", azure: "azure-e2e-0123", openrouter: "sk-or-v1-e2e", awsKeyId: "AKIDEXAMPLE", awsSecret: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY" };
const VERTEX = { project: "adrank-e2e", location: "europe-west4", clientEmail: "adrank@adrank-e2e.iam.gserviceaccount.com" };

interface Fakes {
  openai: StrictFake;
  anthropic: StrictFake;
  gemini: StrictFake;
  vertex: StrictFake & { tokenUri: string };
  bedrock: StrictFake;
  azure: StrictFake;
  openrouter: StrictFake;
  ollama: StrictFake;
}

describe.skipIf(missing.length > 0)("every supported model family ranks and compares through the running stack, against strict provider fakes", () => {
  let stack: Stack;
  let fakes: Fakes;
  let dir: string;
  let providerEnv: Record<string, string>;
  let running: ServiceProcess[] = [];

  beforeAll(async () => {
    const { privateKey, publicKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const [openai, anthropic, gemini, vertex, bedrock, azure, openrouter, ollama] = await Promise.all([
      startStrictOpenAI({ apiKey: KEYS.openai, respond }),
      startStrictAnthropic({ apiKey: KEYS.anthropic, respond }),
      startStrictGemini({ apiKey: KEYS.gemini, respond }),
      startStrictVertex({ publicKey, clientEmail: VERTEX.clientEmail, project: VERTEX.project, location: VERTEX.location, respond }),
      startStrictBedrock({ accessKeyId: KEYS.awsKeyId, secretAccessKey: KEYS.awsSecret, region: "eu-central-1", respond }),
      startStrictAzure({ apiKey: KEYS.azure, deployments: { ranker: "gpt-4.1", judge: "gpt-5-mini" }, respond }),
      startStrictOpenRouter({ apiKey: KEYS.openrouter, respond }),
      startStrictOllama({ respond }),
    ]);
    fakes = { openai, anthropic, gemini, vertex, bedrock, azure, openrouter, ollama };
    dir = mkdtempSync(join(tmpdir(), "adrank-providers-"));
    const keyFile = join(dir, "vertex-sa.json");
    writeFileSync(keyFile, JSON.stringify({ type: "service_account", project_id: VERTEX.project, client_email: VERTEX.clientEmail, private_key: privateKey.export({ type: "pkcs8", format: "pem" }).toString(), token_uri: vertex.tokenUri }));
    providerEnv = {
      OPENAI_BASE_URL: openai.url,
      OPENAI_API_KEY: KEYS.openai,
      ANTHROPIC_BASE_URL: anthropic.url,
      ANTHROPIC_API_KEY: KEYS.anthropic,
      GEMINI_BASE_URL: gemini.url,
      GEMINI_API_KEY: KEYS.gemini,
      ADRANK_PROVIDER_PROFILES: "azure-eu,aws,vertex-eu,router,local",
      ADRANK_PROFILE_AZURE_EU_KIND: "azure",
      ADRANK_PROFILE_AZURE_EU_BASE_URL: azure.url,
      ADRANK_PROFILE_AZURE_EU_API_KEY: KEYS.azure,
      ADRANK_PROFILE_AZURE_EU_DEPLOYMENT_MODELS: "ranker=gpt-4.1,judge=gpt-5-mini",
      ADRANK_PROFILE_AWS_KIND: "bedrock",
      ADRANK_PROFILE_AWS_REGION: "eu-central-1",
      ADRANK_PROFILE_AWS_ACCESS_KEY_ID: KEYS.awsKeyId,
      ADRANK_PROFILE_AWS_SECRET_ACCESS_KEY: KEYS.awsSecret,
      ADRANK_PROFILE_AWS_ENDPOINT: bedrock.url,
      ADRANK_PROFILE_VERTEX_EU_KIND: "vertex",
      ADRANK_PROFILE_VERTEX_EU_PROJECT: VERTEX.project,
      ADRANK_PROFILE_VERTEX_EU_LOCATION: VERTEX.location,
      ADRANK_PROFILE_VERTEX_EU_CREDENTIALS_FILE: keyFile,
      ADRANK_PROFILE_VERTEX_EU_BASE_URL: vertex.url,
      ADRANK_PROFILE_ROUTER_KIND: "openrouter",
      ADRANK_PROFILE_ROUTER_BASE_URL: openrouter.url,
      ADRANK_PROFILE_ROUTER_API_KEY: KEYS.openrouter,
      ADRANK_PROFILE_ROUTER_APP_TITLE: "adrank e2e",
      ADRANK_PROFILE_LOCAL_KIND: "ollama",
      ADRANK_PROFILE_LOCAL_BASE_URL: fakes.ollama.url,
      ADRANK_ALLOW_SIM: "false",
      ADRANK_MODELS_CHECK_AT_START: "true",
      MODEL_MAX_RETRIES: "0",
    };
    stack = await startStack({ scorerEnv: false, voterEnv: false, refinementEnv: false });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    await Promise.all(Object.values(fakes ?? {}).map((f: StrictFake) => f.close()));
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 60_000);

  afterEach(async () => {
    await Promise.all(running.map((p) => p.stop()));
    running = [];
  }, 30_000);

  const refusals = () => (Object.entries(fakes) as Array<[string, StrictFake]>).flatMap(([name, f]) => f.refusals.map((r) => `${name}: ${r.status} ${r.rule}`));
  const requestCount = () => Object.values(fakes).reduce((n, f) => n + f.requests.length, 0);

  /** Starts a scorer and a panel-voter on `models`; each is ready only once its start-up model check passed. */
  const startWorkers = async (models: Record<string, string>) => {
    const env = { ...providerEnv, ...models };
    const scorer = await stack.startReplica("scorer", env);
    running.push(scorer.process);
    const voter = await stack.startReplica("panel-voter", env);
    running.push(voter.process);
    return { scorer, voter };
  };

  const conforms = (res: HttpResult, what: string) => {
    expect(res.status, `${what}: ${JSON.stringify(res.body).slice(0, 600)}\n${stack.output().slice(-4_000)}`).toBe(200);
    return res;
  };

  const setups: Array<{ name: string; models: Record<string, string>; generators: string[]; embedder: string; voters: string[] }> = [
    {
      name: "OpenAI: gpt-4.1 and gpt-4o generate, text-embedding-3-small embeds, gpt-5, gpt-5-mini, o3 and o4-mini vote, one reasoning effort for all",
      models: { ADRANK_GENERATORS: "openai:gpt-4.1,openai:gpt-4o", ADRANK_EMBEDDER: "openai:text-embedding-3-small", ADRANK_VOTERS: "openai:gpt-5,openai:gpt-5-mini,openai:o3,openai:o4-mini", OPENAI_REASONING_EFFORT: "low" },
      generators: ["openai:gpt-4.1", "openai:gpt-4o"],
      embedder: "openai:text-embedding-3-small",
      voters: ["openai:gpt-5", "openai:gpt-5-mini", "openai:o3", "openai:o4-mini"],
    },
    {
      name: "OpenAI reasoning models generate at seat temperatures 0.5 and 1.0: gpt-5 and o4-mini; text-embedding-3-large; gpt-4.1 and gpt-4o vote",
      models: { ADRANK_GENERATORS: "openai:gpt-5,openai:o4-mini", ADRANK_EMBEDDER: "openai:text-embedding-3-large", ADRANK_VOTERS: "openai:gpt-4.1,openai:gpt-4o", OPENAI_REASONING_EFFORT: "medium" },
      generators: ["openai:gpt-5", "openai:o4-mini"],
      embedder: "openai:text-embedding-3-large",
      voters: ["openai:gpt-4.1", "openai:gpt-4o"],
    },
    {
      name: "OpenAI: gpt-5-mini and o3 generate with no reasoning effort configured",
      models: { ADRANK_GENERATORS: "openai:gpt-5-mini,openai:o3", ADRANK_EMBEDDER: "openai:text-embedding-3-small", ADRANK_VOTER: "openai:gpt-4.1-mini" },
      generators: ["openai:gpt-5-mini", "openai:o3"],
      embedder: "openai:text-embedding-3-small",
      voters: ["openai:gpt-4.1-mini"],
    },
    {
      name: "Anthropic with a thinking budget: Sonnet 4.5 and Haiku 4.5 generate, Opus 4.6, Opus 4.7 and Sonnet 4.6 vote",
      models: { ADRANK_GENERATORS: "anthropic:claude-sonnet-4-5,anthropic:claude-haiku-4-5", ADRANK_EMBEDDER: "openai:text-embedding-3-small", ADRANK_VOTERS: "anthropic:claude-opus-4-6,anthropic:claude-opus-4-7,anthropic:claude-sonnet-4-6", ANTHROPIC_THINKING_BUDGET: "2048" },
      generators: ["anthropic:claude-sonnet-4-5", "anthropic:claude-haiku-4-5"],
      embedder: "openai:text-embedding-3-small",
      voters: ["anthropic:claude-opus-4-6", "anthropic:claude-opus-4-7", "anthropic:claude-sonnet-4-6"],
    },
    {
      name: "Anthropic without thinking: Opus 4.7 and Opus 4.6 generate, Sonnet 4.5 (a dated id), Haiku 4.5 and Sonnet 4.6 vote",
      models: { ADRANK_GENERATORS: "anthropic:claude-opus-4-7,anthropic:claude-opus-4-6", ADRANK_EMBEDDER: "gemini:gemini-embedding-001", ADRANK_VOTERS: "anthropic:claude-sonnet-4-5-20250929,anthropic:claude-haiku-4-5,anthropic:claude-sonnet-4-6" },
      generators: ["anthropic:claude-opus-4-7", "anthropic:claude-opus-4-6"],
      embedder: "gemini:gemini-embedding-001",
      voters: ["anthropic:claude-sonnet-4-5-20250929", "anthropic:claude-haiku-4-5", "anthropic:claude-sonnet-4-6"],
    },
    {
      name: "Gemini: 2.0 Flash and 2.5 Flash generate, gemini-embedding-001 embeds, 2.5 Pro, 3 Pro and 3 Flash vote",
      models: { ADRANK_GENERATORS: "gemini:gemini-2.0-flash,gemini:gemini-2.5-flash", ADRANK_EMBEDDER: "gemini:gemini-embedding-001", ADRANK_VOTERS: "gemini:gemini-2.5-pro,gemini:gemini-3-pro-preview,gemini:gemini-3-flash-preview" },
      generators: ["gemini:gemini-2.0-flash", "gemini:gemini-2.5-flash"],
      embedder: "gemini:gemini-embedding-001",
      voters: ["gemini:gemini-2.5-pro", "gemini:gemini-3-pro-preview", "gemini:gemini-3-flash-preview"],
    },
    {
      name: "Gemini with thinking off where it can be: 2.5 Pro and 3 Pro generate, gemini-embedding-2 embeds, 2.0 Flash, 2.5 Flash-Lite and 3 Flash vote",
      models: { ADRANK_GENERATORS: "gemini:gemini-2.5-pro,gemini:gemini-3-pro-preview", ADRANK_EMBEDDER: "gemini:gemini-embedding-2", ADRANK_VOTERS: "gemini:gemini-2.0-flash,gemini:gemini-2.5-flash-lite,gemini:gemini-3-flash-preview", GEMINI_THINKING_BUDGET: "0" },
      generators: ["gemini:gemini-2.5-pro", "gemini:gemini-3-pro-preview"],
      embedder: "gemini:gemini-embedding-2",
      voters: ["gemini:gemini-2.0-flash", "gemini:gemini-2.5-flash-lite", "gemini:gemini-3-flash-preview"],
    },
    {
      name: "Gemini 3 Flash generates beside Claude Sonnet 4.6; a mixed panel of GPT, Claude and Gemini votes",
      models: { ADRANK_GENERATORS: "gemini:gemini-3-flash-preview,anthropic:claude-sonnet-4-6", ADRANK_EMBEDDER: "openai:text-embedding-3-small", ADRANK_VOTERS: "openai:gpt-5-mini,anthropic:claude-sonnet-4-5,gemini:gemini-2.5-flash" },
      generators: ["gemini:gemini-3-flash-preview", "anthropic:claude-sonnet-4-6"],
      embedder: "openai:text-embedding-3-small",
      voters: ["openai:gpt-5-mini", "anthropic:claude-sonnet-4-5", "gemini:gemini-2.5-flash"],
    },
    {
      name: "Ollama beside OpenAI, on a profile of its own: llava and qwen2.5-vl generate, nomic-embed-text embeds, llava, qwen2.5-vl, llama3.2-vision and gemma3 vote beside gpt-4o",
      models: { ADRANK_GENERATORS: "local:llava:13b,local:qwen2.5vl:7b", ADRANK_EMBEDDER: "local:nomic-embed-text:latest", ADRANK_VOTERS: "local:llava:13b,local:qwen2.5vl:7b,local:llama3.2-vision:11b,local:gemma3:12b,openai:gpt-4o" },
      generators: ["local:llava:13b", "local:qwen2.5vl:7b"],
      embedder: "local:nomic-embed-text:latest",
      voters: ["local:llava:13b", "local:qwen2.5vl:7b", "local:llama3.2-vision:11b", "local:gemma3:12b", "openai:gpt-4o"],
    },
    {
      name: "The clouds: an Azure deployment and Claude on Bedrock generate, Vertex embeds, OpenRouter, Vertex Gemini and Bedrock Nova vote",
      models: {
        ADRANK_GENERATORS: "azure-eu:ranker,aws:us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        ADRANK_EMBEDDER: "vertex-eu:gemini-embedding-001",
        ADRANK_VOTERS: "router:openai/gpt-5-mini,vertex-eu:gemini-2.5-flash,aws:us.amazon.nova-pro-v1:0",
      },
      generators: ["azure-eu:ranker", "aws:us.anthropic.claude-sonnet-4-5-20250929-v1:0"],
      embedder: "vertex-eu:gemini-embedding-001",
      voters: ["router:openai/gpt-5-mini", "vertex-eu:gemini-2.5-flash", "aws:us.amazon.nova-pro-v1:0"],
    },
    {
      name: "The clouds the other way round: Vertex Gemini and OpenRouter generate, Bedrock Titan embeds, an Azure gpt-5-mini deployment and Bedrock Claude Opus 4.7 vote",
      models: {
        ADRANK_GENERATORS: "vertex-eu:gemini-2.5-pro,router:openai/gpt-4.1",
        ADRANK_EMBEDDER: "aws:amazon.titan-embed-text-v2:0",
        ADRANK_VOTERS: "azure-eu:judge,aws:us.anthropic.claude-opus-4-7",
      },
      generators: ["vertex-eu:gemini-2.5-pro", "router:openai/gpt-4.1"],
      embedder: "aws:amazon.titan-embed-text-v2:0",
      voters: ["azure-eu:judge", "aws:us.anthropic.claude-opus-4-7"],
    },
  ];

  for (const setup of setups) {
    it(
      setup.name,
      async () => {
        const before = requestCount();
        await startWorkers(setup.models);
        const account = await stack.createAccount({ credits: 50 });

        const ranked = conforms(
          await rank(stack.baseUrl, account.key, {
            assets: exampleAds.map((url, i) => ({ url, id: `ad-${i + 1}`, ...(i === 0 ? { copy_context: { adHeadline: copy.headline, adBody: copy.body } } : {}) })),
            audience,
            goal: "scroll-stopping",
            refine_close_pairs: false,
          }),
          "rank",
        );
        expect(ranked.body.errors, JSON.stringify(ranked.body.errors)).toEqual([]);
        expect(ranked.body.ranked).toHaveLength(3);
        // The first ad has copy: a full-package evaluation plus its image-only ablation.
        expect(ranked.body.summary).toMatchObject({ assets_ranked: 3, scoring_evaluations: 4, credits_used: 4 });
        expect(ranked.body.summary.models).toEqual({ generators: setup.generators, embedder: setup.embedder, voters: [], simulated: false });

        const pairwise = conforms(
          await call(stack.baseUrl, "POST", "/api/v1/pairwise", { key: account.key, json: { pairs: [{ pair_id: "p1", a: { id: "autumn", image_url: exampleAds[0] }, b: { id: "spring", image_url: exampleAds[1] } }], audience, goal: "scroll-stopping" } }),
          "pairwise",
        );
        const [pair] = pairwise.body.pairs as Array<{ status: string; votes: Array<{ model: string; valid: boolean; winnerId: string }> }>;
        expect(pair!.status).toBe("done");
        expect(pair!.votes.every((v) => v.valid)).toBe(true);
        // Every panel model sat and voted.
        expect(new Set(pair!.votes.map((v) => v.model))).toEqual(new Set(setup.voters));

        expect(refusals()).toEqual([]);
        expect(requestCount()).toBeGreaterThan(before);
      },
      90_000,
    );
  }

  it("a wrong key is the operator's to fix: the customer sees that the model configuration failed, is not charged, and the scorer's /readyz names the variable", async () => {
    const env = { ...providerEnv, ADRANK_MODELS_CHECK_AT_START: "false", OPENAI_API_KEY: "sk-wrong-key-9876", ADRANK_GENERATORS: "openai:gpt-4.1,openai:gpt-4o", ADRANK_EMBEDDER: "openai:text-embedding-3-small", ADRANK_VOTER: "openai:gpt-4o" };
    const scorer = await stack.startReplica("scorer", env);
    running.push(scorer.process);
    const account = await stack.createAccount({ credits: 10 });
    const res = conforms(await rank(stack.baseUrl, account.key, { assets: [{ url: exampleAds[0], id: "ad" }], audience, refine_close_pairs: false }), "rank");
    expect(res.body.ranked).toEqual([]);
    expect(res.body.errors).toEqual([expect.objectContaining({ asset_id: "ad", error: "The service's model configuration failed (scoring model, openai); the operator has been told what to fix." })]);
    expect(res.body.summary).toMatchObject({ credits_used: 0, credits_remaining: 10 });
    expect(JSON.stringify(res.body)).not.toContain("sk-wrong-key");

    const ready = await fetch(`${scorer.baseUrl}/readyz`);
    expect(ready.status).toBe(503);
    const reason = await ready.text();
    expect(reason).toMatch(/model openai:gpt-4\.1 is misconfigured: openai refused the credentials for model gpt-4\.1 \(HTTP 401.*\): check OPENAI_API_KEY/);
    expect(reason).not.toContain("sk-wrong-key");
    expect(scorer.process.output()).toMatch(/a model is misconfigured/);
    expect(scorer.process.output()).not.toContain("sk-wrong-key");
    // These refusals were the point; the next test starts clean.
    for (const f of Object.values(fakes)) f.refusals.length = 0;
  }, 60_000);
});
