import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { assessCreative, simEmbedding } from "../src/index.ts";
import { ratingText } from "../src/sim/answer-text.ts";
import { composeStance, type Driver } from "../src/sim/stance-wording.ts";

/**
 * The digest of the sim's wording and embeddings over the grid below, as the exhaustive
 * search (before the caches and the mix tables) produced them. Scores of stored results
 * were made from these bytes; a deliberate change of wording must update it.
 */
const PINNED = "5d482af8acf51e9ac7eea1bfd78641dadba5f907f38601b5a97feb1d52b7a1a2";

const DRIVER_SETS: Driver[][] = [
  [],
  [{ text: "the image is dark", tone: -1 }],
  [{ text: "the colours are vivid", tone: 1 }, { text: "the details are crisp", tone: 1 }],
  [{ text: "the contrast is modest", tone: -1 }, { text: "the layout is clean and uncluttered", tone: 1 }, { text: "the copy lacks a headline", tone: -1 }],
  [{ text: "the overall look", tone: 0 }, { text: "I would not say so", tone: 0 }],
];
const COPY = { pageName: "Northwind Coffee", adHeadline: "Brew better coffee at home", adBody: "Our grinder gives cafe-quality grounds in 20 seconds. Free shipping this week.", adCaption: "Shop now" };
const IMAGES = [
  { hash: "a", width: 1080, height: 1080, brightness: 60, contrast: 20, colourfulness: 30, sharpness: 40, edgeDensity: 0.05 },
  { hash: "b", width: 1080, height: 1920, brightness: 150, contrast: 60, colourfulness: 70, sharpness: 900, edgeDensity: 0.08 },
  { hash: "c", width: 728, height: 90, brightness: 230, contrast: 10, colourfulness: 5, sharpness: 3000, edgeDensity: 0.3 },
];

function simFingerprint(): string {
  const hash = createHash("sha256");
  const add = (value: unknown) => hash.update(`${JSON.stringify(value)}\n`);
  for (const action of ["buy this product", "click on this ad", "trust this brand"]) {
    for (const drivers of DRIVER_SETS) for (let i = 0; i <= 800; i++) add(composeStance(-1 + i / 400, action, drivers));
  }
  for (const goal of ["purchase-intent", "click-through-rate", "trustworthiness", "scroll-stopping"] as const) {
    for (const [i, image] of IMAGES.entries()) {
      const copy = i === 1 ? null : COPY;
      const assessment = assessCreative(image, copy, { goal, assetType: "Social Media Post", platform: ["instagram", "tiktok", null][i]!, demographics: i === 2 ? { adSkepticism: "very-high" } : {} });
      for (let q = 1; q <= 5; q += 0.04) {
        const text = ratingText(q, assessment, goal, copy);
        add(text);
        add(simEmbedding(text.split("\nRATIONALE:")[0]!));
      }
    }
  }
  for (const text of ["I would definitely buy this product.", "I'm not sure, but I might.", "The constructor builds it; I wouldn't.", ""]) add(simEmbedding(text));
  return hash.digest("hex");
}

describe("sim output", () => {
  it("words and embeds every answer exactly as before, on first sight and from the caches", () => {
    expect(simFingerprint()).toBe(PINNED);
    expect(simFingerprint()).toBe(PINNED);
  });
});
