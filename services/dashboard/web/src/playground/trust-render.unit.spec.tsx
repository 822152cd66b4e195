import { describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import type { PairAnswer, RankAnswer, RankedAsset } from "./answers.ts";
import { PanelResult } from "./PanelResult.tsx";
import { RankResults } from "./RankResults.tsx";

// What the playground shows of how sure an answer is, rendered as the browser gets it.

const asset = (rank: number, id: string, extra: Partial<RankedAsset> = {}): RankedAsset => ({ rank, asset_id: id, asset_url: "", score: 4 - rank / 10, confidence: "medium", copy_lift: 0, rationale: "Because", panel_outcome: null, ...extra });
const RECEIPT = {
  version: "2026-11.3",
  prompt_templates: ["9f2c4e1a7b3d5c60"],
  reference_sets: [{ hash: "a1b2c3d4e5f60718", mean_similarity: 0.612 }],
  reference_similarity_limit: 0.85,
  embedder: { model: "openai:text-embedding-3-small", dimensions: 1536 },
  generators: [{ model: "openai:gpt-5-mini", versions: ["gpt-5-mini-2025-08-07"], temperature: 1, thinking: "reasoning_effort=low" }],
  voters: [{ model: "sim:<b>voter</b>", versions: [], temperature: null, thinking: null }],
};
const ranking = (over: Partial<RankAnswer["summary"]> = {}, ranked = [asset(1, "summer.png", { p_above_next: 0.88, too_close_to_call: false }), asset(2, "spring.png", { p_above_next: 0.52, too_close_to_call: true }), asset(3, "autumn.png", { p_above_next: null, too_close_to_call: false })]): RankAnswer => ({
  ranked,
  errors: [],
  summary: {
    credits_used: 3,
    credits_remaining: 40,
    uncertainty: { repetition_noise_sd: 0.1, degrees_of_freedom: 6, adjacent_pairs: 2, too_close_to_call: 1 },
    warnings: [{ code: "batch_not_separated", message: "The 3 assets' scores differ by no more than the repetitions' own noise: the order is mostly chance." }],
    method: RECEIPT,
    ...over,
  },
});
const render = (answer: RankAnswer) => renderToStaticMarkup(<RankResults answer={answer} images={[]} withCopy={false} />);
const count = (html: string, needle: string) => html.split(needle).length - 1;

describe("the playground's ranking, how sure it is", () => {
  it("shows each image's chance of outranking the next, a badge only where that is a coin toss, the warning and the count", () => {
    const html = render(ranking());
    expect(html).toContain("88 % chance it truly outranks #2");
    expect(html).toContain("52 % chance it truly outranks #3");
    expect(count(html, 'data-testid="above-next"')).toBe(2);
    expect(count(html, 'data-testid="too-close"')).toBe(1);
    // The badge sits on the second card, the one too close to the third.
    const cards = html.split('data-testid="ranked-card"');
    expect(cards[2]).toContain("Too close to call");
    expect(cards[1]).not.toContain("Too close to call");
    expect(html).toContain('<li data-testid="answer-warning">The 3 assets&#x27; scores differ by no more than the repetitions&#x27; own noise: the order is mostly chance.<small');
    expect(html).toContain('<small class="warning-code">batch_not_separated</small>');
    expect(html).toContain("1 of 2 neighbouring pairs are too close to call");
  });

  it("keeps the receipt collapsed, with every model's versions and settings, its text escaped", () => {
    const html = render(ranking());
    expect(html).toMatch(/<details class="receipt" data-testid="method-receipt"><summary>How this was produced<\/summary>/);
    expect(html).toContain("<dt>Embedder</dt><dd><code>openai:text-embedding-3-small</code>, 1536 dimensions</dd>");
    expect(html).toContain("reported gpt-5-mini-2025-08-07 · temperature 1 · thinking reasoning_effort=low");
    expect(html).toContain("<code>sim:&lt;b&gt;voter&lt;/b&gt;</code>");
    expect(html).not.toContain("<b>voter");
  });

  it("renders server text as text, never as markup", () => {
    const html = render(ranking({ warnings: [{ code: "<i>new</i>", message: '<img src=x onerror="alert(1)">' }] }));
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  });

  it("shows an older server's ranking as before: no chances, no badge, no warnings, no receipt", () => {
    const html = render({ ranked: [asset(1, "summer.png"), asset(2, "spring.png")], errors: [], summary: { credits_used: 2, credits_remaining: 40 } });
    for (const absent of ["above-next", "too-close", "answer-warnings", "too-close-summary", "method-receipt"]) expect(html).not.toContain(`data-testid="${absent}"`);
    expect(count(html, 'data-testid="ranked-card"')).toBe(2);
  });
});

describe("the playground's panel, how sure it is", () => {
  const answer = (over: Partial<PairAnswer["pairs"][number]> = {}, summary: PairAnswer["summary"] = { credits_used: 1, credits_remaining: 9, warnings: [{ code: "panel_split", message: "One vote decided this panel." }], method: { ...RECEIPT, reference_sets: [], embedder: null, generators: [] } }): PairAnswer => ({
    pairs: [{ aId: "summer.png", bId: "spring.png", status: "done", winnerId: "summer.png", votesFor: 4, votesTotal: 5, winRate: 0.8, consistency: 0.6, votes: [], win_probability: { asset_id: "summer.png", value: 0.7143, ci_low: 0.3588, ci_high: 0.9567, p_better: 0.8906 }, ...over }],
    summary,
  });
  const renderPanel = (a: PairAnswer) => renderToStaticMarkup(<PanelResult pair={a.pairs[0]!} answer={a} />);

  it("says how sure the panel is, with the warning and the receipt", () => {
    const html = renderPanel(answer());
    expect(html).toContain("summer.png preferred by 71 % of voters (95 % interval 36–96 %); 89 % chance a majority prefers it.");
    expect(html).toContain("One vote decided this panel.");
    expect(html).toContain("How this was produced");
    // A pairwise receipt has no generators, embedder or reference sets: their rows are left out.
    expect(html).not.toContain("<dt>Generators</dt>");
    expect(html).not.toContain("<dt>Embedder</dt>");
    expect(html).toContain("<dt>Voters</dt>");
  });

  it("says simulated once: the SIMULATED note stands for the simulated warning, other warnings still show", () => {
    const simulated = { code: "simulated", message: "The offline sim model produced this answer." };
    const html = render(ranking({ warnings: [simulated, { code: "uniformly_positive", message: "Every one of the 3 assets scored 3.5 or more." }], models: { generators: ["sim:sim-gen-a"], embedder: "sim:sim-embed", voters: [], simulated: true } }));
    expect(html).not.toContain("The offline sim model produced this answer.");
    expect(html).toContain("Every one of the 3 assets scored 3.5 or more.");
    // Without the models note (an older server), the warning is where it is said.
    expect(render(ranking({ warnings: [simulated] }))).toContain("The offline sim model produced this answer.");
  });

  it("claims nothing when no vote counted, and shows an older server's panel as before", () => {
    expect(renderPanel(answer({ win_probability: null }))).not.toContain('data-testid="win-probability"');
    const older = renderPanel(answer({ win_probability: undefined }, { credits_used: 1, credits_remaining: 9 }));
    for (const absent of ["win-probability", "answer-warnings", "method-receipt"]) expect(older).not.toContain(`data-testid="${absent}"`);
  });
});
