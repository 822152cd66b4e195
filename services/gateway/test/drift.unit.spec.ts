import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { RankRequest, type MethodReceipt, type RankResponse } from "@adrank/contracts";
import type { DriftRunRecord, NewDriftRun } from "@adrank/db/repositories";
import { DEFAULT_DRIFT_THRESHOLDS } from "@adrank/eval-stats";
import { parseDriftOptions, DriftUsageError } from "../src/admin/drift/drift-options.ts";
import { loadReferenceBatch, REFERENCE_IMAGES, REPOSITORY_ROOT, type ReferenceBatch } from "../src/admin/drift/reference-batch.ts";
import { runDrift, type DriftClient, type DriftRunStore } from "../src/admin/drift/run-drift.ts";

const receipt = (gpt4oVersion = "gpt-4o-2024-08-06"): MethodReceipt => ({
  version: "ssr-2026.11",
  prompt_templates: ["a1b2c3d4e5f60718"],
  reference_sets: [{ hash: "1111222233334444", mean_similarity: 0.61 }],
  reference_similarity_limit: 0.9,
  embedder: { model: "openai:text-embedding-3-small", dimensions: 1536 },
  generators: [
    { model: "openai:gpt-4o", versions: [gpt4oVersion], temperature: 0.5, thinking: null },
    { model: "anthropic:claude-sonnet-4-5", versions: ["claude-sonnet-4-5-20250929"], temperature: 0.5, thinking: null },
  ],
  voters: [],
});

/** A server's answer giving each asset the score listed, ranked by score. */
function answer(scores: Record<string, number>, method: MethodReceipt = receipt(), errors: RankResponse["errors"] = []): RankResponse {
  const order = Object.entries(scores).sort((a, b) => b[1] - a[1]);
  return {
    request_id: crypto.randomUUID(),
    ranked: order.map(([id, score], i) => ({
      rank: i + 1,
      asset_url: "data:image/png;base64,…",
      asset_id: id,
      score,
      score_before_refine: score,
      score_layer: "image-only",
      asset_type: "Advertisement",
      copy_context_included: false,
      rationale: "",
      product_read: "",
      confidence: "medium",
      panel_outcome: null,
      confidence_details: { entropy: 0.5, top_margin: 0.1, sample_std_dev: 0.2, repetition_count: 3, generator_sample_count: 6 },
      details: { probabilities: [0.2, 0.2, 0.2, 0.2, 0.2], similarities: [0.5, 0.5, 0.5, 0.5, 0.5], repetitionCount: 3, generatorSampleCount: 6, repetitionScores: [score, score, score], repetitionScoreRange: 0 },
    })),
    errors,
    summary: {
      goal: "purchase-intent",
      asset_type: "Advertisement",
      platform: null,
      audience: "Drift watch reference: urban commuters",
      assets_ranked: order.length,
      assets_failed: errors.length,
      scoring_evaluations: order.length,
      repetitions_per_evaluation: 3,
      generator_samples_per_evaluation: 6,
      close_pair_refinement: { enabled: false, pairs_evaluated: 0, results: [] },
      credits_used: order.length,
      credits_remaining: 100,
      warnings: [{ code: "simulated", message: "The offline sim model answered." }],
      method,
    },
  };
}

/** Scripted answers, one per call; remembers what was sent. */
function fakeClient(...answers: RankResponse[]): DriftClient & { sent: unknown[] } {
  const sent: unknown[] = [];
  return {
    sent,
    async rank(request) {
      sent.push(request);
      const next = answers.shift();
      if (!next) throw new Error("no scripted answer left");
      return { data: next };
    },
  };
}

/** drift_runs in memory: each run one second after the one before. */
function memoryStore(): DriftRunStore & { rows: DriftRunRecord[] } {
  const rows: DriftRunRecord[] = [];
  const newestFirst = () => [...rows].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime());
  return {
    rows,
    async insert(run: NewDriftRun) {
      const record = { ...structuredClone(run), id: `run-${rows.length + 1}`, createdAt: new Date(Date.UTC(2026, 10, 30, 6, 0, rows.length)) };
      rows.push(record);
      return record;
    },
    async latestOfBatch(batchHash: string) {
      return newestFirst().find((r) => r.batchHash === batchHash) ?? null;
    },
    async latest() {
      return newestFirst()[0] ?? null;
    },
  };
}

let batch: ReferenceBatch;
beforeAll(async () => {
  batch = await loadReferenceBatch();
});

/** A plausible spread of scores over the batch, best first. */
const baseScores = () => Object.fromEntries(batch.assetIds.map((id, i) => [id, 4.4 - i * 0.35]));

async function drift(client: DriftClient, runs: DriftRunStore, json = false) {
  const out: string[] = [];
  const err: string[] = [];
  const outcome = await runDrift({ client, runs, batch, thresholds: DEFAULT_DRIFT_THRESHOLDS, json, out: (l) => out.push(l), err: (l) => err.push(l) });
  return { ...outcome, out, err };
}

describe("runDrift", () => {
  it("stores the first run as the baseline and exits 0", async () => {
    const runs = memoryStore();
    const client = fakeClient(answer(baseScores()));
    const result = await drift(client, runs);
    expect(result.exitCode).toBe(0);
    expect(result.report?.status).toBe("baseline");
    expect(runs.rows).toHaveLength(1);
    expect(runs.rows[0]!.batchHash).toBe(batch.hash);
    expect(runs.rows[0]!.scores[batch.assetIds[0]!]).toEqual({ score: 4.4, rank: 1 });
    expect(result.out.join("\n")).toMatch(/this run is the baseline/);
    expect(result.out.some((l) => l.startsWith("WARNING:"))).toBe(false);
    // What was sent is the batch, as is.
    expect(client.sent).toEqual([batch.request]);
  });

  it("exits 0 and warns nothing when a second run answers the same", async () => {
    const runs = memoryStore();
    const client = fakeClient(answer(baseScores()), answer(baseScores()));
    await drift(client, runs);
    const second = await drift(client, runs);
    expect(second.exitCode).toBe(0);
    expect(second.report?.status).toBe("unchanged");
    expect(second.report?.previous?.id).toBe("run-1");
    expect(second.report?.comparison?.mean_absolute_change).toBe(0);
    expect(second.out.at(-1)).toBe("drift: nothing moved (exit 0)");
    expect(runs.rows).toHaveLength(2);
  });

  it("exits 3 with a WARNING naming the field when a provider reports another model version", async () => {
    const runs = memoryStore();
    const client = fakeClient(answer(baseScores()), answer(baseScores(), receipt("gpt-4o-2024-11-20")));
    await drift(client, runs);
    const second = await drift(client, runs);
    expect(second.exitCode).toBe(3);
    expect(second.report?.status).toBe("moved");
    expect(second.out.filter((l) => l.startsWith("WARNING:"))).toEqual(['WARNING: models changed: generators[openai:gpt-4o].versions: ["gpt-4o-2024-08-06"] → ["gpt-4o-2024-11-20"]']);
    expect(second.out.at(-1)).toBe("drift: 1 warning(s) (exit 3)");
  });

  it("exits 3 when the ranking turned over, the models unchanged", async () => {
    const runs = memoryStore();
    const scores = baseScores();
    const reversed = Object.fromEntries(batch.assetIds.map((id, i) => [id, scores[batch.assetIds[batch.assetIds.length - 1 - i]!]!]));
    const client = fakeClient(answer(scores), answer(reversed));
    await drift(client, runs);
    const second = await drift(client, runs);
    expect(second.exitCode).toBe(3);
    expect(second.report?.comparison?.spearman_rho).toBeCloseTo(-1, 12);
    expect(second.out.filter((l) => l.startsWith("WARNING:"))).toEqual([
      "WARNING: ranking moved: Spearman rho -1.000 is below 0.900",
      expect.stringMatching(/^WARNING: ranking moved: the mean absolute score change \d\.\d{3} is above 0\.150$/),
    ]);
  });

  it("does not compare with a run of another batch: it starts a new baseline", async () => {
    const runs = memoryStore();
    await runs.insert({ batchHash: "an-older-batch", requestId: "r0", receipt: receipt("something-else"), scores: { old: { score: 3, rank: 1 } }, warnings: [] });
    const result = await drift(fakeClient(answer(baseScores())), runs);
    expect(result.exitCode).toBe(0);
    expect(result.report?.status).toBe("new_baseline");
    expect(result.report?.comparison).toBeNull();
    expect(result.out.join("\n")).toMatch(/the batch changed since run run-1 .*not compared; this run is the new baseline/);
  });

  it("exits 1 and stores nothing when an asset of the batch failed", async () => {
    const runs = memoryStore();
    const [failed, ...rest] = batch.assetIds;
    const scores = Object.fromEntries(rest.map((id, i) => [id, 4 - i * 0.3]));
    const result = await drift(fakeClient(answer(scores, receipt(), [{ asset_url: "data:image/png;base64,…", asset_id: failed!, error: "scoring failed" }])), runs);
    expect(result.exitCode).toBe(1);
    expect(result.report).toBeNull();
    expect(runs.rows).toEqual([]);
    expect(result.err).toEqual([expect.stringMatching(new RegExp(`^drift: the reference batch did not rank whole .*${failed}: scoring failed`))]);
  });

  it("exits 1 when the API call fails, and says why", async () => {
    const runs = memoryStore();
    const failing: DriftClient = {
      async rank() {
        throw new Error("Could not reach http://127.0.0.1:8080: connect ECONNREFUSED");
      },
    };
    const result = await drift(failing, runs);
    expect(result.exitCode).toBe(1);
    expect(result.err).toEqual(["drift: failed: Could not reach http://127.0.0.1:8080: connect ECONNREFUSED"]);
    expect(runs.rows).toEqual([]);
  });

  it("prints one JSON report with --json", async () => {
    const runs = memoryStore();
    const client = fakeClient(answer(baseScores()), answer(baseScores(), receipt("gpt-4o-2024-11-20")));
    await drift(client, runs, true);
    const second = await drift(client, runs, true);
    expect(second.out).toHaveLength(1);
    const report = JSON.parse(second.out[0]!) as Record<string, unknown>;
    expect(report).toMatchObject({
      status: "moved",
      exit_code: 3,
      thresholds: { min_rho: 0.9, max_mean_change: 0.15 },
      comparison: { assets: batch.assetIds.length, receipt_differences: [{ field: "generators[openai:gpt-4o].versions", before: ["gpt-4o-2024-08-06"], after: ["gpt-4o-2024-11-20"] }] },
    });
  });
});

describe("the reference batch", () => {
  it("is the three example creatives and the five synthetic ones, as data URIs the API accepts", () => {
    expect(batch.assetIds).toEqual(["autumn-promo", "spring-sale", "summer-launch", "synthetic-bold-contrast", "synthetic-muted-pastel", "synthetic-split-layout", "synthetic-tile-grid", "synthetic-dark-minimal"]);
    const request = RankRequest.parse(batch.request);
    expect(request).toMatchObject({ goal: "purchase-intent", refine_close_pairs: false, audience: { name: expect.any(String) } });
    expect(request.assets.every((a) => a.url.startsWith("data:image/png;base64,"))).toBe(true);
  });

  it("has a hash that stays the same from one load to the next", async () => {
    expect((await loadReferenceBatch()).hash).toBe(batch.hash);
    expect(batch.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("keeps its committed synthetic PNGs small and each one different", () => {
    const files = REFERENCE_IMAGES.filter((i) => i.path.startsWith("examples/drift/")).map((i) => readFileSync(join(REPOSITORY_ROOT, i.path)));
    expect(files).toHaveLength(5);
    for (const f of files) expect(f.length).toBeLessThan(20 * 1024);
    expect(new Set(files.map((f) => f.toString("base64"))).size).toBe(5);
  });

  it("fails with the missing file named when the images are not there", async () => {
    await expect(loadReferenceBatch("/nonexistent")).rejects.toThrow(/examples\/ads\/autumn-promo\.png does not exist/);
  });
});

describe("drift flags", () => {
  it("default to rho 0.9 and a mean change of 0.15, and take both from the command line", () => {
    expect(parseDriftOptions([])).toEqual({ thresholds: { minRho: 0.9, maxMeanChange: 0.15 }, json: false, help: false });
    expect(parseDriftOptions(["--min-rho", "0.8", "--max-mean-change", "0.3", "--json"])).toEqual({ thresholds: { minRho: 0.8, maxMeanChange: 0.3 }, json: true, help: false });
  });

  it("refuse values out of range and unknown flags", () => {
    expect(() => parseDriftOptions(["--min-rho", "1.5"])).toThrow(DriftUsageError);
    expect(() => parseDriftOptions(["--max-mean-change=-1"])).toThrow(/--max-mean-change must be a number/);
    expect(() => parseDriftOptions(["--min-rho", "abc"])).toThrow(DriftUsageError);
    expect(() => parseDriftOptions(["--verbose"])).toThrow(DriftUsageError);
  });
});
