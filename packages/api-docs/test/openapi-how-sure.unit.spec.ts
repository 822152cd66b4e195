import { describe, expect, it } from "vitest";
import { CalibrationResponse, PairwiseResponse, RankResponse, TOO_CLOSE_TO_CALL, WARNING_CODES } from "@adrank/contracts";
import { buildOpenApiDocument } from "../src/index.ts";
import { studentTEven } from "./fixtures/student-t.ts";

// What the document says about how far to trust an answer (issue 34): the guide's "How sure
// is it" section with figures a reader can check, and examples whose probabilities, counts,
// warnings and receipts follow from the figures they show, as the service computes them.

type Example = { summary: string; description?: string; value: unknown };
type Operation = { responses: Record<string, { content?: Record<string, { examples: Record<string, Example> }> }> };
type Doc = { info: { description: string }; paths: Record<string, Record<string, Operation>> };

const doc = buildOpenApiDocument() as unknown as Doc;
const examples = (path: string, method: string) => Object.entries(doc.paths[path]![method]!.responses["200"]!.content!["application/json"]!.examples);
const rankings = examples("/api/v1/rank", "post").map(([key, e]) => ({ key, body: RankResponse.parse(e.value) }));
const panels = examples("/api/v1/pairwise", "post").map(([key, e]) => ({ key, body: PairwiseResponse.parse(e.value) }));
const calibrations = examples("/api/v1/calibration", "get").map(([key, e]) => ({ key, body: CalibrationResponse.parse(e.value) }));

/** P(θ > ½) for the posterior Beta(1 + k, 1 + m) with whole vote counts: P(Binomial(k + m + 1, ½) ≥ m + 1). */
function majorityProbability(k: number, m: number): number {
  const n = k + m + 1;
  let choose = 1;
  let atLeast = 0;
  for (let j = 0; j <= n; j++) {
    if (j >= m + 1) atLeast += choose;
    choose = (choose * (n - j)) / (j + 1);
  }
  return atLeast / 2 ** n;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const squaredDeviations = (xs: readonly number[]) => xs.reduce((sum, x) => sum + (x - mean(xs)) ** 2, 0);
const combine = (p1: number, p2: number) => (p1 * p2) / (p1 * p2 + (1 - p1) * (1 - p2));

describe("the guide's How sure is it section", () => {
  const guide = doc.info.description;
  const start = guide.indexOf("## How sure is it\n");
  const section = guide.slice(start, guide.indexOf("\n## ", start + 1));

  it("comes before Measuring fidelity, whose outcomes its reliability table reads", () => {
    expect(start).toBeGreaterThan(0);
    expect(start).toBeLessThan(guide.indexOf("## Measuring fidelity\n"));
  });

  it("states every field, formula and warning code an answer carries", () => {
    for (const fact of [
      "`p_above_next`", "Σ (n − 1)", "s·√(2/3)", "T_df", "before any close-pair refinement", "1 − I_0.5(1 + k, 1 + m)", "multiplying their odds", "below 0.5",
      `between ${TOO_CLOSE_TO_CALL.low} and ${TOO_CLOSE_TO_CALL.high}`, "### summary.uncertainty", "`repetition_noise_sd`", "`adjacent_pairs`",
      "`win_probability`", "(1 + k) / (2 + k + m)", "95 %", "`p_better`", "4 of 5 is not 80 % certainty",
      "`summary.warnings`", "show the `message` of a code you do not know", "p-value", "above 0.05", "3.5 or more", "one-vote",
      "`summary.method`", "`prompt_templates`", "`reference_sets`", "six per goal", "`reference_similarity_limit`", "0.65", "`versions`", "deterministic", "temperature above 0", "Bedrock",
      "`reliability`", "folded to 1 − p", "Wilson 95 %", "overconfident",
    ]) {
      expect(section, fact).toContain(fact);
    }
    for (const code of WARNING_CODES) expect(section, code).toContain(`| \`${code}\` |`);
  });

  it("works its examples out correctly", () => {
    // s = 0.2, means 3.2 and 3.1 over 3 repetitions, three assets: 6 degrees of freedom.
    const t = 0.1 / (0.2 * Math.sqrt(2 / 3));
    expect(section).toContain(`t = 0.1 / (0.2 · √(2/3)) = ${t.toFixed(3)}`);
    expect(section).toContain(`T_6(${t.toFixed(3)}) = ${studentTEven(t, 6).toFixed(2)}`);
    // That 0.72 combined with a 4–1 panel.
    expect(section).toContain(`(P = ${majorityProbability(4, 1).toFixed(2)}) combine to ${combine(studentTEven(t, 6), majorityProbability(4, 1)).toFixed(2)}`);
    // 4 of 5: the posterior mean, and the majority probabilities of 4, 3 and 5 of 5.
    expect(section).toContain(`\`value\` ${(5 / 7).toFixed(3)}`);
    expect(section).toContain(`\`p_better\` ${majorityProbability(4, 1).toFixed(2)}`);
    expect(section).toContain(`3 of 5 gives \`p_better\` ${majorityProbability(3, 2).toFixed(2)}, 5 of 5 gives ${majorityProbability(5, 0).toFixed(2)}`);
  });
});

describe("the rank examples' trust fields", () => {
  it("give each asset the probability its repetition scores give over the batch's pooled noise", () => {
    for (const { key, body } of rankings) {
      const reps = body.ranked.map((a) => a.details.repetitionScores);
      const df = reps.reduce((sum, r) => sum + r.length - 1, 0);
      const s = Math.sqrt(reps.reduce((sum, r) => sum + squaredDeviations(r), 0) / df);
      expect(body.summary.close_pair_refinement.results, key).toEqual([]);
      body.ranked.forEach((asset, i) => {
        const what = `${key} rank ${asset.rank}`;
        expect(asset.score, what).toBeCloseTo(mean(asset.details.repetitionScores), 2);
        const next = body.ranked[i + 1];
        if (!next) {
          expect(asset.p_above_next, what).toBeNull();
          expect(asset.too_close_to_call, what).toBe(false);
          return;
        }
        const p = studentTEven((mean(asset.details.repetitionScores) - mean(next.details.repetitionScores)) / (s * Math.sqrt(2 / 3)), df);
        expect(asset.p_above_next, what).toBeCloseTo(p, 4);
        expect(asset.too_close_to_call, what).toBe(p >= TOO_CLOSE_TO_CALL.low && p <= TOO_CLOSE_TO_CALL.high);
      });
      expect(body.summary.uncertainty, key).toEqual({
        repetition_noise_sd: expect.closeTo(s, 4),
        degrees_of_freedom: df,
        adjacent_pairs: Math.max(0, body.ranked.length - 1),
        too_close_to_call: body.ranked.filter((a) => a.too_close_to_call).length,
      });
    }
    // The reader sees both a sure order and a coin toss.
    expect(rankings.some(({ body }) => body.ranked.some((a) => a.too_close_to_call))).toBe(true);
    expect(rankings.some(({ body }) => body.ranked.some((a) => (a.p_above_next ?? 0) > 0.99))).toBe(true);
  });

  it("warn exactly when the service's rules say so, simulated whenever the sim answered", () => {
    for (const { key, body } of rankings) {
      const codes = body.summary.warnings!.map((w) => w.code);
      for (const code of codes) expect(WARNING_CODES as readonly string[], key).toContain(code);
      expect(codes.includes("simulated"), key).toBe(body.summary.models!.simulated);
      expect(codes.includes("uniformly_positive"), key).toBe(body.ranked.length >= 2 && body.ranked.every((a) => a.score >= 3.5));
      const crowded = body.summary.method!.reference_sets.some((set) => (set.mean_similarity ?? 0) > body.summary.method!.reference_similarity_limit!);
      expect(codes.includes("anchors_not_separable"), key).toBe(crowded);
    }
    expect(rankings.some(({ body }) => body.summary.models!.simulated)).toBe(true);
  });

  it("carry a receipt of six reference sets and the models the summary names", () => {
    const versions = new Set<string>();
    for (const { key, body } of rankings) {
      const { method, models } = body.summary;
      expect(method!.reference_sets, key).toHaveLength(6);
      expect(new Set(method!.reference_sets.map((set) => set.hash)).size, key).toBe(6);
      for (const set of method!.reference_sets) expect(set.hash, key).toMatch(/^[0-9a-f]{16}$/);
      expect(method!.prompt_templates, key).toEqual([expect.stringMatching(/^[0-9a-f]{16}$/)]);
      expect(method!.embedder?.model, key).toBe(models!.embedder);
      expect(method!.generators.map((g) => g.model), key).toEqual(models!.generators);
      expect(method!.voters.map((v) => v.model), key).toEqual(models!.voters);
      // The sim is deterministic: it is sent no temperature.
      for (const g of method!.generators) if (g.model.startsWith("sim:")) expect(g.temperature, key).toBeNull();
      versions.add(method!.version);
    }
    expect(versions.size).toBe(1);
  });
});

describe("the pairwise examples' trust fields", () => {
  it("give each panel the Beta posterior of its votes", () => {
    for (const { key, body } of panels) {
      for (const pair of body.pairs) {
        const k = pair.votesFor!;
        const m = pair.votesTotal! - k;
        expect(pair.win_probability, key).toMatchObject({ asset_id: pair.winnerId, value: expect.closeTo((1 + k) / (2 + k + m), 4), p_better: expect.closeTo(majorityProbability(k, m), 4) });
        expect(pair.win_probability!.ci_low, key).toBeLessThan(pair.win_probability!.value);
        expect(pair.win_probability!.value, key).toBeLessThan(pair.win_probability!.ci_high);
        for (const v of pair.votes) expect(v.modelVersion, `${key} ${v.voterId}`).toBeTruthy();
      }
    }
  });

  it("warn of a one-vote win and of the sim, and carry a receipt of the voters only", () => {
    for (const { key, body } of panels) {
      const codes = body.summary.warnings!.map((w) => w.code);
      expect(codes.includes("panel_split"), key).toBe(body.pairs.some((p) => p.votesFor! - (p.votesTotal! - p.votesFor!) === 1));
      expect(codes.includes("simulated"), key).toBe(body.summary.models!.simulated);
      const { method } = body.summary;
      expect(method, key).toMatchObject({ reference_sets: [], reference_similarity_limit: null, embedder: null, generators: [] });
      expect(method!.voters.map((v) => v.model), key).toEqual(body.summary.models!.voters);
      expect(method!.voters.map((v) => v.versions), key).toEqual(body.summary.models!.voters.map((model) => [...new Set(body.pairs.flatMap((p) => p.votes.filter((v) => v.model === model).map((v) => v.modelVersion)))]));
    }
    expect(panels.flatMap(({ body }) => body.summary.warnings!.map((w) => w.code)).sort()).toEqual(["panel_split", "simulated"]);
  });
});

describe("the calibration examples' reliability tables", () => {
  const groups = calibrations.flatMap(({ key, body }) => body.metrics.flatMap((m) => [m.pooled, ...m.goals].map((g) => ({ key: `${key} ${m.metric} ${g.goal ?? "pooled"}`, g }))));

  it("list the five bins from 0.5 to 1.0, with figures exactly where there are pairs", () => {
    expect(groups.length).toBeGreaterThan(0);
    for (const { key, g } of groups) {
      const bins = g.reliability!;
      expect(bins.map((b) => [b.p_low, b.p_high]), key).toEqual([[0.5, 0.6], [0.6, 0.7], [0.7, 0.8], [0.8, 0.9], [0.9, 1]]);
      for (const b of bins) {
        if (b.n_pairs === 0) {
          expect(b, key).toMatchObject({ mean_p: null, observed: null, ci_low: null, ci_high: null });
          continue;
        }
        expect(b.mean_p!, key).toBeGreaterThanOrEqual(b.p_low);
        expect(b.mean_p!, key).toBeLessThanOrEqual(b.p_high);
        expect(b.ci_low!, key).toBeLessThanOrEqual(b.observed!);
        expect(b.observed!, key).toBeLessThanOrEqual(b.ci_high!);
        // observed is a share of n_pairs pairs.
        expect(b.observed! * b.n_pairs, key).toBeCloseTo(Math.round(b.observed! * b.n_pairs), 2);
      }
      // Neighbouring pairs: at most one per outcome beyond the first of each ranking.
      expect(bins.reduce((sum, b) => sum + b.n_pairs, 0), key).toBeLessThanOrEqual(g.n_outcomes - g.n_requests);
    }
  });

  it("pool each metric's goals bin by bin", () => {
    for (const { key, body } of calibrations)
      for (const { pooled, goals } of body.metrics)
        pooled.reliability!.forEach((bin, i) => expect(bin.n_pairs, `${key} bin ${i}`).toBe(goals.reduce((sum, g) => sum + g.reliability![i]!.n_pairs, 0)));
  });
});
