import { describe, expect, it } from "vitest";
import { createHash } from "node:crypto";
import { createSimEmbedder, createSimGenerator } from "@adrank/models";
import { anchorSets } from "@adrank/ssr";
import { Evaluation, type ScoreJob } from "@adrank/bus-contracts";
import { createAnchorEmbeddings } from "../src/anchor-embeddings.ts";
import { createScoreHandler } from "../src/score-handler.ts";
import { scorerMethodKey } from "../src/scorer-method-key.ts";
import { crispCreative } from "./images.ts";

const embedder = createSimEmbedder();
const generators = [createSimGenerator({ model: "sim-gen-a" }), createSimGenerator({ model: "sim-gen-b" })] as const;

describe("the scorer's method key", () => {
  it("is the same for the same models and changes with the model set, their order, the embedder and the similarity limit", () => {
    const key = scorerMethodKey({ generators, embedder, similarityLimit: 0.65 });
    expect(scorerMethodKey({ generators: [createSimGenerator({ model: "sim-gen-a" }), createSimGenerator({ model: "sim-gen-b" })], embedder: createSimEmbedder(), similarityLimit: 0.65 })).toBe(key);
    const others = [
      scorerMethodKey({ generators: [generators[0], createSimGenerator({ model: "sim-gen-c" })], embedder, similarityLimit: 0.65 }),
      scorerMethodKey({ generators: [generators[1], generators[0]], embedder, similarityLimit: 0.65 }),
      scorerMethodKey({ generators, embedder: createSimEmbedder("sim-embed-2"), similarityLimit: 0.65 }),
      scorerMethodKey({ generators, embedder, similarityLimit: 0.7 }),
      scorerMethodKey({ generators: [{ ...generators[0], provider: "sim", model: "sim-gen-a", temperature: 0.3, thinking: null }, generators[1]], embedder, similarityLimit: 0.65 }),
    ];
    expect(new Set([key, ...others]).size).toBe(6);
  });

  it("is carried by every evaluation the score handler answers", async () => {
    const bytes = await crispCreative();
    const job: ScoreJob = {
      requestId: "5d0c7b1e-8f0a-4c1e-9a57-0f3b7e1c2d44",
      jobId: "j-key",
      deadline: Date.now() + 60_000,
      layer: "image-only",
      image: { ref: createHash("sha256").update(bytes).digest("hex"), mime: "image/jpeg", width: 800, height: 800 },
      copy: null,
      persona: { audience: { name: "Trail runners", demographics: {} }, goal: "purchase-intent", assetType: "Social Media Post", platform: null, campaignType: null },
    };
    const methodKey = scorerMethodKey({ generators, embedder, similarityLimit: 0.65 });
    const deps = { generators, embedder, anchors: createAnchorEmbeddings(embedder, anchorSets), loadImage: async () => bytes, methodKey };
    const outcome = await createScoreHandler(deps)(job, { signal: AbortSignal.timeout(10_000) } as never);
    expect(outcome.ok).toBe(true);
    expect(outcome.ok && Evaluation.parse(outcome.evaluation).methodKey).toBe(methodKey);
  });
});
