import { describe, expect, it } from "vitest";
import type { MethodReceipt } from "@adrank/contracts";
import { compareDriftRuns, DEFAULT_DRIFT_THRESHOLDS, receiptDifferences, type ComparedRuns, type DriftComparison, type DriftRun } from "../src/index.ts";

const receipt = (): MethodReceipt => ({
  version: "ssr-2026.11",
  prompt_templates: ["a1b2c3d4e5f60718"],
  reference_sets: [
    { hash: "1111222233334444", mean_similarity: 0.61 },
    { hash: "5555666677778888", mean_similarity: 0.58 },
  ],
  reference_similarity_limit: 0.9,
  embedder: { model: "openai:text-embedding-3-small", dimensions: 1536 },
  generators: [
    { model: "openai:gpt-4o", versions: ["gpt-4o-2024-08-06"], temperature: 0.5, thinking: null },
    { model: "anthropic:claude-sonnet-4-5", versions: ["claude-sonnet-4-5-20250929"], temperature: 0.5, thinking: null },
  ],
  voters: [],
});

const SCORES = { hero: { score: 4.0, rank: 1 }, split: { score: 3.9, rank: 2 }, banner: { score: 3.1, rank: 3 }, grid: { score: 2.6, rank: 4 }, plain: { score: 2.5, rank: 5 } };
// Two pairs of neighbours swap places with small moves: rho = 1 - 6 * 4 / (5 * 24) = 0.8,
// mean absolute change (0.12 + 0.02 + 0 + 0.12 + 0.02) / 5 = 0.056.
const SWAPPED = { hero: { score: 3.88, rank: 2 }, split: { score: 3.92, rank: 1 }, banner: { score: 3.1, rank: 3 }, grid: { score: 2.48, rank: 5 }, plain: { score: 2.52, rank: 4 } };

const run = (overrides: Partial<DriftRun> = {}): DriftRun => ({ batchHash: "batch-1", receipt: receipt(), scores: SCORES, warningCodes: [], ...overrides });

function compared(c: DriftComparison): ComparedRuns {
  if (!c.compared) throw new Error("expected the runs to be compared");
  return c;
}

describe("compareDriftRuns", () => {
  it("finds nothing to warn about in two identical runs", () => {
    const c = compared(compareDriftRuns(run(), run()));
    expect(c.warnings).toEqual([]);
    expect(c.receiptDifferences).toEqual([]);
    expect(c.spearmanRho).toBeCloseTo(1, 12);
    expect(c.kendallTauB).toBeCloseTo(1, 12);
    expect(c.meanAbsoluteChange).toBe(0);
    expect(c.assets).toBe(5);
    expect(c.missingAssets).toEqual([]);
  });

  it("warns that the models changed, naming the field, when a provider reports another version", () => {
    const changed = receipt();
    changed.generators[0]!.versions = ["gpt-4o-2024-11-20"];
    const c = compared(compareDriftRuns(run(), run({ receipt: changed })));
    expect(c.receiptDifferences).toEqual([{ field: "generators[openai:gpt-4o].versions", before: ["gpt-4o-2024-08-06"], after: ["gpt-4o-2024-11-20"] }]);
    expect(c.warnings).toEqual([{ kind: "models_changed", message: 'models changed: generators[openai:gpt-4o].versions: ["gpt-4o-2024-08-06"] → ["gpt-4o-2024-11-20"]' }]);
  });

  it("warns that the ranking moved when rho falls below the threshold, even with small score changes", () => {
    const c = compared(compareDriftRuns(run(), run({ scores: SWAPPED })));
    expect(c.spearmanRho).toBeCloseTo(0.8, 12);
    expect(c.meanAbsoluteChange).toBeCloseTo(0.056, 12);
    expect(c.meanAbsoluteChange).toBeLessThan(DEFAULT_DRIFT_THRESHOLDS.maxMeanChange);
    expect(c.warnings).toEqual([{ kind: "ranking_moved", message: "ranking moved: Spearman rho 0.800 is below 0.900" }]);
    // Listed in today's rank order.
    expect(c.changes.map((ch) => ch.assetId)).toEqual(["split", "hero", "banner", "plain", "grid"]);
  });

  it("warns when every score shifted by more than the mean-change threshold, order kept", () => {
    const shifted = Object.fromEntries(Object.entries(SCORES).map(([id, p]) => [id, { score: p.score - 0.4, rank: p.rank }]));
    const c = compared(compareDriftRuns(run(), run({ scores: shifted })));
    expect(c.spearmanRho).toBeCloseTo(1, 12);
    expect(c.meanAbsoluteChange).toBeCloseTo(0.4, 12);
    expect(c.warnings.map((w) => w.message)).toEqual(["ranking moved: the mean absolute score change 0.400 is above 0.150"]);
  });

  it("takes its thresholds from the caller", () => {
    expect(compared(compareDriftRuns(run(), run({ scores: SWAPPED }), { minRho: 0.5, maxMeanChange: 1 })).warnings).toEqual([]);
    expect(compared(compareDriftRuns(run(), run({ scores: SWAPPED }), { minRho: 0.5, maxMeanChange: 0.05 })).warnings.map((w) => w.message)).toEqual([
      "ranking moved: the mean absolute score change 0.056 is above 0.050",
    ]);
    expect(() => compareDriftRuns(run(), run(), { minRho: 2, maxMeanChange: 0.15 })).toThrow(RangeError);
  });

  it("does not compare runs of a changed batch", () => {
    const changed = receipt();
    changed.version = "ssr-2027.01";
    const c = compareDriftRuns(run(), run({ batchHash: "batch-2", receipt: changed, scores: { hero: { score: 1, rank: 1 } } }));
    expect(c).toEqual({ compared: false, reason: "batch_changed", previousBatchHash: "batch-1", currentBatchHash: "batch-2" });
  });

  it("warns when an asset was ranked in one run only, and compares the rest", () => {
    const { plain: _gone, ...fewer } = SCORES;
    const c = compared(compareDriftRuns(run(), run({ scores: fewer })));
    expect(c.assets).toBe(4);
    expect(c.missingAssets).toEqual(["plain"]);
    expect(c.warnings.map((w) => w.message)).toEqual(["ranking moved: ranked in one run only: plain"]);
  });

  it("reports the answer's warning codes that appeared or went away, without warning itself", () => {
    const c = compared(compareDriftRuns(run({ warningCodes: ["simulated", "panel_split"] }), run({ warningCodes: ["simulated", "uniformly_positive"] })));
    expect(c.warningCodesAdded).toEqual(["uniformly_positive"]);
    expect(c.warningCodesRemoved).toEqual(["panel_split"]);
    expect(c.warnings).toEqual([]);
  });

  it("leaves an undefined rho (every score tied) unjudged", () => {
    const tied = Object.fromEntries(Object.keys(SCORES).map((id, i) => [id, { score: 3, rank: i + 1 }]));
    const c = compared(compareDriftRuns(run({ scores: tied }), run({ scores: tied })));
    expect(c.spearmanRho).toBeNull();
    expect(c.warnings).toEqual([]);
  });
});

describe("receiptDifferences", () => {
  it("lists every changed field by name", () => {
    const after = receipt();
    after.version = "ssr-2026.12";
    after.prompt_templates = ["ffff000011112222"];
    after.reference_sets[1] = { hash: "9999aaaabbbbcccc", mean_similarity: 0.7 };
    after.embedder = { model: "openai:text-embedding-3-large", dimensions: 3072 };
    after.generators[1] = { ...after.generators[1]!, temperature: 0.7, thinking: "thinking.budget_tokens=1024" };
    expect(receiptDifferences(receipt(), after).map((d) => d.field)).toEqual([
      "version",
      "prompt_templates",
      "reference_sets[1].hash",
      "reference_sets[1].mean_similarity",
      "embedder.model",
      "embedder.dimensions",
      "generators[anthropic:claude-sonnet-4-5].temperature",
      "generators[anthropic:claude-sonnet-4-5].thinking",
    ]);
  });

  it("ignores the order of versions and prompt hashes, and similarity noise below the tolerance", () => {
    const before = receipt();
    before.generators[0]!.versions = ["v1", "v2"];
    before.prompt_templates = ["p1", "p2"];
    const after = receipt();
    after.generators[0]!.versions = ["v2", "v1"];
    after.prompt_templates = ["p2", "p1"];
    after.reference_sets[0]!.mean_similarity = 0.6104;
    expect(receiptDifferences(before, after)).toEqual([]);
  });

  it("names a model that joined or left the panel", () => {
    const after = receipt();
    after.generators = [after.generators[0]!, { model: "gemini:gemini-2.5-flash", versions: [], temperature: 0.5, thinking: null }];
    expect(receiptDifferences(receipt(), after)).toEqual([
      { field: "generators[anthropic:claude-sonnet-4-5]", before: "present", after: "absent" },
      { field: "generators[gemini:gemini-2.5-flash]", before: "absent", after: "present" },
    ]);
  });

  it("says when one run has no receipt at all", () => {
    expect(receiptDifferences(receipt(), null)).toEqual([{ field: "method", before: "present", after: "absent" }]);
    expect(receiptDifferences(null, null)).toEqual([]);
  });
});
