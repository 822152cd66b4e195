import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { createSimEmbedder, createSimGenerator, SIM_EMBEDDING_DIMENSIONS, withFixedLatency, type GenerateRequest, type Generator } from "@adrank/models";
import { anchorSets, METHOD_VERSION, planEvaluation } from "@adrank/ssr";
import type { ScoreJob } from "@adrank/bus-contracts";
import { createAnchorEmbeddings, referenceSetHash } from "../src/anchor-embeddings.ts";
import { evaluate, EvaluationError } from "../src/evaluate.ts";
import { crispCreative, darkBlurred, flatGrey, softCreative } from "./images.ts";

const embedder = createSimEmbedder();
const generators: [Generator, Generator] = [createSimGenerator({ model: "sim-gen-a" }), createSimGenerator({ model: "sim-gen-b" })];

async function jobFor(bytes: Uint8Array, layer: ScoreJob["layer"] = "image-only", copy: Record<string, string> | null = null) {
  const ref = createHash("sha256").update(bytes).digest("hex");
  const job: ScoreJob = {
    requestId: "5d0c7b1e-8f0a-4c1e-9a57-0f3b7e1c2d44",
    jobId: `j-${ref.slice(0, 8)}-${layer}`,
    deadline: Date.now() + 60_000,
    layer,
    image: { ref, mime: "image/jpeg", width: 800, height: 800 },
    copy,
    persona: { audience: { name: "Trail runners", demographics: {} }, goal: "purchase-intent", assetType: "Social Media Post", platform: "instagram", campaignType: null },
  };
  return { job, images: new Map([[ref, bytes]]) };
}

async function score(bytes: Uint8Array, layer: ScoreJob["layer"] = "image-only", copy: Record<string, string> | null = null) {
  const { job, images } = await jobFor(bytes, layer, copy);
  return evaluate(job, { generators, embedder, anchors: createAnchorEmbeddings(embedder, anchorSets), loadImage: async (ref) => images.get(ref) ?? null }, AbortSignal.timeout(30_000));
}

describe("evaluate with the offline sim models and the real anchors", () => {
  it("scores a crisp colourful creative clearly above a flat grey and a dark blurred one", async () => {
    const [good, grey, dark] = await Promise.all([crispCreative().then((b) => score(b)), flatGrey().then((b) => score(b)), darkBlurred().then((b) => score(b))]);
    expect(good.score).toBeGreaterThan(grey.score + 0.5);
    expect(good.score).toBeGreaterThan(dark.score + 0.5);
    // The aggregate's own rules (score range, repetitions, rationale) are ssr's: evaluation-result.unit.spec.ts.
    for (const e of [good, grey, dark]) {
      expect(e.simulated).toBe(true);
      expect(e.generatorModels).toEqual(["sim:sim-gen-a", "sim:sim-gen-b"]);
      expect(e.embeddingModel).toBe(`${embedder.provider}:${embedder.model}`);
    }
  });

  it("calls an evaluation simulated when only the embedder is the sim: it decides the score as much as the generators", async () => {
    const real = (g: Generator): Generator => ({ ...g, provider: "openai", generate: async (req) => ({ ...(await g.generate(req)), provider: "openai", simulated: false }) });
    const { job, images } = await jobFor(await crispCreative());
    const mixed = await evaluate(job, { generators: [real(generators[0]), real(generators[1])], embedder, anchors: createAnchorEmbeddings(embedder, anchorSets), loadImage: async (ref) => images.get(ref) ?? null }, AbortSignal.timeout(30_000));
    expect(mixed.generatorModels).toEqual(["openai:sim-gen-a", "openai:sim-gen-b"]);
    expect(mixed.simulated).toBe(true);
  });

  it("says on its receipt exactly what produced it: method, prompts, six reference sets, embedder, each seat's reported version", async () => {
    const { job, images } = await jobFor(await crispCreative());
    // A provider that reports a dated snapshot under the configured name, as OpenAI does.
    const dated = (g: Generator): Generator => ({ ...g, provider: "openai", temperature: 0.7, thinking: "reasoning_effort=low", generate: async (req) => ({ ...(await g.generate(req)), modelVersion: `${g.model}-2026-01-01` }) });
    const e = await evaluate(job, { generators: [dated(generators[0]), generators[1]], embedder, anchors: createAnchorEmbeddings(embedder, anchorSets), loadImage: async (ref) => images.get(ref) ?? null, similarityLimit: 0.5 }, AbortSignal.timeout(30_000));
    const receipt = e.receipt!;
    expect(receipt.methodVersion).toBe(METHOD_VERSION);
    expect(receipt.promptHash).toMatch(/^[0-9a-f]{16}$/);
    expect(receipt.referenceSets.map((s) => s.hash)).toEqual(anchorSets("purchase-intent").map(referenceSetHash));
    expect(receipt.referenceSets).toHaveLength(6);
    for (const set of receipt.referenceSets) expect(set.meanSimilarity).toBeLessThan(0.5);
    expect(receipt.similarityLimit).toBe(0.5);
    expect(receipt.embedder).toEqual({ model: "sim:sim-embed", dimensions: SIM_EMBEDDING_DIMENSIONS });
    expect(receipt.generators).toEqual([
      { model: "openai:sim-gen-a", versions: ["sim-gen-a-2026-01-01"], temperature: 0.7, thinking: "reasoning_effort=low" },
      { model: "sim:sim-gen-b", versions: ["sim-gen-b"], temperature: null, thinking: null },
    ]);
  });

  it("is deterministic for the same job", async () => {
    const bytes = await crispCreative();
    expect((await score(bytes)).score).toBe((await score(bytes)).score);
  });

  it("lets good copy lift a middling creative and withholds the copy from the ablation", async () => {
    const bytes = await softCreative();
    const good = { adHeadline: "Run further on lighter shoes", adBody: "Free returns for 60 days. Shop the spring range now." };
    const shouting = { adBody: "BUY NOW!!! CHEAP!!! LIMITED!!!" };
    const withGood = await score(bytes, "full-ad-package", good);
    const withShouting = await score(bytes, "full-ad-package", shouting);
    const ablation = await score(bytes, "image-only", good);
    const noCopy = await score(bytes, "image-only", null);
    expect(withGood.score).toBeGreaterThan(ablation.score);
    expect(withGood.score).toBeGreaterThan(withShouting.score);
    expect(ablation.score).toBe(noCopy.score);
  });

  it("asks each generator the calls ssr plans, with their prompts, and shows the image only where the layer does", async () => {
    const bytes = await crispCreative();
    const copy = { adHeadline: "Run further on lighter shoes", adBody: "Free returns for 60 days." };
    for (const layer of ["full-ad-package", "image-only", "copy-only"] as const) {
      const asked: Array<{ generator: number; request: GenerateRequest }> = [];
      const recording = generators.map(
        (g, generator): Generator => ({
          ...g,
          generate(request) {
            asked.push({ generator, request });
            return g.generate(request);
          },
        }),
      ) as [Generator, Generator];
      const loaded: string[] = [];
      const { job, images } = await jobFor(bytes, layer, copy);
      const loadImage = async (ref: string) => {
        loaded.push(ref);
        return images.get(ref) ?? null;
      };
      await evaluate(job, { generators: recording, embedder, anchors: createAnchorEmbeddings(embedder, anchorSets), loadImage }, AbortSignal.timeout(30_000));
      const plan = planEvaluation({ persona: job.persona, layer, copy });
      expect(asked.map(({ generator, request }) => ({ generator, system: request.system, user: request.user, hints: request.simHints }))).toEqual(
        plan.calls.map((call) => ({
          generator: call.generatorIndex,
          system: call.prompt.system,
          user: call.prompt.user,
          hints: { task: "rate", goal: job.persona.goal, assetType: job.persona.assetType, platform: job.persona.platform, copy: plan.copy, demographics: job.persona.audience.demographics, repetition: call.repetition, generatorIndex: call.generatorIndex },
        })),
      );
      expect(loaded).toEqual(plan.showsImage ? [job.image.ref] : []);
      for (const { request } of asked) expect(request.images).toEqual(plan.showsImage ? [{ bytes, mime: job.image.mime }] : []);
    }
  });

  it("reports an expired image as a sentence the user can act on", async () => {
    const { job } = await jobFor(await flatGrey());
    await expect(
      evaluate(job, { generators, embedder, anchors: createAnchorEmbeddings(embedder, anchorSets), loadImage: async () => null }, AbortSignal.timeout(5_000)),
    ).rejects.toThrow(EvaluationError);
  });

  it("starts no model call once its signal has aborted (a cancelled run): none at all when aborted before, no embedding when aborted mid-samples", async () => {
    const calls = { generate: 0, embed: 0 };
    const counting = generators.map((g): Generator => {
      const slow = withFixedLatency(g, 300);
      return { ...slow, generate: (req) => (calls.generate++, slow.generate(req)) };
    }) as [Generator, Generator];
    const countingEmbedder = { ...embedder, embed: (texts: string[], signal?: AbortSignal) => (calls.embed++, embedder.embed(texts, signal)) };
    const { job, images } = await jobFor(await crispCreative());
    const deps = { generators: counting, embedder: countingEmbedder, anchors: createAnchorEmbeddings(embedder, anchorSets), loadImage: async (ref: string) => images.get(ref) ?? null };

    await expect(evaluate(job, deps, AbortSignal.abort(new Error("run cancelled")))).rejects.toThrow("run cancelled");
    expect(calls).toEqual({ generate: 0, embed: 0 });

    const cancel = new AbortController();
    setTimeout(() => cancel.abort(new Error("run cancelled")), 50);
    await expect(evaluate(job, deps, cancel.signal)).rejects.toThrow();
    // The samples under way when the cancel came are aborted; nothing is started after them.
    expect(calls).toEqual({ generate: planEvaluation({ persona: job.persona, layer: job.layer, copy: job.copy }).calls.length, embed: 0 });
  });

  it("runs the six generator samples concurrently", async () => {
    const slow: [Generator, Generator] = [withFixedLatency(generators[0], 200), withFixedLatency(generators[1], 200)];
    const { job, images } = await jobFor(await crispCreative());
    const started = performance.now();
    await evaluate(job, { generators: slow, embedder, anchors: createAnchorEmbeddings(embedder, anchorSets), loadImage: async (ref) => images.get(ref) ?? null }, AbortSignal.timeout(10_000));
    const elapsed = performance.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(195);
    expect(elapsed).toBeLessThan(1_000); // six sequential calls would take 1,200 ms
  });
});
