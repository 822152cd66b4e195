import { describe, expect, it } from "vitest";
import { renderToStaticMarkup } from "react-dom/server";
import type { Vocabulary } from "../api.ts";
import type { AudiencesAnswer } from "./answers.ts";
import { newAudienceDraft } from "./audience-drafts.ts";
import { AUDIENCES_ANSWER } from "./audiences-answer.test-fixture.ts";
import { AudiencesResults } from "./AudiencesResults.tsx";
import { RequestOptions, type PlaygroundOptions } from "./RequestOptions.tsx";

// What the playground shows of a ranking across audiences, and its form, rendered as the browser gets them.

const render = (answer: AudiencesAnswer = AUDIENCES_ANSWER) => renderToStaticMarkup(<AudiencesResults answer={answer} images={[{ name: "spring-sale.png", dataUri: "data:spring-thumb" }]} withCopy={false} />);
const count = (html: string, needle: string) => html.split(needle).length - 1;
const VOCABULARY: Vocabulary = { goals: ["purchase-intent"], assetTypes: [], demographics: { priceSensitivity: ["high", "very-high"], adSkepticism: ["high", "very-high"] } };

describe("a ranking across audiences in the playground", () => {
  it("shows a 3 × 3 matrix with the audiences as columns, one shaded best cell per image, and the failed cell", () => {
    const html = render();
    expect(count(html, 'data-testid="matrix-row"')).toBe(3);
    expect(count(html, 'data-testid="matrix-cell"')).toBe(9);
    expect(html).toContain('<th scope="col">Bargain hunters</th><th scope="col">Skeptics</th><th scope="col">Everyone else</th>');
    expect(count(html, 'data-best="true"')).toBe(3);
    expect(html).toContain('<td class="best" data-testid="matrix-cell" data-best="true"><strong class="cell-score">3.90</strong><span class="cell-rank first">#1 of 3</span>');
    expect(html).toContain('<td class="failed" data-testid="matrix-cell" title="The image could not be read."><span class="muted">failed</span></td>');
    expect(html).toContain('<img src="data:spring-thumb" alt=""/><span>spring-sale.png</span>');
  });

  it("says each reversal as a sentence and calls out the pair whose personas made no difference, once", () => {
    const html = render();
    expect(html).toContain('<li data-testid="reversal">For Bargain hunters spring-sale.png beats summer-launch.png (3.9 vs 3.2); for Skeptics it is the other way round (2.8 vs 3.6).</li>');
    expect(count(html, 'data-testid="no-difference"')).toBe(1);
    expect(html).toMatch(/data-testid="no-difference"><strong>The personas made no difference\.<\/strong> Skeptics and Everyone else scored every image alike/);
    // The generic warning is the callout's to say; the others stay, the simulated one beside the badge.
    expect(html).not.toContain("scored every asset alike within noise");
    expect(html).toContain("Everyone else&#x27;s scores differ by no more than the repetitions&#x27; own noise.");
    expect(html).toContain('data-testid="simulated-badge">Simulated</span>');
    expect(html).not.toContain("The offline sim model answered.");
  });

  it("gives every pair of audiences its rank correlation, the credits used, and each audience's full ranking collapsed", () => {
    const html = render();
    expect(count(html, 'data-testid="audience-pair"')).toBe(3);
    expect(html).toContain("Rank correlation −1.00 (the reverse order) over 2 images.");
    expect(html).toContain("8 credits used · 40 left.");
    expect(count(html, 'data-testid="audience-ranking"')).toBe(3);
    expect(html).toContain("<summary>Skeptics: summer-launch.png first</summary>");
    expect(count(html, 'data-testid="ranked-card"')).toBe(8);
    expect(html).not.toMatch(/<details[^>]* open/);
  });

  it("shows the simulated note once for the whole answer, and one balance: the one after the request", () => {
    const html = render();
    expect(count(html, 'data-testid="models-note"')).toBe(1);
    expect(count(html, 'data-testid="simulated-badge"')).toBe(1);
    expect(html).toContain("3 credits used · 40 left.");
    expect(html).not.toContain(" 7 left.");
  });

  it("says so when no pair of images swaps places", () => {
    expect(render({ ...AUDIENCES_ANSWER, reversals: [] })).toContain('data-testid="no-reversals">No two images swap places between audiences');
  });

  it("renders audience and image names as text, never as markup", () => {
    const evil = '<img src=x onerror="alert(1)">';
    const answer: AudiencesAnswer = {
      ...AUDIENCES_ANSWER,
      by_audience: AUDIENCES_ANSWER.by_audience.map((b, i) => (i === 0 ? { ...b, audience: evil } : b)),
      comparison: AUDIENCES_ANSWER.comparison.map((c) => ({ ...c, scores: c.scores.map((s, i) => (i === 0 ? { ...s, audience: evil } : s)), best_audience: c.best_audience === "Bargain hunters" ? evil : c.best_audience })),
      reversals: AUDIENCES_ANSWER.reversals.map((r) => ({ ...r, prefers_a: { ...r.prefers_a, audience: evil } })),
      audience_sensitivity: AUDIENCES_ANSWER.audience_sensitivity.map((s) => ({ ...s, audience_a: s.audience_a === "Bargain hunters" ? evil : s.audience_a })),
    };
    const html = render(answer);
    expect(html).not.toContain("<img src=x");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(1)&quot;&gt;");
    expect(count(html, 'data-best="true"')).toBe(3);
  });
});

describe("the playground's audiences form", () => {
  const options = (names: string[]): PlaygroundOptions => ({ audiences: names.map((n, i) => newAudienceDraft(i + 1, n)), goal: "purchase-intent", assetType: "", platform: "", headline: "", body: "", imageCopy: {} });
  const form = (names: string[]) => renderToStaticMarkup(<RequestOptions options={options(names)} onChange={() => {}} audiences={[]} vocabulary={VOCABULARY} images={[]} />);

  it("keeps one audience as before: no number, no Remove, and the fields the API names", () => {
    const html = form(["General audience"]);
    expect(html).toContain("<legend>Audience</legend>");
    expect(html).not.toContain("Remove");
    expect(count(html, 'name="inlineAudience"')).toBe(1);
    expect(html).toContain('<select name="priceSensitivity">');
  });

  it("numbers several audiences, marks a name used twice at the later one, and stops adding at five", () => {
    const html = form(["Bargain hunters", "Skeptics", " bargain hunters"]);
    expect(html).toContain("<legend>Audience 3</legend>");
    expect(count(html, 'aria-label="Remove audience')).toBe(3);
    expect(count(html, 'aria-invalid="true"')).toBe(1);
    expect(html).toContain('data-testid="duplicate-audience">Audience 1 already has this name: each audience needs its own.</p>');
    expect(html).toMatch(/<button type="button" class="secondary">Add an audience<\/button>/);
    expect(form(["a", "b", "c", "d", "e"])).toMatch(/<button type="button" class="secondary" disabled="">Add an audience<\/button><span class="muted small" data-testid="add-audience-help">5 audiences at most\.<\/span>/);
  });
});
