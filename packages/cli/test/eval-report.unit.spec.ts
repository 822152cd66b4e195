import { describe, expect, it } from "vitest";
import type { Estimate, Figures } from "@adrank/eval-stats";
import type { EvalGroup, EvalPoint, EvalResult } from "../src/eval/eval-result.ts";
import { evalReportHtml } from "../src/eval/html/eval-report.ts";
import { shortLabels } from "../src/eval/html/short-labels.ts";

const SIM_MODELS = { generators: ["sim:sim-gen-a", "sim:sim-gen-b"], embedder: "sim:sim-embed", voters: ["sim:sim-voter"], simulated: true };
const REAL_MODELS = { generators: ["openai:gpt-5-mini"], embedder: "openai:text-embedding-3-small", voters: ["openai:gpt-5-mini"], simulated: false };

const est = (value: number, ci_low: number, ci_high: number): Estimate => ({ value, ci_low, ci_high });
const figures = (over: Partial<Figures> = {}): Figures => ({
  n: 4,
  strata: 1,
  pairs: 6,
  spearman_rho: est(0.8, 0.4, 1),
  kendall_tau_b: est(0.67, 0.33, 1),
  pairwise_agreement: est(0.9, 0.7, 1),
  pairwise_agreement_raw: est(0.83, 0.6, 1),
  ...over,
});
const NO_FIGURES = figures({ n: 1, pairs: 0, spearman_rho: null, kendall_tau_b: null, pairwise_agreement: null, pairwise_agreement_raw: null });

const point = (id: string, score: number, outcome: number): EvalPoint => ({ id, image: `ads/${id}`, outcome, score, score_before_refine: score - 0.05, request_id: "7d0c2f8e-4f6b-4a43-9a55-1b1d6c3b2a10" });
const group = (campaign: string, points: EvalPoint[], f: Figures): EvalGroup => ({ campaign, audience: "Trail runners", goal: "engagement", label: `${campaign} / Trail runners / engagement`, request_ids: ["7d0c2f8e-4f6b-4a43-9a55-1b1d6c3b2a10"], points, figures: f });

const SPRING = [point("a.png", 4.2, 0.031), point("b.png", 3.1, 0.012), point("c.png", 3.8, 0.02), point('d"<b>.png', 2.4, 0.005)];
const HOSTILE = [point("x.png", 3.3, 0.018)];

function result(over: Partial<EvalResult> = {}): EvalResult {
  return {
    version: 1,
    dataset: { path: "data/spring.csv", sha256: "ab".repeat(32), format: "csv", rows: 5, metric: "ctr" },
    api: { base_url: "http://127.0.0.1:8080", models: [SIM_MODELS], simulated: true },
    started_at: "2026-11-27T10:02:11.000Z",
    finished_at: "2026-11-27T10:03:34.000Z",
    credits_used: 17,
    requests: 2,
    outcomes: {
      refine: true,
      groups: [group("spring", SPRING, figures()), group("<script>alert(1)</script>", HOSTILE, NO_FIGURES)],
      pooled: figures({ n: 5, strata: 2, spearman_rho: est(0.7, 0.2, 0.95) }),
      failed: [{ id: "broken.png", image: "ads/broken.png", error: 'The image <img src=x onerror="alert(2)"> could not be decoded.' }],
    },
    pairs: null,
    ...over,
  };
}

const PAIRS: EvalResult["pairs"] = {
  n: 3,
  completed: 2,
  agreement: est(0.5, 0, 1),
  groups: [{ label: "spring / Trail runners / engagement", n: 3, completed: 2, agreement: est(0.5, 0, 1) }],
  items: [
    { image_a: "a.png", image_b: "b.png", label: "a", panel_winner: "a", votes_a: 4, votes_b: 1, request_id: "r1", group: "spring / Trail runners / engagement" },
    { image_a: "c.png", image_b: "https://cdn.example.com/d.png", label: "b", panel_winner: "a", votes_a: 3, votes_b: 2, request_id: "r1", group: "spring / Trail runners / engagement" },
    { image_a: "e.png", image_b: "f.png", label: "a", panel_winner: null, votes_a: 1, votes_b: 1, request_id: "r1", group: "spring / Trail runners / engagement" },
  ],
};

/** The visible text of the page, tags removed and entities read back. */
const textOf = (html: string) =>
  html
    .replace(/<style>[\s\S]*?<\/style>/, "")
    .replace(/<title>[\s\S]*?<\/title>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");

const attr = (tag: string, name: string) => {
  const m = new RegExp(`\\s${name}="([^"]*)"`).exec(tag);
  return m ? m[1]! : expect.fail(`${tag} has no ${name}`);
};
const num = (tag: string, name: string) => Number(attr(tag, name));

/** The SVGs of the page, in order. */
const svgs = (html: string) => [...html.matchAll(/<svg class="plot"[\s\S]*?<\/svg>/g)].map((m) => m[0]);

describe("evalReportHtml", () => {
  it("escapes every text from the dataset and the API (a campaign named <script>, ids, errors)", () => {
    const html = evalReportHtml(result());
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt; / Trail runners / engagement");
    expect(html).toContain('data-id="d&quot;&lt;b&gt;.png"');
    expect(textOf(html)).toContain('The image <img src=x onerror="alert(2)"> could not be decoded.');
    expect(textOf(html)).toContain("<script>alert(1)</script> / Trail runners / engagement");
  });

  it("shows a Simulated badge and a plain warning when the sim model answered, and neither otherwise", () => {
    const sim = textOf(evalReportHtml(result()));
    expect(evalReportHtml(result())).toContain(`<span class="sim">Simulated</span>`);
    expect(sim).toContain("These scores come from the offline sim model (pixel statistics and copy heuristics), not a language model.");
    expect(sim).toContain("Measure that with real providers and your own creatives and outcomes.");
    expect(sim).toContain("Models: generators sim:sim-gen-a, sim:sim-gen-b · embedder sim:sim-embed · voters sim:sim-voter");

    const realHtml = evalReportHtml(result({ api: { base_url: "https://api.adrank.example", models: [REAL_MODELS], simulated: false } }));
    expect(realHtml).not.toMatch(/simulated/i);
    expect(textOf(realHtml)).toContain("Models: generators openai:gpt-5-mini · embedder openai:text-embedding-3-small · voters openai:gpt-5-mini");
  });

  it("names the dataset, the credits used and the figures per group and pooled, with their intervals", () => {
    const text = textOf(evalReportHtml(result()));
    expect(text).toContain("Evaluation of data/spring.csv");
    expect(text).toContain("17 credits used");
    expect(text).toMatch(/spring \/ Trail runners \/ engagement 4 6 0\.80 \[0\.40, 1\.00\] 0\.67 \[0\.33, 1\.00\] 0\.83 \[0\.60, 1\.00\] 0\.90 \[0\.70, 1\.00\]/);
    expect(text).toMatch(/Pooled \(2 groups\) 5 6 0\.70 \[0\.20, 0\.95\]/);
    expect(text).toMatch(/broken\.png ads\/broken\.png ?: The image/);
  });

  it('says "not enough data" where a figure is null, in the table and in the agreement plot', () => {
    const html = evalReportHtml(result());
    const hostileRow = html.split("<tr").find((row) => row.includes("&lt;script&gt;"))!;
    expect(textOf(hostileRow).match(/not enough data/g)).toHaveLength(4);
    const forest = svgs(html)[1]!;
    expect(forest).toContain(`<text class="no-data"`);
    expect(textOf(forest)).toContain("not enough data");
  });

  it("draws each creative inside the score-outcome plot, higher scores to the right and higher outcomes up", () => {
    const scatter = svgs(evalReportHtml(result()))[0]!;
    const area = /<rect class="plot-area"[^>]*>/.exec(scatter)![0];
    const [x, y, w, h] = [num(area, "x"), num(area, "y"), num(area, "width"), num(area, "height")];
    const dots = [...scatter.matchAll(/<circle class="point"[^>]*>/g)].map((m) => ({ id: attr(m[0], "data-id"), cx: num(m[0], "cx"), cy: num(m[0], "cy") }));
    expect(dots.map((d) => d.id)).toEqual(["a.png", "b.png", "c.png", "d&quot;&lt;b&gt;.png", "x.png"]);
    for (const d of dots) {
      expect(d.cx).toBeGreaterThanOrEqual(x);
      expect(d.cx).toBeLessThanOrEqual(x + w);
      expect(d.cy).toBeGreaterThanOrEqual(y);
      expect(d.cy).toBeLessThanOrEqual(y + h);
    }
    const all = [...SPRING, ...HOSTILE];
    const byScore = [...dots].sort((a, b) => a.cx - b.cx).map((d) => d.id);
    const byOutcome = [...dots].sort((a, b) => b.cy - a.cy).map((d) => d.id);
    const escapeId = (id: string) => id.replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
    expect(byScore).toEqual([...all].sort((a, b) => a.score - b.score).map((p) => escapeId(p.id)));
    expect(byOutcome).toEqual([...all].sort((a, b) => a.outcome - b.outcome).map((p) => escapeId(p.id)));
    // One colour per group.
    const fills = [...scatter.matchAll(/<circle class="point"[^>]*fill="([^"]+)"/g)].map((m) => m[1]);
    expect(new Set(fills.slice(0, 4)).size).toBe(1);
    expect(fills[4]).not.toBe(fills[0]);
  });

  it("draws agreement by group on a 0..1 axis with its interval and a dashed chance line at 0.5", () => {
    const forest = svgs(evalReportHtml(result()))[1]!;
    const area = /<rect class="plot-area"[^>]*>/.exec(forest)![0];
    const [x, w] = [num(area, "x"), num(area, "width")];
    const at = (v: number) => x + v * w;
    const chance = /<line class="chance"[^>]*>/.exec(forest)![0];
    expect(num(chance, "x1")).toBeCloseTo(at(0.5), 0);
    // Row 0 (spring), refined: 0.90 [0.70, 1.00].
    const refined = /<g class="estimate" data-series="refined" data-row="0">[\s\S]*?<\/g>/.exec(forest)![0];
    const whisker = /<line class="whisker"[^>]*>/.exec(refined)![0];
    const dot = /<circle class="point"[^>]*>/.exec(refined)![0];
    expect(num(whisker, "x1")).toBeCloseTo(at(0.7), 0);
    expect(num(whisker, "x2")).toBeCloseTo(at(1), 0);
    expect(num(dot, "cx")).toBeCloseTo(at(0.9), 0);
    // The pooled row (row 2) has both series; the group without data none.
    expect(forest).toContain(`data-series="raw" data-row="2"`);
    expect(forest).not.toContain(`data-row="1"`);
  });

  it("shows only raw agreement when refinement was off", () => {
    const off = result();
    off.outcomes = { ...off.outcomes!, refine: false };
    const html = evalReportHtml(off);
    expect(textOf(html)).toContain("Agreement (no refinement)");
    expect(html).not.toContain("Agreement, refined");
    expect(html).not.toContain(`data-series="refined"`);
  });

  it("lists labelled pairs with the panel's verdict, and plots panel agreement; no scatter without outcomes", () => {
    const html = evalReportHtml(result({ outcomes: null, pairs: PAIRS }), new Map([["a.png", "data:image/png;base64,iVBORw0KGgo="]]));
    const text = textOf(html);
    expect(svgs(html)).toHaveLength(1);
    expect(text).toContain("Panel agreement with the labelled winner");
    expect(text).toMatch(/a\.png b\.png A A 4 : 1 agrees/);
    expect(text).toMatch(/c\.png https:\/\/cdn\.example\.com\/d\.png B A 3 : 2 disagrees/);
    expect(text).toMatch(/e\.png f\.png A – 1 : 1 incomplete/);
    expect(text).toContain("1 pair did not get a completed panel and is left out.");
    expect(html).toContain(`<img class="thumb" src="data:image/png;base64,iVBORw0KGgo=" alt="a.png">`);
  });

  it("loads nothing from outside: no script, no link, only data-URI images, a CSP that forbids the rest", () => {
    const thumbnails = new Map([
      ["a.png", "data:image/png;base64,iVBORw0KGgo="],
      ["b.png", "https://tracker.example.com/pixel.png"],
      ["c.png", 'data:image/png;base64,AAAA" onerror="alert(1)'],
    ]);
    const html = evalReportHtml(result({ pairs: PAIRS }), thumbnails);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">`);
    expect(html).not.toMatch(/<script|<link|<iframe|@import|url\(|href=/i);
    const srcs = [...html.matchAll(/\ssrc="([^"]*)"/g)].map((m) => m[1]!);
    expect(srcs.length).toBeGreaterThan(0);
    expect(srcs.every((s) => s.startsWith("data:image/png;base64,"))).toBe(true);
    expect(html).not.toContain("tracker.example.com/pixel.png");
    expect(html).not.toContain("AAAA");
  });
});

describe("shortLabels", () => {
  it("leaves out the parts every group shares, keeping what tells them apart", () => {
    expect(shortLabels(["spring / Runners / engagement", "autumn / Runners / engagement"])).toEqual(["spring", "autumn"]);
    expect(shortLabels(["spring / Runners / engagement", "spring / Runners / purchase-intent"])).toEqual(["engagement", "purchase-intent"]);
    expect(shortLabels(["Runners / engagement", "spring / Runners / engagement"])).toEqual(["no campaign", "spring"]);
    expect(shortLabels(["spring / Runners / engagement"])).toEqual(["spring / Runners / engagement"]);
  });
});
