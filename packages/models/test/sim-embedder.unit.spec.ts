import { describe, expect, it } from "vitest";
import type { Goal } from "@adrank/contracts";
import { assessCreative, createSimEmbedder, SIM_EMBEDDING_DIMENSIONS, textStance } from "../src/index.ts";
import { ratingText } from "../src/sim/answer-text.ts";

/**
 * Graded first-person statements, level 1..5, written the way anchor sets are written
 * (varied wording, not the sim's own sentences).
 */
const ANCHOR_SETS: Partial<Record<Goal, string[][]>> = {
  "purchase-intent": [
    ["I would definitely not buy this product.", "I probably wouldn't buy this product.", "I'm not sure if I would buy this product.", "I would probably buy this product.", "I would definitely buy this product."],
    ["There's no way I'd purchase this; it does nothing for me.", "I doubt I'd purchase this, it seems unlikely.", "I might purchase it, or I might not; I'm on the fence.", "I'd likely purchase this, it appeals to me.", "I'm certain I'd purchase this right away, I love it."],
  ],
  "click-through-rate": [
    ["I would never click on this ad.", "I probably would not click on this ad.", "Maybe I would click, maybe not; hard to say.", "I would likely click on this ad to learn more.", "I would absolutely click on this ad right away."],
    ["I'd scroll straight past this and ignore it.", "I'm unlikely to tap on this.", "I'm undecided about tapping on this.", "I'd probably tap to see more.", "I'd tap on this for sure."],
  ],
  trustworthiness: [
    ["I definitely would not trust this brand.", "I'm unlikely to trust this brand.", "I'm unsure whether I'd trust this brand.", "I would probably trust this brand.", "I would certainly trust this brand."],
  ],
};

const cosine = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * b[i]!, 0);

/** SSR as the design states it (eps = 0): g = (1 + c) / 2, p ∝ g − min g, score = Σ r·p_r, averaged over sets. */
function expectedScore(answer: number[], sets: number[][][]): number {
  const scores = sets.map((anchors) => {
    const g = anchors.map((a) => (1 + cosine(answer, a)) / 2);
    const min = Math.min(...g);
    const total = g.reduce((s, x) => s + x - min, 0);
    return g.reduce((s, x, r) => s + (r + 1) * ((x - min) / total), 0);
  });
  return scores.reduce((a, b) => a + b, 0) / scores.length;
}

/** The part of a sim answer the scorer embeds: everything above the RATIONALE and PRODUCT lines. */
const embeddedPart = (text: string) => text.split("\n").filter((l) => !/^(RATIONALE|PRODUCT): /.test(l)).join("\n");

const stats = { hash: "x", width: 1080, height: 1080, brightness: 60, contrast: 20, colourfulness: 30, sharpness: 40, edgeDensity: 0.05 };

describe("sim embedder", () => {
  const embedder = createSimEmbedder();

  it("returns deterministic, unit-length vectors in input order", async () => {
    const texts = ["I would definitely buy this.", "I would never buy this.", ""];
    const [a, b] = [await embedder.embed(texts), await embedder.embed(texts)];
    expect(a).toEqual(b);
    expect(a).toHaveLength(3);
    for (const v of a.slice(0, 2)) {
      expect(v).toHaveLength(SIM_EMBEDDING_DIMENSIONS);
      expect(cosine(v, v)).toBeCloseTo(1, 10);
    }
    expect(cosine(a[0]!, a[1]!)).toBeLessThan(0.5);
  });

  it("places graded statements in order of stance, not of shared words", () => {
    const values = ANCHOR_SETS["purchase-intent"]!.flat().map((t) => textStance(t).value);
    for (const set of [values.slice(0, 5), values.slice(5)]) {
      for (let i = 1; i < 5; i++) expect(set[i]!).toBeGreaterThan(set[i - 1]!);
    }
    expect(textStance("The image is not sharp and the colours are muted.").clauses).toBe(0);
  });

  it("reads finer grades and set phrases the way a person would", () => {
    const graded = ["I find it completely unappealing.", "I find it fairly unappealing.", "I find it slightly unappealing.", "I find it slightly appealing.", "I find it fairly appealing.", "I find it really appealing."].map((t) => textStance(t).value);
    for (let i = 1; i < graded.length; i++) expect(graded[i]!).toBeGreaterThan(graded[i - 1]!);
    expect(textStance("I would buy it without a doubt.").value).toBeGreaterThan(0.9);
    expect(textStance("I doubt I would buy it.").value).toBeLessThan(-0.3);
  });

  for (const goal of Object.keys(ANCHOR_SETS) as Goal[]) {
    it(`gives sim answers for ${goal} an SSR score that rises strictly with the sim's quality`, async () => {
      const sets = await Promise.all(ANCHOR_SETS[goal]!.map((set) => embedder.embed(set)));
      const assessment = assessCreative(stats, null, { goal, assetType: "Social Media Post", platform: null, demographics: {} });
      const qs = [1.2, 2.5, 3.5, 4.8];
      const answers = await embedder.embed(qs.map((q) => embeddedPart(ratingText(q, assessment, goal, null))));
      const scores = answers.map((a) => expectedScore(a, sets));
      for (let i = 1; i < scores.length; i++) expect(scores[i]!).toBeGreaterThan(scores[i - 1]! + 0.2);
      // Graded answers use the scale: lowest in the bottom half, highest in the top.
      expect(scores[0]!).toBeLessThan(2.5);
      expect(scores.at(-1)!).toBeGreaterThan(3.5);
    });
  }

  it("moves an answer's SSR score smoothly with the sim's quality, over the whole scale", async () => {
    const sets = await Promise.all(ANCHOR_SETS["purchase-intent"]!.map((set) => embedder.embed(set)));
    const assessment = assessCreative(stats, null, { goal: "purchase-intent", assetType: "Social Media Post", platform: null, demographics: {} });
    const qs = Array.from({ length: 201 }, (_, i) => 1 + i / 50);
    const answers = await embedder.embed(qs.map((q) => embeddedPart(ratingText(q, assessment, "purchase-intent", null))));
    const scores = answers.map((a) => expectedScore(a, [...sets]));
    // No steps: nearly every q in 0.02 steps gets its own score, and none falls back by more than a hair.
    expect(new Set(scores.map((x) => x.toFixed(2))).size).toBeGreaterThan(150);
    for (let i = 1; i < scores.length; i++) expect(scores[i]!).toBeGreaterThan(scores[i - 1]! - 0.02);
    for (let i = 25; i < scores.length; i++) expect(scores[i]!).toBeGreaterThan(scores[i - 25]!);
    expect(scores[0]!).toBeLessThan(1.7);
    expect(scores.at(-1)!).toBeGreaterThan(4.3);
  });
});
