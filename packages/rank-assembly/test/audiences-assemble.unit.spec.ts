import { describe, expect, it } from "vitest";
import { RankAudiencesResponse, type RankAudiencesResponse as RankAudiencesBody } from "@adrank/contracts";
import {
  applyRefinementReport,
  assembleRankAudiencesResponse,
  assembleRankResponse,
  planRank,
  scoreAssets,
  withoutRefinement,
  type AssetOutcome,
  type AudienceRun,
  type RankRequestInput,
  type Settlement,
} from "../src/index.ts";
import { closePairResult, evaluation, failed, imageOnly } from "./fixtures.ts";

const REQUEST_ID = "0b8f4e2a-6c1d-4e3f-9a5b-7c8d9e0f1a2b";

const REQUEST: RankRequestInput = {
  assets: [{ url: "https://cdn.example/a.png", id: "a" }, { url: "https://cdn.example/b.png" }, { url: "https://cdn.example/c.png" }],
  goal: "click-through-rate",
  asset_type: "Advertisement",
  platform: "instagram",
  refine_close_pairs: true,
};
const ASSETS = REQUEST.assets.map((a, index) => ({ index, url: a.url, assetId: a.id ?? null }));

/** An image-only asset scored by language models rather than the sim. */
const byModels = (score: number): AssetOutcome => ({
  kind: "evaluated",
  layer: "image-only",
  primary: { ok: true, evaluation: evaluation(score, { generatorModels: ["openai:gpt-5-mini", "anthropic:claude-haiku"], embeddingModel: "openai:text-embedding-3-small", simulated: false }) },
  ablation: null,
});

function run(name: string, outcomes: AssetOutcome[], audienceId: string | null = null): AudienceRun {
  const plan = planRank(REQUEST, { name });
  const batch = scoreAssets(plan, outcomes);
  return { name, audienceId, plan, refinement: withoutRefinement(batch.scored), errors: batch.errors, units: batch.billedEvaluations };
}

// Runners and Runners-twin scored alike; a panel then put asset 2 above asset 1 for the twin.
const runners = run("Runners", [imageOnly(3.6), imageOnly(4.0), imageOnly(3.8)], "aud_runners");
const retirees = run("Retirees", [byModels(4.5), failed("The image could not be fetched."), byModels(3.5)]);
const twinBase = run("Runners twin", [imageOnly(3.6), imageOnly(4.0), imageOnly(3.8)]);
const twin: AudienceRun = {
  ...twinBase,
  refinement: applyRefinementReport(twinBase.refinement.assets, {
    pairsEvaluated: 1,
    scores: [{ key: 2, score: 4.05 }],
    outcomes: [],
    results: [closePairResult("asset[1]", "asset[2]", ["openai:gpt-5-mini-voter"])],
  }),
};
const AUDIENCES = [runners, retirees, twin];
const PENDING: Settlement = { units: 8, creditsUsed: 10, creditsRemaining: null, status: "pending" };

function assemble(settlement: Settlement = PENDING, audiences: AudienceRun[] = AUDIENCES): RankAudiencesBody {
  const response = assembleRankAudiencesResponse({ requestId: REQUEST_ID, assets: ASSETS, audiences, settlement });
  const checked = RankAudiencesResponse.safeParse(response);
  if (!checked.success) throw new Error(`not a RankAudiencesResponse: ${JSON.stringify(checked.error.issues)}`);
  return response;
}

describe("assembleRankAudiencesResponse", () => {
  it("gives each audience exactly the ranking POST /api/v1/rank would, without its request_id", () => {
    const response = assemble();
    expect(response.by_audience.map((a) => [a.audience, a.audience_id])).toEqual([
      ["Runners", "aud_runners"],
      ["Retirees", null],
      ["Runners twin", null],
    ]);
    AUDIENCES.forEach((audience, i) => {
      const alone = assembleRankResponse({ requestId: REQUEST_ID, plan: audience.plan, refinement: audience.refinement, errors: audience.errors, settlement: { units: audience.units, creditsUsed: 0, creditsRemaining: null, status: "confirmed" } });
      expect(response.by_audience[i]!.ranked).toEqual(alone.ranked);
      expect(response.by_audience[i]!.errors).toEqual(alone.errors);
      expect(response.by_audience[i]).not.toHaveProperty("request_id");
    });
    expect(response.by_audience[2]!.ranked.map((r) => r.asset_url)).toEqual(["https://cdn.example/c.png", "https://cdn.example/b.png", "https://cdn.example/a.png"]);
  });

  it("bills each audience its units and its whole share of the credits, with no balance or status of its own", () => {
    const response = assemble();
    const summaries = response.by_audience.map((a) => a.summary);
    expect(summaries.map((s) => s.scoring_evaluations)).toEqual([3, 2, 3]);
    // 10 credits over 3, 2, 3 units: quotas 3.75, 2.5, 3.75.
    expect(summaries.map((s) => s.credits_used)).toEqual([4, 2, 4]);
    for (const s of summaries) {
      expect(s.credits_remaining).toBeNull();
      expect(s).not.toHaveProperty("credits_status");
    }
    expect(response.summary).toMatchObject({ scoring_evaluations: 8, credits_used: 10, credits_remaining: null, credits_status: "pending" });
  });

  it("keeps the pending credits triple unique to the top summary, the body's last member", () => {
    const response = assemble();
    expect(Object.keys(response).at(-1)).toBe("summary");
    const keys = Object.keys(response.summary);
    const at = keys.indexOf("credits_used");
    expect(keys.slice(at, at + 3)).toEqual(["credits_used", "credits_remaining", "credits_status"]);

    const text = JSON.stringify(response);
    expect(text).toContain('"audience":"Runners twin"');
    const triples = [...text.matchAll(/"credits_used":(\d+),"credits_remaining":null,"credits_status":"pending"/g)];
    expect(triples.map((m) => m[1])).toEqual(["10"]);
    expect([...text.matchAll(/"credits_status"/g)]).toHaveLength(1);
    expect([...text.matchAll(/"credits_used":(\d+)/g)].at(-1)![1]).toBe("10");
    expect(triples[0]!.index).toBeGreaterThan(text.lastIndexOf('"by_audience"'));
  });

  it("reports a confirmed balance only at the top", () => {
    const response = assemble({ units: 8, creditsUsed: 8, creditsRemaining: 492, status: "confirmed" });
    expect(response.summary).toMatchObject({ credits_used: 8, credits_remaining: 492, credits_status: "confirmed" });
    expect(response.by_audience.map((a) => a.summary.credits_remaining)).toEqual([null, null, null]);
    expect(response.by_audience.map((a) => a.summary.credits_used)).toEqual([3, 2, 3]);
  });

  it("sums the audiences' counts and merges their models", () => {
    const { summary } = assemble();
    expect(summary).toMatchObject({
      goal: "click-through-rate",
      asset_type: "Advertisement",
      platform: "instagram",
      audiences: ["Runners", "Retirees", "Runners twin"],
      assets_ranked: 8,
      assets_failed: 1,
      repetitions_per_evaluation: 3,
      generator_samples_per_evaluation: 6,
      close_pairs_refined: 1,
    });
    expect(summary.models).toEqual({
      generators: ["sim:a", "sim:b", "openai:gpt-5-mini", "anthropic:claude-haiku"],
      embedder: "sim:embed",
      voters: ["openai:gpt-5-mini-voter"],
      simulated: true,
    });
  });

  it("says each audience's warning once and adds the persona warning last", () => {
    const { summary, by_audience } = assemble();
    expect(by_audience.map((a) => a.summary.warnings!.map((w) => w.code))).toEqual([["simulated", "uniformly_positive"], ["uniformly_positive"], ["simulated", "uniformly_positive"]]);
    expect(summary.warnings.map((w) => w.code)).toEqual(["simulated", "uniformly_positive", "uniformly_positive", "persona_made_no_difference"]);
    // Same code, different message (3 assets against 2): both stay.
    expect(summary.warnings[1]!.message).toContain("3 assets");
    expect(summary.warnings[2]!.message).toContain("2 assets");
    expect(summary.warnings[3]!.message).toContain('"Runners" and "Runners twin"');
  });

  it("compares the audiences from their final rankings", () => {
    const { comparison, reversals, audience_sensitivity } = assemble();
    expect(comparison[0]!.scores.map((s) => [s.audience, s.score, s.rank])).toEqual([
      ["Runners", 3.6, 3],
      ["Retirees", 4.5, 1],
      ["Runners twin", 3.6, 3],
    ]);
    expect(comparison[1]).toMatchObject({ spread: 0, best_audience: "Runners", worst_audience: "Runners twin" });
    // Retirees put asset a first, Runners and the twin put c above it: both beyond noise.
    expect(reversals.map((r) => [r.asset_a.asset_id, r.asset_b.asset_index, r.prefers_a.audience, r.prefers_b.audience])).toEqual([
      ["a", 2, "Retirees", "Runners"],
      ["a", 2, "Retirees", "Runners twin"],
    ]);
    // The twin's panel flip of b and c is against its raw means, so it is no reversal.
    expect(audience_sensitivity.map((s) => [s.audience_a, s.audience_b, s.assets_compared, s.persona_made_no_difference])).toEqual([
      ["Runners", "Retirees", 2, false],
      ["Runners", "Runners twin", 3, true],
      ["Retirees", "Runners twin", 2, false],
    ]);
  });

  it("refuses a request without audiences", () => {
    expect(() => assembleRankAudiencesResponse({ requestId: REQUEST_ID, assets: ASSETS, audiences: [], settlement: { units: 0, creditsUsed: 0, creditsRemaining: 0, status: "confirmed" } })).toThrow(RangeError);
  });
});
