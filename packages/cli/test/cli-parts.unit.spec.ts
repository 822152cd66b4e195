import { describe, expect, it } from "vitest";
import { AuthenticationError, ValidationError, type PairwiseResponse, type RankResponse } from "@adrank/sdk";
import { pairwiseLines } from "../src/commands/pairwise.ts";
import { copyForImages } from "../src/copy-file.ts";
import { errorLine } from "../src/error-line.ts";
import { htmlReport } from "../src/html-report.ts";
import { sniffImageType } from "../src/image-file.ts";
import { modelsNote, wantsColour } from "../src/models-note.ts";
import { rankedTable } from "../src/ranked-table.ts";
import { UsageError } from "../src/usage-error.ts";

const ranked = (rank: number, id: string, score: number, extra: Partial<RankResponse["ranked"][number]> = {}) =>
  ({ rank, asset_url: `data:image/png;base64,AAAA${rank}`, asset_id: id, score, score_before_refine: score, score_layer: "image-only", asset_type: "social-feed", copy_context_included: false, image_only_score: score, copy_lift: 0, rationale: `Because ${id}`, product_read: "", confidence: "medium", panel_outcome: null, confidence_details: {}, details: {}, ...extra }) as RankResponse["ranked"][number];

const response = (over: Partial<RankResponse> = {}): RankResponse =>
  ({
    request_id: "7d0c2f8e-4f6b-4a43-9a55-1b1d6c3b2a10",
    ranked: [ranked(1, "hero.png", 4.21, { copy_lift: 0.35, panel_outcome: { winnerAssetId: "hero.png", loserAssetId: "alt.png", flipped: true, votesFor: 4, votesTotal: 5, consistency: 0.8 } }), ranked(2, "alt.png", 4.05, { copy_lift: -0.004 })],
    errors: [{ asset_url: "data:image/png;base64,BBBB", asset_id: "broken.png", error: "The image could not be decoded." }],
    summary: { goal: "purchase-intent", asset_type: "social-feed", platform: null, audience: "Runners", assets_ranked: 2, assets_failed: 1, scoring_evaluations: 3, repetitions_per_evaluation: 3, generator_samples_per_evaluation: 6, close_pair_refinement: { enabled: true, pairs_evaluated: 1, results: [] }, credits_used: 3, credits_remaining: 97 },
    ...over,
  }) as RankResponse;

const SIM_MODELS = { generators: ["sim:sim-gen-a", "sim:sim-gen-b"], embedder: "sim:sim-embed", voters: ["sim:sim-voter"], simulated: true };
const REAL_MODELS = { generators: ["openai:gpt-5-mini", "anthropic:claude-haiku-4-5"], embedder: "openai:text-embedding-3-small", voters: ["openai:gpt-5-mini"], simulated: false };
const withModels = (models: object) => response({ summary: { ...response().summary, models } as RankResponse["summary"] });

const vote = (n: number, order: "ab" | "ba", winnerId: string, extra: object = {}) => ({ voterId: `voter-${n}`, order, winnerId, loserId: winnerId === "a.png" ? "b.png" : "a.png", response: "A", ...extra });
const pairwise = (votes: ReturnType<typeof vote>[], models?: object) =>
  ({
    request_id: "7d0c2f8e-4f6b-4a43-9a55-1b1d6c3b2a10",
    pairs: [{ pairId: "pair-1", aId: "a.png", bId: "b.png", status: "done", votes, winnerId: "a.png", votesFor: 4, votesTotal: 5, winRate: 0.8, consistency: 0.6 }],
    summary: { goal: "purchase-intent", platform: null, audience: "Runners", model: "sim", panel_size: 5, pairs_requested: 1, pairs_completed: 1, pairs_failed: 0, valid_votes: 5, pairwise_evaluations: 1, credits_used: 1, credits_remaining: 9, ...(models ? { models } : {}) },
  }) as PairwiseResponse;

// A server of issue 34 ("How sure is it"): p_above_next, too_close_to_call, uncertainty, warnings, the receipt.
const model = (name: string, extra: object = {}) => ({ model: name, versions: [], temperature: null, thinking: null, ...extra });
const RECEIPT = {
  version: "2026-11.3",
  prompt_templates: ["9f2c4e1a7b3d5c60"],
  reference_sets: [
    { hash: "a1b2c3d4e5f60718", mean_similarity: 0.612 },
    { hash: "0f1e2d3c4b5a6978", mean_similarity: null },
  ],
  reference_similarity_limit: 0.85,
  embedder: { model: "openai:text-embedding-3-small", dimensions: 1536 },
  generators: [model("openai:gpt-5-mini", { versions: ["gpt-5-mini-2025-08-07"], temperature: 1, thinking: "reasoning_effort=low" }), model("bedrock:<b>nova</b>")],
  voters: [model("anthropic:claude-haiku-4-5", { versions: ["claude-haiku-4-5-20251001", "claude-haiku-4-5-20251101"], temperature: 0 })],
};
const SEPARATION = { code: "batch_not_separated", message: "The 3 assets' scores differ by no more than the repetitions' own noise (one-way ANOVA, F = 1.20, p = 0.36): the order is mostly chance." };
const SPLIT = { code: "panel_split", message: "A panel's one-vote margin (3–2) decided an order." };
const withTrust = () =>
  response({
    ranked: [
      ranked(1, "hero.png", 4.21, { copy_lift: 0.35, p_above_next: 0.912, too_close_to_call: false }),
      ranked(2, "alt.png", 4.05, { copy_lift: -0.004, p_above_next: 0.52, too_close_to_call: true }),
      ranked(3, "third.png", 4.01, { p_above_next: null, too_close_to_call: false }),
    ],
    errors: [],
    summary: {
      ...response().summary,
      assets_ranked: 3,
      assets_failed: 0,
      uncertainty: { repetition_noise_sd: 0.11, degrees_of_freedom: 6, adjacent_pairs: 2, too_close_to_call: 1 },
      warnings: [SEPARATION, { code: "new_in_v1_9", message: "A code this CLI\ndoes not know: its message\x1b[31m still shows." }],
      method: RECEIPT,
    } as RankResponse["summary"],
  });

describe("cli parts", () => {
  it("recognizes images by their bytes, not their names", () => {
    expect(sniffImageType(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0]))).toBe("image/png");
    expect(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0]))).toBe("image/jpeg");
    expect(sniffImageType(Buffer.from("RIFF\0\0\0\0WEBPVP8 "))).toBe("image/webp");
    expect(sniffImageType(Buffer.from("GIF89a"))).toBe("image/gif");
    expect(sniffImageType(Buffer.from("<svg xmlns="))).toBeNull();
    expect(sniffImageType(Buffer.alloc(0))).toBeNull();
  });

  it("applies one copy object to every image, or a map by file name, and refuses anything else", () => {
    expect(copyForImages({ headline: "Go" }, ["a.png", "b.png"])).toEqual([{ headline: "Go" }, { headline: "Go" }]);
    expect(copyForImages({ "b.png": { headline: "B" } }, ["a.png", "b.png"])).toEqual([null, { headline: "B" }]);
    expect(() => copyForImages({ "c.png": { headline: "C" } }, ["a.png"])).toThrow(/c.png, which is not among the images/);
    expect(() => copyForImages({ headline: 3 }, ["a.png"])).toThrow(UsageError);
    expect(() => copyForImages(["x"], ["a.png"])).toThrow(UsageError);
  });

  it("prints a ranked table with score, confidence, copy lift, panel, failures and the bill", () => {
    const table = rankedTable(response(), (id) => id ?? "?");
    expect(table.split("\n")).toEqual([
      "rank  image     score  confidence  copy lift  panel",
      "----  --------  -----  ----------  ---------  -------",
      "1     hero.png  4.21   medium      +0.35      flipped",
      "2     alt.png   4.05   medium      0.00",
      "failed: broken.png: The image could not be decoded.",
      "",
      "2 ranked, 1 failed; 3 credits used, 97 left",
    ]);
  });

  it("says when the ledger had not confirmed the charge yet, and how to see it confirmed", () => {
    const pending = rankedTable(response({ summary: { ...response().summary, credits_remaining: null, credits_status: "pending" } }), (id) => id ?? "?").split("\n");
    expect(pending.at(-1)).toBe("2 ranked, 1 failed; 3 credits used (pending the ledger's confirmation: adrank get <request_id> shows it confirmed)");
  });

  it("says in the bill how many evaluations were reused at no charge (--reuse)", () => {
    const reused = rankedTable(response({ summary: { ...response().summary, credits_used: 1, evaluations_reused: 2 } }), (id) => id ?? "?").split("\n");
    expect(reused.at(-1)).toBe("2 ranked, 1 failed; 1 credit used, 97 left; 2 evaluations reused at no charge");
  });

  it("names the models after the table, and warns in plain text when the sim model answered", () => {
    const table = rankedTable(withModels(SIM_MODELS), (id) => id ?? "?").split("\n");
    expect(table.slice(-3)).toEqual([
      "2 ranked, 1 failed; 3 credits used, 97 left",
      "Models: generators sim:sim-gen-a, sim:sim-gen-b · embedder sim:sim-embed · voters sim:sim-voter",
      "SIMULATED: these scores come from the offline sim model (pixel statistics and copy heuristics), not a language model.",
    ]);
    expect(table.join("\n")).not.toContain("\x1b");
    const real = rankedTable(withModels(REAL_MODELS), (id) => id ?? "?").split("\n");
    expect(real.slice(-2)).toEqual(["2 ranked, 1 failed; 3 credits used, 97 left", "Models: generators openai:gpt-5-mini, anthropic:claude-haiku-4-5 · embedder openai:text-embedding-3-small · voters openai:gpt-5-mini"]);
    expect(real.join("\n")).not.toContain("SIMULATED");
  });

  it("colours the warning only when asked (a terminal), and keeps server names from writing escape sequences", () => {
    const coloured = rankedTable(withModels(SIM_MODELS), (id) => id ?? "?", { colour: true }).split("\n").at(-1)!;
    expect(coloured).toBe("\x1b[1;30;43m SIMULATED \x1b[0m\x1b[1m these scores come from the offline sim model (pixel statistics and copy heuristics), not a language model.\x1b[0m");
    expect(wantsColour({ isTTY: true }, {})).toBe(true);
    expect(wantsColour({ isTTY: true }, { NO_COLOR: "1" })).toBe(false);
    expect(wantsColour({ isTTY: false }, {})).toBe(false);
    const hostile = rankedTable(withModels({ ...REAL_MODELS, embedder: "evil:\x1b]0;pwned\x07" }), (id) => id ?? "?");
    expect(hostile).toContain("embedder evil:?]0;pwned?");
    expect(hostile).not.toContain("\x1b");
  });

  it("tolerates a summary without models, or with nothing in them", () => {
    expect(modelsNote(undefined, "scores")).toEqual({ line: null, warning: null });
    expect(modelsNote({ generators: [], embedder: null, voters: [], simulated: false }, "scores")).toEqual({ line: null, warning: null });
    // Partial objects from an odd server do not throw.
    expect(modelsNote({ simulated: true } as never, "votes")).toEqual({ line: null, warning: "SIMULATED: these votes come from the offline sim model (pixel statistics and copy heuristics), not a language model." });
  });

  it("writes an HTML report with each image inline, and escapes every text", () => {
    const hostile = response({ ranked: [ranked(1, "<script>alert(1)</script>.png", 3.5, { rationale: 'Says "hi" & <b>bold</b>' })] });
    const html = htmlReport(hostile, [{ name: "<script>alert(1)</script>.png", dataUri: "data:image/png;base64,QUJD" }], "Report <1>");
    expect(html).toContain('<img src="data:image/png;base64,QUJD"');
    expect(html).not.toContain("<script>");
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;.png");
    expect(html).toContain("Says &quot;hi&quot; &amp; &lt;b&gt;bold&lt;/b&gt;");
    expect(html).toContain("<title>Report &lt;1&gt;</title>");
    expect(html).toContain("default-src 'none'");
  });

  it("puts a Simulated badge atop the HTML report only when the sim model answered, and lists the models escaped", () => {
    const simHtml = htmlReport(withModels(SIM_MODELS), [], "Report");
    expect(simHtml).toContain('<h1>Report <span class="sim">Simulated</span></h1><p class="sim-note">These scores come from the offline sim model');
    expect(simHtml).toContain('<p class="models">Models: generators sim:sim-gen-a, sim:sim-gen-b · embedder sim:sim-embed · voters sim:sim-voter</p>');

    const realHtml = htmlReport(withModels(REAL_MODELS), [], "Report");
    expect(realHtml).not.toContain('class="sim"');
    expect(realHtml).not.toContain('class="sim-note"');
    expect(realHtml).toContain("embedder openai:text-embedding-3-small");

    const olderServer = htmlReport(response(), [], "Report");
    expect(olderServer).not.toContain('class="sim"');
    expect(olderServer).not.toContain('<p class="models">');

    const hostile = htmlReport(withModels({ ...SIM_MODELS, generators: ['<img src=x onerror="alert(1)">'] }), [], "Report");
    expect(hostile).not.toContain("<img src=x");
    expect(hostile).toContain("generators &lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
  });

  it("names the voter models of a refined pair on its card in the HTML report", () => {
    const refined = { pairId: "r-1", aId: "alt.png", bId: "hero.png", status: "done", votes: [vote(1, "ab", "hero.png", { model: "sim:sim-voter" }), vote(2, "ba", "hero.png", { model: "<b>x</b>" })], gap: 0.1, rawScores: { a: 4.1, b: 4.0 }, flipped: true, model: "sim:sim-voter" };
    const base = withModels(SIM_MODELS);
    const html = htmlReport({ ...base, summary: { ...base.summary, close_pair_refinement: { enabled: true, pairs_evaluated: 1, results: [refined] } } } as RankResponse, [], "Report");
    expect(html).toContain('<p>Panel: 4 of 5 votes, order flipped <span class="models">(sim:sim-voter, &lt;b&gt;x&lt;/b&gt;)</span></p>');
  });

  it("turns every failure into one line with the status, the server's sentence and the request id", () => {
    expect(errorLine(new AuthenticationError("The API key is missing or invalid.", { status: 401, requestId: "r-1", body: null }))).toEqual({
      line: "adrank: 401 Unauthorized: The API key is missing or invalid. (request id r-1)",
      code: 1,
    });
    expect(errorLine(new ValidationError("goal must be one of …", { status: 422, requestId: "r-2", body: null, field: "goal" })).line).toBe("adrank: 422 Unprocessable Entity: goal must be one of … [goal] (request id r-2)");
    expect(errorLine(new UsageError("give at least one image file"))).toEqual({ line: "adrank: give at least one image file (see adrank --help)", code: 2 });
    expect(errorLine(new AuthenticationError("Two\nlines.\r\n", { status: 401, requestId: null, body: null })).line).toBe("adrank: 401 Unauthorized: Two lines.");
  });

  it("prints the pair's winner, win rate, consistency and every vote (an older server: no models, no model per vote)", () => {
    const response = pairwise([vote(1, "ab", "a.png"), vote(2, "ba", "a.png"), vote(3, "ab", "b.png"), vote(4, "ba", "a.png"), vote(5, "ab", "a.png")]);
    expect(pairwiseLines(response)).toEqual([
      "winner: a.png (4 of 5 votes, win rate 0.80, consistency 0.60; done)",
      "  voter-1 (ab): picked a.png",
      "  voter-2 (ba): picked a.png",
      "  voter-3 (ab): picked b.png",
      "  voter-4 (ba): picked a.png",
      "  voter-5 (ab): picked a.png",
      "1 credit used",
    ]);
  });

  it("names each vote's model, the models that answered, and warns when the sim model voted", () => {
    const sim = { model: "sim:sim-voter", simulated: true };
    const response = pairwise([vote(1, "ab", "a.png", sim), vote(2, "ba", "a.png", sim), vote(3, "ab", "", { valid: false, invalidReason: "the model call failed", response: "" }), vote(4, "ba", "a.png", sim), vote(5, "ab", "b.png", sim)], {
      generators: [],
      embedder: null,
      voters: ["sim:sim-voter"],
      simulated: true,
    });
    expect(pairwiseLines(response)).toEqual([
      "winner: a.png (4 of 5 votes, win rate 0.80, consistency 0.60; done)",
      "  voter-1 (ab, sim:sim-voter): picked a.png",
      "  voter-2 (ba, sim:sim-voter): picked a.png",
      "  voter-3 (ab): invalid: the model call failed",
      "  voter-4 (ba, sim:sim-voter): picked a.png",
      "  voter-5 (ab, sim:sim-voter): picked b.png",
      "1 credit used",
      "Models: voters sim:sim-voter",
      "SIMULATED: these votes come from the offline sim model (pixel statistics and copy heuristics), not a language model.",
    ]);
  });

  it("names a mixed panel's models seat by seat, warning only about the sim seats", () => {
    const gpt = { model: "openai:gpt-5-mini", simulated: false };
    const sim = { model: "sim:sim-voter", simulated: true };
    const lines = pairwiseLines(pairwise([vote(1, "ab", "a.png", gpt), vote(2, "ba", "a.png", sim)], { generators: [], embedder: null, voters: ["openai:gpt-5-mini", "sim:sim-voter"], simulated: true }));
    expect(lines.slice(1, 3)).toEqual(["  voter-1 (ab, openai:gpt-5-mini): picked a.png", "  voter-2 (ba, sim:sim-voter): picked a.png"]);
    expect(lines.slice(-2)).toEqual([
      "Models: voters openai:gpt-5-mini, sim:sim-voter",
      "SIMULATED: part of this result comes from the offline sim model (sim:sim-voter): pixel statistics and copy heuristics, not a language model.",
    ]);
    // A real panel: the models, no warning.
    expect(pairwiseLines(pairwise([vote(1, "ab", "a.png", gpt)], { generators: [], embedder: null, voters: ["openai:gpt-5-mini"], simulated: false })).slice(-2)).toEqual(["1 credit used", "Models: voters openai:gpt-5-mini"]);
  });

  it("marks a too-close rank with ?, explains it once, shows P>next, how many pairs are too close, and every warning", () => {
    expect(rankedTable(withTrust(), (id) => id ?? "?").split("\n")).toEqual([
      "rank  image      score  confidence  copy lift  P>next  panel",
      "----  ---------  -----  ----------  ---------  ------  -----",
      "1     hero.png   4.21   medium      +0.35      91 %",
      "2?    alt.png    4.05   medium      0.00       52 %",
      "3     third.png  4.01   medium      0.00",
      "? = too close to call: P>next is between 40 % and 60 %, so that image and the one ranked below it are a coin toss.",
      "1 of 2 neighbouring pairs are too close to call (p between 40 % and 60 %)",
      "warning [batch_not_separated]: The 3 assets' scores differ by no more than the repetitions' own noise (one-way ANOVA, F = 1.20, p = 0.36): the order is mostly chance.",
      // A code this CLI does not know still says what it means; a server's line break or escape sequence cannot reach the terminal.
      "warning [new_in_v1_9]: A code this CLI does not know: its message?[31m still shows.",
      "",
      "3 ranked, 0 failed; 3 credits used, 97 left",
    ]);
  });

  it("says simulated once: the SIMULATED line stands for the simulated warning", () => {
    const sim = withTrust();
    sim.summary = { ...sim.summary, warnings: [{ code: "simulated", message: "The offline sim model produced this answer." }], models: { generators: ["sim:sim-gen-a", "sim:sim-gen-b"], embedder: "sim:sim-embed", voters: [], simulated: true } };
    const text = rankedTable(sim, (id) => id ?? "?");
    expect(text).not.toContain("warning [simulated]");
    expect(text).toContain("SIMULATED");
    // Without the models note (an older server), the warning itself is the only place it is said.
    sim.summary = { ...sim.summary, models: undefined };
    expect(rankedTable(sim, (id) => id ?? "?")).toContain("warning [simulated]: The offline sim model produced this answer.");
  });

  it("puts no ? and no legend where no pair is too close, and no count line when none is", () => {
    const sure = withTrust();
    sure.ranked[1] = { ...sure.ranked[1]!, p_above_next: 0.97, too_close_to_call: false };
    sure.summary = { ...sure.summary, uncertainty: { ...sure.summary.uncertainty!, too_close_to_call: 0 }, warnings: [] };
    const lines = rankedTable(sure, (id) => id ?? "?").split("\n");
    expect(lines.slice(2, 5)).toEqual(["1     hero.png   4.21   medium      +0.35      91 %", "2     alt.png    4.05   medium      0.00       97 %", "3     third.png  4.01   medium      0.00"]);
    expect(lines.join("\n")).not.toContain("?");
    expect(lines.join("\n")).not.toContain("too close to call");
    expect(lines.join("\n")).not.toContain("warning [");
  });

  it("never rounds a probability to a certainty in P>next", () => {
    const near = withTrust();
    near.ranked[0] = { ...near.ranked[0]!, p_above_next: 0.9991 };
    near.ranked[1] = { ...near.ranked[1]!, p_above_next: 0.004, too_close_to_call: false };
    const rows = rankedTable(near, (id) => id ?? "?").split("\n").slice(2, 4);
    expect(rows).toEqual(["1     hero.png   4.21   medium      +0.35      >99 %", "2     alt.png    4.05   medium      0.00       <1 %"]);
  });

  it("prints an older server's ranking, without the new fields, exactly as before", () => {
    // The table of the first test, byte for byte: no P>next column, no legend, no warnings.
    expect(rankedTable(response(), (id) => id ?? "?")).toBe(
      ["rank  image     score  confidence  copy lift  panel", "----  --------  -----  ----------  ---------  -------", "1     hero.png  4.21   medium      +0.35      flipped", "2     alt.png   4.05   medium      0.00", "failed: broken.png: The image could not be decoded.", "", "2 ranked, 1 failed; 3 credits used, 97 left"].join("\n"),
    );
  });

  it("says how sure the panel is and prints the pairwise answer's warnings", () => {
    const answer = pairwise([vote(1, "ab", "a.png"), vote(2, "ba", "a.png"), vote(3, "ab", "b.png"), vote(4, "ba", "a.png"), vote(5, "ab", "a.png")]);
    answer.pairs[0] = { ...answer.pairs[0]!, win_probability: { asset_id: "a.png", value: 0.7143, ci_low: 0.3588, ci_high: 0.9567, p_better: 0.8906 } };
    answer.summary = { ...answer.summary, warnings: [SPLIT] };
    expect(pairwiseLines(answer)).toEqual([
      "winner: a.png (4 of 5 votes, win rate 0.80, consistency 0.60; done)",
      "a.png preferred by 71 % of voters (95 % interval 36–96 %), P(majority prefers a.png) 89 %",
      "  voter-1 (ab): picked a.png",
      "  voter-2 (ba): picked a.png",
      "  voter-3 (ab): picked b.png",
      "  voter-4 (ba): picked a.png",
      "  voter-5 (ab): picked a.png",
      "warning [panel_split]: A panel's one-vote margin (3–2) decided an order.",
      "1 credit used",
    ]);
    // No vote counted: the server sends null, and nothing is claimed.
    answer.pairs[0] = { ...answer.pairs[0]!, win_probability: null };
    expect(pairwiseLines(answer).join("\n")).not.toContain("preferred by");
  });

  it("shows P>next and a too-close marker on each card of the HTML report, a warnings box, and the receipt collapsed", () => {
    const html = htmlReport(withTrust(), [], "Report");
    expect(html).toContain('<p class="next">91 % chance it truly outranks #2</p>');
    expect(html).toContain('<p class="next">52 % chance it truly outranks #3 <span class="too-close" title="The chance it outranks the next is between 40 % and 60 %: it and the image ranked below it are a coin toss.">Too close to call</span></p>');
    expect(html.match(/class="too-close"/g)).toHaveLength(1);
    // The last card has no next one to outrank.
    expect(html.match(/class="next"/g)).toHaveLength(2);
    expect(html).toContain(
      '<section class="warnings" aria-label="Warnings"><h2>Warnings</h2><ul><li>The 3 assets&#39; scores differ by no more than the repetitions&#39; own noise (one-way ANOVA, F = 1.20, p = 0.36): the order is mostly chance.<span class="code">batch_not_separated</span></li>',
    );
    const receipt = html.slice(html.indexOf('<details class="receipt">'));
    expect(receipt).toMatch(/^<details class="receipt"><summary>How this was produced<\/summary><dl><dt>Method version<\/dt><dd><code>2026-11.3<\/code><\/dd><dt>Prompt template<\/dt><dd><code>9f2c4e1a7b3d5c60<\/code><\/dd>/);
    expect(receipt).toContain("<li><code>a1b2c3d4e5f60718</code>, mean anchor similarity 0.61</li><li><code>0f1e2d3c4b5a6978</code>, mean anchor similarity not measured</li></ul><p>Warned above a mean similarity of 0.85.</p>");
    expect(receipt).toContain("<dt>Embedder</dt><dd><code>openai:text-embedding-3-small</code>, 1536 dimensions</dd>");
    expect(receipt).toContain("<li><code>openai:gpt-5-mini</code>: reported <code>gpt-5-mini-2025-08-07</code> · temperature 1 · thinking <code>reasoning_effort=low</code></li>");
    // Server names are escaped like every other text.
    expect(receipt).toContain("<li><code>bedrock:&lt;b&gt;nova&lt;/b&gt;</code>: no version reported · no temperature sent · no thinking control sent</li>");
    expect(receipt).toContain("<dt>Voters</dt><dd><ul><li><code>anthropic:claude-haiku-4-5</code>: reported <code>claude-haiku-4-5-20251001</code>, <code>claude-haiku-4-5-20251101</code> · temperature 0 · no thinking control sent</li></ul></dd>");
    expect(receipt).not.toContain("<b>");
  });

  it("escapes hostile warnings and receipts in the HTML report, and leaves out what an older server does not send", () => {
    const hostile = withTrust();
    hostile.summary = { ...hostile.summary, warnings: [{ code: "<i>x</i>", message: '<script>alert("w")</script>' }], method: { ...RECEIPT, version: "<img src=x>", prompt_templates: [], reference_sets: [], embedder: null, generators: [] } };
    const html = htmlReport(hostile, [], "Report");
    expect(html).not.toContain("<script>");
    expect(html).not.toContain("<img src=x>");
    expect(html).toContain("&lt;script&gt;alert(&quot;w&quot;)&lt;/script&gt;<span class=\"code\">&lt;i&gt;x&lt;/i&gt;</span>");
    expect(html).toContain("<h2>Warning</h2>");
    // A pairwise-like receipt: empty lists and no embedder leave their rows out.
    expect(html).not.toContain("<dt>Generators</dt>");
    expect(html).not.toContain("<dt>Embedder</dt>");
    expect(html).not.toContain("<dt>Reference sets</dt>");

    const older = htmlReport(response(), [], "Report");
    for (const absent of ['class="next"', 'class="too-close"', '<section class="warnings"', '<details class="receipt"']) expect(older).not.toContain(absent);
  });
});
