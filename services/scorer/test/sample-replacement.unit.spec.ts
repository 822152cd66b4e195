import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { createSimEmbedder, createSimGenerator, ModelError, type Generator, type ModelErrorKind } from "@adrank/models";
import { anchorSets } from "@adrank/ssr";
import type { ScoreJob } from "@adrank/bus-contracts";
import { createAnchorEmbeddings } from "../src/anchor-embeddings.ts";
import { evaluate } from "../src/evaluate.ts";
import { createScoreHandler } from "../src/score-handler.ts";
import { crispCreative } from "./images.ts";

const embedder = createSimEmbedder();

/** A sim generator whose calls for one repetition fail `times` times with `kind` before answering. */
function failingFor(model: string, repetition: number, times: number, kind: ModelErrorKind) {
  const inner = createSimGenerator({ model });
  let failures = 0;
  let calls = 0;
  const generator: Generator = {
    ...inner,
    async generate(req) {
      calls++;
      if (req.simHints?.repetition === repetition && failures < times) {
        failures++;
        throw new ModelError({ kind, provider: "fake", model, message: `call to fake model ${model} failed`, reason: "no text, the output limit was used up (finish reason length)", usage: { inputTokens: 800, outputTokens: 1024 } });
      }
      return inner.generate(req);
    },
  };
  return { generator, calls: () => calls };
}

async function run(generators: [Generator, Generator]) {
  const bytes = await crispCreative();
  const ref = createHash("sha256").update(bytes).digest("hex");
  const job: ScoreJob = {
    requestId: "5d0c7b1e-8f0a-4c1e-9a57-0f3b7e1c2d44",
    jobId: "j-replace",
    deadline: Date.now() + 60_000,
    layer: "image-only",
    image: { ref, mime: "image/jpeg", width: 800, height: 800 },
    copy: null,
    persona: { audience: { name: "Trail runners", demographics: {} }, goal: "purchase-intent", assetType: "Social Media Post", platform: null, campaignType: null },
  };
  const replaced: unknown[] = [];
  const deps = { generators, embedder, anchors: createAnchorEmbeddings(embedder, anchorSets), loadImage: async () => bytes, onSampleReplaced: (err: unknown) => replaced.push(err) };
  return { job, deps, replaced };
}

describe("a generator sample that fails", () => {
  it("is replaced by one fresh call, and the evaluation scores as if nothing happened", async () => {
    const flaky = failingFor("sim-gen-a", 1, 1, "bad_response");
    const { job, deps, replaced } = await run([flaky.generator, createSimGenerator({ model: "sim-gen-b" })]);
    const clean = await run([createSimGenerator({ model: "sim-gen-a" }), createSimGenerator({ model: "sim-gen-b" })]);
    const evaluation = await evaluate(job, deps, AbortSignal.timeout(10_000));
    expect(flaky.calls()).toBe(4); // 3 samples of generator a, one of them twice
    expect(replaced).toHaveLength(1);
    expect(evaluation.score).toBe((await evaluate(clean.job, clean.deps, AbortSignal.timeout(10_000))).score);
    // The failed call is counted with the tokens its provider billed for it.
    expect(evaluation.usage).toEqual([
      { model: "sim:sim-gen-a", calls: 3, inputTokens: 0, outputTokens: 0 },
      { model: "sim:sim-gen-b", calls: 3, inputTokens: 0, outputTokens: 0 },
      { model: "fake:sim-gen-a", calls: 1, inputTokens: 800, outputTokens: 1024 },
      { model: "sim:sim-embed", calls: 1, inputTokens: 0, outputTokens: 0 },
    ]);
  });

  it("twice fails the asset with a sentence that names the provider's reason", async () => {
    const broken = failingFor("sim-gen-a", 2, 2, "bad_response");
    const { job, deps } = await run([broken.generator, createSimGenerator({ model: "sim-gen-b" })]);
    const outcome = await createScoreHandler(deps)(job, { signal: AbortSignal.timeout(10_000) } as never);
    expect(outcome.ok).toBe(false);
    expect(!outcome.ok && outcome.error).toBe("The scoring model (fake) returned an answer that could not be used: no text, the output limit was used up (finish reason length).");
    expect(broken.calls()).toBe(4);
  });

  it.each([
    // A misconfiguration would fail alike; the customer learns only that the configuration failed.
    ["misconfigured", /The service's model configuration failed \(scoring model, fake\)/],
    ["refused", /refused this image or text/],
    // Already retried by the provider's call policy: a second round would only outlive the request.
    ["timeout", /did not answer in time/],
  ] as const)("is not asked again when a fresh call cannot help (%s)", async (kind, sentence) => {
    const refused = failingFor("sim-gen-a", 0, 5, kind);
    const { job, deps, replaced } = await run([refused.generator, createSimGenerator({ model: "sim-gen-b" })]);
    const outcome = await createScoreHandler(deps)(job, { signal: AbortSignal.timeout(10_000) } as never);
    expect(!outcome.ok && outcome.error).toMatch(sentence);
    expect(replaced).toHaveLength(0);
    expect(refused.calls()).toBe(3);
  });
});
