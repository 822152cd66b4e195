import { describe, expect, it } from "vitest";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import {
  AudienceList,
  BEYOND_NOISE_PROBABILITY,
  LIMITS,
  RankAudiencesRequest,
  RankAudiencesResponse,
  RankResponse,
  TOO_CLOSE_TO_CALL,
  WARNING_CODES,
  type AudienceRanking,
} from "@adrank/contracts";
import { buildOpenApiDocument } from "../src/index.ts";
import { studentTEven } from "./fixtures/student-t.ts";

// POST /api/v1/rank/audiences (rankAcrossAudiences) in the document: the operation beside
// rankAssets, its schemas, examples whose every figure follows from the repetition scores they
// show under the rules of the response schema, its samples and its guide section.

type Example = { summary: string; description?: string; value: unknown };
type Media = { schema: { $ref: string }; examples: Record<string, Example> };
type Response = { description: string; headers?: Record<string, unknown>; content?: Record<string, Media> };
type Operation = {
  operationId: string;
  tags: string[];
  summary: string;
  description: string;
  parameters?: Array<{ $ref: string }>;
  requestBody: { required: boolean; content: Record<string, Media> };
  responses: Record<string, Response>;
  "x-codeSamples": Array<{ lang: string; label: string; source: string }>;
};
type Doc = { info: { description: string }; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

const doc = buildOpenApiDocument() as unknown as Doc;
const rank = doc.paths["/api/v1/rank"]!.post!;
const op = doc.paths["/api/v1/rank/audiences"]!.post!;
const examples = (response: Response) => Object.entries(response.content!["application/json"]!.examples).map(([key, e]) => ({ key, ...e }));
const requestBodies = Object.entries(op.requestBody.content["application/json"]!.examples).map(([key, e]) => ({ key, body: RankAudiencesRequest.parse(e.value) }));
const answers = examples(op.responses["200"]!).map((e) => ({ key: e.key, body: RankAudiencesResponse.parse(e.value) }));

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ $id: "doc", components: doc.components }, "doc");
const documented = (name: string) => ajv.compile({ $ref: `doc#/components/schemas/${name}` });

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const squaredDeviations = (xs: readonly number[]) => xs.reduce((sum, x) => sum + (x - mean(xs)) ** 2, 0);

/** The repetition noise pooled over rankings' assets: s and its degrees of freedom. */
function pooledNoise(rankings: readonly AudienceRanking[]) {
  const repetitions = rankings.flatMap((r) => r.ranked.map((a) => a.details.repetitionScores));
  const df = repetitions.reduce((sum, r) => sum + r.length - 1, 0);
  return { s: Math.sqrt(repetitions.reduce((sum, r) => sum + squaredDeviations(r), 0) / df), df };
}

/** One-sided probability that a difference d of two 3-repetition means is real, under noise s with df degrees of freedom. */
const orderProbability = (d: number, { s, df }: { s: number; df: number }) => studentTEven(d / (s * Math.sqrt(2 / 3)), df);

/** Spearman's rho with midranks for ties: the Pearson correlation of the ranks. */
function spearman(xs: readonly number[], ys: readonly number[]): number {
  const ranks = (v: readonly number[]) => v.map((x) => v.filter((y) => y < x).length + (v.filter((y) => y === x).length + 1) / 2);
  const [rx, ry] = [ranks(xs), ranks(ys)];
  const [mx, my] = [mean(rx), mean(ry)];
  const cov = rx.reduce((sum, r, i) => sum + (r - mx) * (ry[i]! - my), 0);
  return cov / Math.sqrt(squaredDeviations(rx) * squaredDeviations(ry));
}

const rawScore = (ranking: AudienceRanking, assetId: string | null) => ranking.ranked.find((a) => a.asset_id === assetId)?.score_before_refine;

describe("POST /api/v1/rank/audiences in the document", () => {
  it("sits beside rankAssets: same tag, Idempotency-Key, headers and every status rank has", () => {
    expect(op.operationId).toBe("rankAcrossAudiences");
    expect(op.tags).toEqual(rank.tags);
    expect(op.parameters).toEqual(rank.parameters);
    expect(op.requestBody).toMatchObject({ required: true, content: { "application/json": { schema: { $ref: "#/components/schemas/RankAudiencesRequest" } } } });
    expect(Object.keys(op.responses).sort()).toEqual(Object.keys(rank.responses).sort());
    for (const status of Object.keys(rank.responses)) expect(Object.keys(op.responses[status]!.headers ?? {}), status).toEqual(Object.keys(rank.responses[status]!.headers ?? {}));
    expect(op.responses["200"]!.content!["application/json"]!.schema).toEqual({ $ref: "#/components/schemas/RankAudiencesResponse" });
    // Shared answers stay shared: the same 400, 401, 409, 413, 429 and 500 as rank.
    for (const status of ["400", "401", "409", "413", "429", "500"]) expect(op.responses[status], status).toEqual(rank.responses[status]);
    // A 404 names the audience in the list, as the gateway does.
    const notFound = Object.values(op.responses["404"]!.content!["application/json"]!.examples).map((e) => e.value);
    expect(notFound).toEqual([expect.objectContaining({ field: "audiences[2].audience_id" })]);
  });

  it("explains what the answer adds and what it costs", () => {
    for (const fact of ["/api/v1/rank", "by_audience", "comparison", "reversals", "audience_sensitivity", "persona_made_no_difference", `${BEYOND_NOISE_PROBABILITY}`, "once for all audiences", "422", "`audiences`", "60"]) {
      expect(op.description, fact).toContain(fact);
    }
  });

  it("refuses with 422 a request that could never fit one minute of the key's rate limit, as the gateway words it", () => {
    const oversized = op.responses["422"]!.content!["application/json"]!.examples.tooManyEvaluations!.value;
    expect(oversized).toEqual({
      error: "This request needs up to 200 scoring evaluations (20 assets × 5 audiences × 2 with copy); one request may use at most 60, the key's rate limit per minute. Send fewer assets or audiences.",
      field: "audiences",
    });
    expect(LIMITS.assetsMax * LIMITS.audiencesMax * 2).toBe(200);
  });

  it("shows the schema's own refusals: one audience, a name repeated in another case, rank's audience property", () => {
    const refusals = op.responses["422"]!.content!["application/json"]!.examples;
    expect(refusals.oneAudience!.value).toMatchObject({ field: "audiences" });
    expect(refusals.sameName!.value).toEqual({ error: expect.stringContaining("must be unique"), field: "audiences[1].name" });
    expect(refusals.rankAudience!.value).toEqual({ error: "audience is not an allowed property.", field: "audience" });
  });

  it("registers every schema of the operation under the id its contract gives it", () => {
    for (const id of ["RankAudiencesRequest", "SavedAudienceChoice", "InlineAudience", "RankAudiencesResponse", "AudienceRanking", "AssetComparison", "AudienceReversal", "AudienceSensitivity", "RankAudiencesSummary"]) {
      expect(doc.components.schemas[id], id).toBeDefined();
    }
    const ranking = doc.components.schemas.AudienceRanking as { properties: Record<string, { $ref?: string; items?: { $ref: string } }> };
    expect(ranking.properties.ranked!.items).toEqual({ $ref: "#/components/schemas/RankedAsset" });
    expect(ranking.properties.summary!.$ref).toBe("#/components/schemas/RankSummary");
  });

  it("documents the request as clients send it: saved or inline audiences, and no unknown property", () => {
    const check = documented("RankAudiencesRequest");
    const assets = [{ url: "https://cdn.example.com/a.png" }];
    expect(check({ assets, audiences: [{ audience_id: "aud_1" }, { name: "Runners", demographics: { priceSensitivity: "high" } }] }), JSON.stringify(check.errors)).toBe(true);
    expect(check({ assets, audiences: [{ audience_id: "aud_1" }, { audience_id: "aud_2" }], refine_close_pairs: false, async: true, webhook_url: "https://hooks.example.com/x" })).toBe(true);
    expect(check({ assets, audiences: [{ audience_id: "aud_1" }, { audience_id: "aud_2" }], audience_id: "aud_3" })).toBe(false);
    expect(check({ assets, audiences: [{ audience_id: "aud_1" }] })).toBe(false);
    expect(check({ assets, audiences: [{ audience_id: "aud_1", name: "x" }, { audience_id: "aud_2" }] })).toBe(false);
  });
});

describe("the rankAcrossAudiences examples", () => {
  const first = requestBodies[0]!.body;
  const saved = AudienceList.parse(examples(doc.paths["/api/v1/audiences"]!.get!.responses["200"]!)[0]!.value).audiences;

  it("ask for two inline audiences with demographics that pull apart, and a saved one", () => {
    const inline = first.audiences.filter((a) => "name" in a);
    expect(inline.map((a) => a.demographics)).toEqual([expect.objectContaining({ priceSensitivity: "very-high" }), expect.objectContaining({ adSkepticism: "very-high" })]);
    const ids = first.audiences.flatMap((a) => ("audience_id" in a ? [a.audience_id] : []));
    expect(ids).toHaveLength(1);
    expect(saved.map((a) => a.id)).toContain(ids[0]);
    expect(requestBodies.some(({ body }) => body.async)).toBe(true);
  });

  for (const { key, body } of answers) {
    describe(key, () => {
      const names = first.audiences.map((a) => ("name" in a ? a.name : saved.find((s) => s.id === a.audience_id)!.name));

      it("answers the first request example: its audiences in order, its assets, goal and platform", () => {
        expect(body.by_audience.map((r) => r.audience)).toEqual(names);
        expect(body.by_audience.map((r) => r.audience_id)).toEqual(first.audiences.map((a) => ("audience_id" in a ? a.audience_id : null)));
        expect(body.summary.audiences).toEqual(names);
        for (const ranking of body.by_audience) {
          expect([...ranking.ranked, ...ranking.errors].map((a) => a.asset_id).sort()).toEqual(first.assets.map((a) => a.id).sort());
          expect(ranking.summary).toMatchObject({ goal: first.goal, platform: first.platform, asset_type: first.asset_type, audience: ranking.audience });
        }
      });

      it("gives each audience exactly the ranking POST /api/v1/rank answers, its balance left to the request", () => {
        for (const ranking of body.by_audience) {
          const { audience: _a, audience_id: _i, ...rankBody } = ranking;
          expect(RankResponse.safeParse({ request_id: body.request_id, ...rankBody }).success, ranking.audience).toBe(true);
          expect(ranking.ranked.map((a) => a.rank)).toEqual(ranking.ranked.map((_, i) => i + 1));
          ranking.ranked.forEach((asset, i) => {
            if (i > 0) expect(asset.score, `${ranking.audience} rank ${asset.rank}`).toBeLessThanOrEqual(ranking.ranked[i - 1]!.score);
            expect(asset.score).toBeCloseTo(mean(asset.details.repetitionScores), 2);
          });
          // Its evaluations: 2 for an asset sent with copy, 1 for an image alone.
          const evaluations = ranking.ranked.reduce((sum, a) => sum + (first.assets.find((x) => x.id === a.asset_id)!.copy_context ? 2 : 1), 0);
          expect(ranking.summary).toMatchObject({ scoring_evaluations: evaluations, credits_used: evaluations, credits_remaining: null, assets_ranked: ranking.ranked.length });
          expect(ranking.summary).not.toHaveProperty("credits_status");
        }
      });

      it("gives each ranking p_above_next and uncertainty from its own repetitions, as rank does", () => {
        for (const ranking of body.by_audience) {
          const noise = pooledNoise([ranking]);
          ranking.ranked.forEach((asset, i) => {
            const next = ranking.ranked[i + 1];
            const p = next ? orderProbability(mean(asset.details.repetitionScores) - mean(next.details.repetitionScores), noise) : null;
            if (p === null) expect(asset.p_above_next).toBeNull();
            else expect(asset.p_above_next, `${ranking.audience} rank ${asset.rank}`).toBeCloseTo(p, 4);
            expect(asset.too_close_to_call).toBe(p !== null && p >= TOO_CLOSE_TO_CALL.low && p <= TOO_CLOSE_TO_CALL.high);
          });
          expect(ranking.summary.uncertainty).toEqual({
            repetition_noise_sd: expect.closeTo(noise.s, 4),
            degrees_of_freedom: noise.df,
            adjacent_pairs: ranking.ranked.length - 1,
            too_close_to_call: ranking.ranked.filter((a) => a.too_close_to_call).length,
          });
          // No close pair (less than 0.30 apart) was left unrefined.
          for (let i = 1; i < ranking.ranked.length; i++) expect(ranking.ranked[i - 1]!.score - ranking.ranked[i]!.score).toBeGreaterThanOrEqual(0.3);
        }
      });

      it("compares each asset across the audiences: scores, ranks, spread, best and worst", () => {
        expect(body.comparison.map((c) => c.asset_index)).toEqual(first.assets.map((_, i) => i));
        body.comparison.forEach((c, i) => {
          expect(c).toMatchObject({ asset_id: first.assets[i]!.id, asset_url: first.assets[i]!.url });
          expect(c.scores).toEqual(
            body.by_audience.map((r) => {
              const asset = r.ranked.find((a) => a.asset_id === c.asset_id)!;
              return { audience: r.audience, score: asset.score, score_before_refine: asset.score_before_refine, rank: asset.rank };
            }),
          );
          const finals = c.scores.map((s) => s.score!);
          expect(c.spread).toBeCloseTo(Math.max(...finals) - Math.min(...finals), 10);
          expect(c.best_audience).toBe(c.scores[finals.indexOf(Math.max(...finals))]!.audience);
          expect(c.worst_audience).toBe(c.scores[finals.lastIndexOf(Math.min(...finals))]!.audience);
        });
      });

      it("lists exactly the reversals beyond noise in both audiences, with gaps, swing and p_order from the scores, largest swing first", () => {
        const expected = [];
        const rankings = body.by_audience;
        for (let x = 0; x < rankings.length; x++)
          for (let y = x + 1; y < rankings.length; y++) {
            const noise = pooledNoise([rankings[x]!, rankings[y]!]);
            for (let i = 0; i < first.assets.length; i++)
              for (let j = i + 1; j < first.assets.length; j++) {
                const [a, b] = [first.assets[i]!.id ?? null, first.assets[j]!.id ?? null];
                const lead = (r: AudienceRanking) => rawScore(r, a)! - rawScore(r, b)!;
                const finalOrder = (r: AudienceRanking) => Math.sign(r.ranked.findIndex((asset) => asset.asset_id === b) - r.ranked.findIndex((asset) => asset.asset_id === a));
                const [dx, dy] = [lead(rankings[x]!), lead(rankings[y]!)];
                if (Math.sign(dx) * Math.sign(dy) >= 0) continue;
                const [px, py] = [orderProbability(Math.abs(dx), noise), orderProbability(Math.abs(dy), noise)];
                if (px < BEYOND_NOISE_PROBABILITY || py < BEYOND_NOISE_PROBABILITY) continue;
                if (finalOrder(rankings[x]!) !== Math.sign(dx) || finalOrder(rankings[y]!) !== Math.sign(dy)) continue;
                const [prefersA, prefersB] = dx > 0 ? [[rankings[x]!, dx, px], [rankings[y]!, dy, py]] as const : [[rankings[y]!, dy, py], [rankings[x]!, dx, px]] as const;
                const side = ([r, d, p]: readonly [AudienceRanking, number, number]) => ({ audience: r.audience, score_a: rawScore(r, a), score_b: rawScore(r, b), gap: expect.closeTo(Math.abs(d), 10), p_order: expect.closeTo(p, 4) });
                expected.push({ swing: Math.abs(dx) + Math.abs(dy), value: { asset_a: { asset_index: i, asset_id: a, asset_url: first.assets[i]!.url }, asset_b: { asset_index: j, asset_id: b, asset_url: first.assets[j]!.url }, prefers_a: side(prefersA), prefers_b: side(prefersB), swing: expect.closeTo(Math.abs(dx) + Math.abs(dy), 10) } });
              }
          }
        expect(body.reversals).toEqual(expected.sort((p, q) => q.swing - p.swing).map((e) => e.value));
        expect(body.reversals.length).toBeGreaterThan(0);
      });

      it("judges every pair of audiences: rank correlation, largest change, and whether the persona made no difference", () => {
        const expected = [];
        for (let x = 0; x < body.by_audience.length; x++)
          for (let y = x + 1; y < body.by_audience.length; y++) {
            const [rx, ry] = [body.by_audience[x]!, body.by_audience[y]!];
            const both = rx.ranked.filter((a) => rawScore(ry, a.asset_id) !== undefined);
            const differences = both.map((a) => a.score_before_refine - rawScore(ry, a.asset_id)!);
            const noise = pooledNoise([rx, ry]);
            const withinNoise = differences.every((d) => orderProbability(Math.abs(d), noise) < BEYOND_NOISE_PROBABILITY);
            expected.push({
              audience_a: rx.audience,
              audience_b: ry.audience,
              assets_compared: both.length,
              rank_correlation: expect.closeTo(spearman(both.map((a) => a.score), both.map((a) => ry.ranked.find((b) => b.asset_id === a.asset_id)!.score)), 4),
              largest_score_change: expect.closeTo(Math.max(...differences.map(Math.abs)), 10),
              persona_made_no_difference: both.length > 0 && withinNoise,
            });
          }
        expect(body.audience_sensitivity).toEqual(expected);
        // The reader sees both outcomes of the flag.
        expect(body.audience_sensitivity.map((s) => s.persona_made_no_difference)).toEqual(expect.arrayContaining([true, false]));
      });

      it("sums the audiences in its summary, with the request's credits side by side, and warns once per finding", () => {
        const total = (pick: (r: AudienceRanking) => number) => body.by_audience.reduce((sum, r) => sum + pick(r), 0);
        expect(body.summary).toMatchObject({
          goal: first.goal,
          platform: first.platform,
          assets_ranked: total((r) => r.summary.assets_ranked),
          assets_failed: total((r) => r.summary.assets_failed),
          scoring_evaluations: total((r) => r.summary.scoring_evaluations),
          credits_used: total((r) => r.summary.credits_used),
          close_pairs_refined: total((r) => r.summary.close_pair_refinement.pairs_evaluated),
          credits_status: "confirmed",
        });
        expect(body.summary.credits_remaining).toEqual(expect.any(Number));
        const keys = Object.keys(body.summary);
        expect(keys.slice(keys.indexOf("credits_used"), keys.indexOf("credits_used") + 3)).toEqual(["credits_used", "credits_remaining", "credits_status"]);
        const codes = body.summary.warnings.map((w) => w.code);
        for (const code of codes) expect(WARNING_CODES as readonly string[]).toContain(code);
        expect(codes.includes("persona_made_no_difference")).toBe(body.audience_sensitivity.some((s) => s.persona_made_no_difference));
        const fromRankings = new Set(body.by_audience.flatMap((r) => (r.summary.warnings ?? []).map((w) => w.code)));
        expect(codes.filter((c) => c !== "persona_made_no_difference").sort()).toEqual([...fromRankings].sort());
        expect(codes.includes("simulated")).toBe(body.summary.models.simulated);
      });
    });
  }

  it("shows the 402 of a batch the credits cannot cover, in rank's words", () => {
    const [insufficient] = examples(op.responses["402"]!);
    expect((insufficient!.value as { error: string }).error).toMatch(/^Insufficient credits: this request can use up to \d+ scoring evaluations and the account has \d+ credits?\. Nothing was charged\.$/);
  });
});

describe("the rankAcrossAudiences code samples", () => {
  const source = (label: string) => op["x-codeSamples"].find((s) => s.label === label)!.source;

  it("call client.rankAcrossAudiences(body, { idempotencyKey }) and the CLI's rank with several audiences", () => {
    expect(op["x-codeSamples"].map((s) => s.label)).toEqual(["curl", "TypeScript SDK", "CLI"]);
    expect(source("curl")).toMatch(/^curl -X POST "\$ADRANK_BASE_URL\/api\/v1\/rank\/audiences"/);
    expect(source("TypeScript SDK")).toMatch(/await adrank\.rankAcrossAudiences\(\{[\s\S]*\}, \{ idempotencyKey \}\);\n/);
    expect(source("CLI")).toMatch(/^adrank rank sunrise-run\.png studio-shoe\.png sale-badge\.png \\\n {2}--audiences audiences\.json \\\n {2}--audience-id aud_/m);
  });
});

describe("the guide's Audiences side by side section", () => {
  const guide = doc.info.description;
  const start = guide.indexOf("## Audiences side by side\n");
  const section = guide.slice(start, guide.indexOf("\n## ", start + 1));

  it("follows How sure is it, whose statistics it uses", () => {
    expect(start).toBeGreaterThan(guide.indexOf("## How sure is it\n"));
    expect(start).toBeLessThan(guide.indexOf("## Measuring fidelity\n"));
  });

  it("says what it does, how a difference is judged, what it costs, and why the flag exists", () => {
    for (const fact of [
      "POST /api/v1/rank/audiences", `${LIMITS.audiencesMin} to ${LIMITS.audiencesMax} audiences`, '{ "audience_id": "…" }', "case or surrounding spaces", "exactly what POST /api/v1/rank answers",
      "`score_before_refine`", "s·√(2/3)", `${BEYOND_NOISE_PROBABILITY} or more`, "`p_order`", "`swing`", "`persona_made_no_difference`", "in either direction",
      "assets × audiences", "up to 2 per creative with `copy_context`", "60 evaluations per trailing minute", "`422`", '"field": "audiences"', "up to 200", "prepared once for all audiences",
      "changes what the model says", "more than what it decides", "docs/sim-personas.md", '"operation": "rank_audiences"', "client.rankAcrossAudiences(body, { idempotencyKey })",
      'adrank rank a.png b.png --audience-name "Trail runners" --audience-name "New parents"', "--audiences audiences.json",
    ]) {
      expect(section, fact).toContain(fact);
    }
  });

  it("works its example out from the example answer's figures", () => {
    const body = answers[0]!.body;
    const [bargain, skeptics, trail] = body.by_audience as [AudienceRanking, AudienceRanking, AudienceRanking];
    const reversal = pooledNoise([bargain, skeptics]);
    const se = reversal.s * Math.sqrt(2 / 3);
    expect(section).toContain(`s = ${reversal.s.toFixed(4)} with df = ${reversal.df}, so s·√(2/3) = ${se.toFixed(4)}, t = ${(0.55 / se).toFixed(2)} and ${(0.5 / se).toFixed(2)}`);
    expect(section).toContain(`\`p_order\` ${orderProbability(0.55, reversal).toFixed(4)} and ${orderProbability(0.5, reversal).toFixed(4)}`);
    expect(section).toContain(`swing of ${body.reversals[0]!.swing.toFixed(2)}`);
    const alike = pooledNoise([skeptics, trail]);
    const largest = body.audience_sensitivity.find((s) => s.persona_made_no_difference)!.largest_score_change!;
    const t = largest / (alike.s * Math.sqrt(2 / 3));
    expect(section).toContain(`at most ${largest.toFixed(2)} on any creative: with s = ${alike.s.toFixed(4)}, t = ${largest.toFixed(2)} / ${(alike.s * Math.sqrt(2 / 3)).toFixed(4)} = ${t.toFixed(2)} and T_${alike.df}(${t.toFixed(2)}) = ${studentTEven(t, alike.df).toFixed(2)}`);
  });
});
