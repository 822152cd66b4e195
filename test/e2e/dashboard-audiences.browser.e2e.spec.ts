import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { RankAudiencesResponse } from "@adrank/contracts";
import type { Browser, Locator, Page } from "playwright-core";
import { chromiumAvailable, launchChromium } from "../support/browser.ts";
import { REPO_ROOT } from "../support/paths.ts";
import { startStack, type Stack } from "../support/stack.ts";
import { watchCsp } from "./dashboard-browser-helpers.ts";

// Audiences side by side (issue 35) in the console's playground, in Debian's chromium against
// a whole stack on the offline sim model, with the repository's own example: the audiences of
// examples/audiences.json (the third saved on the audiences page first, then picked) and each
// creative's copy from examples/audiences-copy.json typed in as that image's own copy. A
// duplicate name is refused before anything is sent; the matrix, the reversal the sim's persona
// rules predict (docs/sim-personas.md), the rank correlations, the "no difference" callout for
// the two sceptical audiences and the full rankings are checked against the API's own answer.
// The page shot goes to docs/screenshots/audiences/, a copy and the details to
// test-output/dashboard-audiences/.

const SHOTS = join(REPO_ROOT, "test-output", "dashboard-audiences");
const DOC_SHOTS = join(REPO_ROOT, "docs", "screenshots", "audiences");
const CREATIVES = ["spring-sale.png", "summer-launch.png", "autumn-promo.png"];
type ExampleAudience = { name: string; description: string; demographics: Record<string, string> };
const [BARGAIN, SKEPTICS, SKEPTICS_TWIN] = JSON.parse(readFileSync(join(REPO_ROOT, "examples", "audiences.json"), "utf8")) as [ExampleAudience, ExampleAudience, ExampleAudience];
const AUDIENCES = [BARGAIN.name, SKEPTICS.name, SKEPTICS_TWIN.name];
const COPY = JSON.parse(readFileSync(join(REPO_ROOT, "examples", "audiences-copy.json"), "utf8")) as Record<string, { headline: string; body: string }>;
const HAS_CHROMIUM = chromiumAvailable("dashboard-audiences.browser.e2e.spec.ts");

/** The page's two scores of a reversal (audience-words.ts): one decimal, or two where one would make them look equal. */
const scoresText = (a: number, b: number) => {
  const digits = a.toFixed(1) === b.toFixed(1) ? 2 : 1;
  return `${a.toFixed(digits)} vs ${b.toFixed(digits)}`;
};
/** A rank correlation as the page writes it (outcome-words.ts): "+0.50", "−1.00", "0.00". */
const signed = (v: number) => {
  const text = Math.abs(v).toFixed(2);
  return v > 0 ? `+${text}` : v < 0 && text !== "0.00" ? `−${text}` : text;
};

describe.skipIf(!HAS_CHROMIUM)("the playground ranks for several audiences at once", () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let cspViolations: string[] = [];
  /** Every ranking across audiences the page sent to the console. */
  const sent: string[] = [];
  const shot = async (path: string) => {
    const dismiss = page.getByTestId("toast").getByRole("button", { name: "Dismiss" });
    for (let i = 0; i < 5 && (await dismiss.count()) > 0; i++) await dismiss.first().click({ timeout: 1_000 }).catch(() => {});
    await page.screenshot({ path, fullPage: true });
  };
  const heading = (name: string) => page.getByRole("heading", { level: 1, name });
  const nav = (name: string) => page.getByRole("navigation", { name: "Console" }).getByRole("link", { name });
  const audience = (n: number): Locator => page.getByRole("group", { name: `Audience ${n}`, exact: true });
  /** Types an audience in: its name, then its description and demographics, set in its "Description and demographics", closed again after. */
  const describeAudience = async (n: number, name: string, example?: ExampleAudience) => {
    await audience(n).locator('input[name="inlineAudience"]').fill(name);
    if (!example) return;
    await audience(n).getByText("Description and demographics (optional)").click();
    await audience(n).locator('input[name="inlineAudienceDescription"]').fill(example.description);
    for (const [field, value] of Object.entries(example.demographics)) await audience(n).locator(`select[name="${field}"]`).selectOption(value);
    const set = Object.keys(example.demographics).length;
    await audience(n).getByText(`Description and demographics (${set} set)`).click();
    await audience(n).locator('input[name="inlineAudienceDescription"]').waitFor({ state: "hidden" });
  };

  beforeAll(async () => {
    await rm(SHOTS, { recursive: true, force: true });
    await mkdir(SHOTS, { recursive: true });
    await mkdir(DOC_SHOTS, { recursive: true });
    stack = await startStack({ logLevel: "warn", dashboardEnv: { DASHBOARD_SIGNUP_CREDITS: "200", DASHBOARD_SESSION_SECRET: "browser-test-secret-of-at-least-32-chars" } });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: "en-US", timezoneId: "UTC" });
    page.setDefaultTimeout(20_000);
    cspViolations = watchCsp(page);
    page.on("request", (req) => {
      if (req.method() === "POST" && new URL(req.url()).pathname === "/console/api/playground/rank-audiences") sent.push(req.postData() ?? "");
    });
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  }, 30_000);

  it("signs up and saves the example's third audience, the one the third column will use", async () => {
    await page.goto(`${stack.dashboardUrl}/audiences`);
    await page.getByRole("button", { name: "Create an account" }).click();
    await page.fill('input[name="email"]', "audiences@example.com");
    await page.fill('input[name="password"]', "a very good password");
    await page.click('button[type="submit"]');
    await heading("Saved audiences").waitFor();
    await page.fill('input[name="audienceName"]', SKEPTICS_TWIN.name);
    await page.fill('input[name="audienceDescription"]', SKEPTICS_TWIN.description);
    for (const [field, value] of Object.entries(SKEPTICS_TWIN.demographics)) await page.selectOption(`select[name="${field}"]`, value);
    await page.click("text=Create audience");
    await page.locator(`[data-audience-name="${SKEPTICS_TWIN.name}"]`).waitFor();
  }, 60_000);

  it("takes three audiences and each image's own copy, refuses a name used twice before sending, and shows where the audiences disagree", async () => {
    await nav("Playground").click();
    await heading("Playground").waitFor();
    await page.locator('input[name="images"]').setInputFiles(CREATIVES.map((f) => join(REPO_ROOT, "examples", "ads", f)));
    await expect.poll(() => page.locator(".thumbs img").count()).toBe(3);
    await page.selectOption('select[name="goal"]', "purchase-intent");

    // Each image's own headline and body, from the example; the shared copy stays empty.
    await page.getByText("Copy for each image (optional)").click();
    expect(await page.getByTestId("image-copy-row").count()).toBe(3);
    for (const name of CREATIVES) {
      const row = page.getByRole("group", { name: `Copy for ${name}` });
      await row.getByLabel(`Headline for ${name}`).fill(COPY[name]!.headline);
      await row.getByLabel(`Body for ${name}`).fill(COPY[name]!.body);
    }
    await page.getByText("Copy for each image (3 of 3 with their own)").waitFor();

    // One audience is the plain ranking of before; two more make it a comparison.
    await page.getByRole("button", { name: "Add an audience" }).click();
    await page.getByRole("button", { name: "Add an audience" }).click();
    await describeAudience(1, BARGAIN.name, BARGAIN);
    await describeAudience(2, " bargain HUNTERS ");
    await audience(3).locator('select[name="audienceId"]').selectOption({ label: SKEPTICS_TWIN.name });
    expect(await audience(3).locator('input[name="inlineAudience"]').count()).toBe(0);
    expect(await audience(3).textContent()).toContain("Ad skepticism very-high");

    // The same name twice, whatever its case and spaces: marked at once, refused on Rank, nothing sent.
    expect(await audience(2).getByTestId("duplicate-audience").textContent()).toBe("Audience 1 already has this name: each audience needs its own.");
    await page.getByRole("button", { name: "Rank 3 images for 3 audiences" }).click();
    const error = page.getByTestId("playground-error");
    expect(await error.textContent()).toMatch(/^Audiences 1 and 2 are both called “Bargain hunters”: give each audience a name of its own/);
    await shot(join(SHOTS, "01-duplicate-name.png"));
    expect(sent).toEqual([]);
    // A panel is for one audience.
    expect(await page.getByRole("button", { name: "Compare the first two with a panel" }).isDisabled()).toBe(true);

    await describeAudience(2, SKEPTICS.name, SKEPTICS);
    expect(await audience(2).getByTestId("duplicate-audience").count()).toBe(0);
    const answered = page.waitForResponse((res) => new URL(res.url()).pathname === "/console/api/playground/rank-audiences", { timeout: 110_000 });
    await page.getByRole("button", { name: "Rank 3 images for 3 audiences" }).click();
    const response = await answered;
    const text = await response.text();
    expect(response.status(), text).toBe(200);
    const answer = JSON.parse(text) as RankAudiencesResponse;
    expect(await error.count()).toBe(0);

    // What was sent: each image with its own copy, the two typed audiences as the example gives them, the saved one by id.
    const body = JSON.parse(sent.at(-1)!) as { goal: string; assets: Array<{ id: string; copy_context?: unknown }>; audiences: Array<Record<string, unknown>> };
    expect(body.goal).toBe("purchase-intent");
    expect(body.assets.map((a) => [a.id, a.copy_context])).toEqual(CREATIVES.map((name) => [name, COPY[name]]));
    expect(body.audiences).toEqual([BARGAIN, SKEPTICS, { audience_id: expect.stringMatching(/^aud_/) }]);

    // The matrix: 3 × 3 cells, audiences across in the request's order, images down with thumbnails,
    // each cell the API's final score and rank for that audience, one best cell per row at most.
    const matrix = page.getByTestId("score-matrix");
    await matrix.waitFor();
    expect(await matrix.locator("thead th").allTextContents()).toEqual(["Image", ...AUDIENCES, "Spread"]);
    const rows = matrix.getByTestId("matrix-row");
    expect(await rows.count()).toBe(3);
    expect(await rows.locator("th").allTextContents()).toEqual(CREATIVES);
    expect(await rows.locator("th img").count()).toBe(3);
    expect(await matrix.getByTestId("matrix-cell").count()).toBe(9);
    for (const [i, c] of answer.comparison.entries()) {
      const cells = await rows.nth(i).getByTestId("matrix-cell").allTextContents();
      expect(cells).toEqual(c.scores.map((s) => (s.score === null ? "failed" : `${s.score.toFixed(2)}#${s.rank} of ${answer.by_audience.find((b) => b.audience === s.audience)!.ranked.length}${c.best_audience === s.audience && c.spread! > 0 ? " (this image's best audience)" : ""}`)));
      expect(await rows.nth(i).locator('[data-best="true"]').count()).toBe(c.spread !== null && c.spread > 0 ? 1 : 0);
    }

    // The reversal the persona rules predict: the discount wins the bargain hunters, the sweeping
    // claims lose the sceptics. One sentence per reversal the API found, each saying the API's scores.
    const sentence = (r: RankAudiencesResponse["reversals"][number]) =>
      `For ${r.prefers_a.audience} ${r.asset_a.asset_id} beats ${r.asset_b.asset_id} (${scoresText(r.prefers_a.score_a, r.prefers_a.score_b)}); ` +
      `for ${r.prefers_b.audience} it is the other way round (${scoresText(r.prefers_b.score_a, r.prefers_b.score_b)}).`;
    const predicted = answer.reversals.find((r) => r.asset_a.asset_id === "spring-sale.png" && r.asset_b.asset_id === "summer-launch.png" && r.prefers_a.audience === BARGAIN.name && r.prefers_b.audience === SKEPTICS.name);
    expect(predicted, JSON.stringify(answer.reversals)).toBeDefined();
    const reversals = await page.getByTestId("reversal").allTextContents();
    expect(reversals).toEqual(answer.reversals.map(sentence));
    expect(reversals).toContain(sentence(predicted!));
    expect(await page.getByTestId("no-reversals").count()).toBe(0);

    // Rank correlations: below 1 between the bargain hunters and either sceptical audience; the two
    // sceptical audiences share one persona, so they score alike and the page says so, once.
    const pairs = await page.getByTestId("audience-pair").allTextContents();
    expect(pairs.map((p) => p.split(":")[0]!.replace(/ no difference$/, ""))).toEqual([`${BARGAIN.name} and ${SKEPTICS.name}`, `${BARGAIN.name} and ${SKEPTICS_TWIN.name}`, `${SKEPTICS.name} and ${SKEPTICS_TWIN.name}`]);
    const [withSkeptics, withTwin, twins] = answer.audience_sensitivity;
    for (const [k, s] of [withSkeptics!, withTwin!].entries()) {
      expect(s.persona_made_no_difference).toBe(false);
      expect(s.rank_correlation).toBeLessThan(1);
      expect(pairs[k]).toContain(`Rank correlation ${signed(s.rank_correlation!)}`);
      expect(pairs[k]).toContain("over 3 images.");
      expect(pairs[k]).not.toContain("no difference");
    }
    expect(twins!.persona_made_no_difference).toBe(true);
    expect(pairs[2]).toMatch(/^Skeptics and Skeptical runners no difference: Rank correlation \+1\.00 \(the same order\)/);
    const callouts = await page.getByTestId("no-difference").allTextContents();
    expect(callouts).toHaveLength(1);
    expect(callouts[0]).toMatch(/^The personas made no difference\. Skeptics and Skeptical runners scored every image alike/);

    // The bill, and the sim model named as such.
    expect(await page.getByTestId("audiences-credits").textContent()).toMatch(new RegExp(`^${answer.summary.credits_used} credits? used · ${answer.summary.credits_remaining} left\\.`));
    expect(await page.getByTestId("audiences-results").getByTestId("simulated-badge").textContent()).toBe("Simulated");

    // Each audience's full ranking, collapsed until opened.
    const full = page.getByTestId("audience-ranking");
    expect(await full.locator(":scope > summary").allTextContents()).toEqual(answer.by_audience.map((b) => `${b.audience}: ${b.ranked[0]!.asset_id} first`));
    expect(await full.first().getByTestId("ranked-card").first().isVisible()).toBe(false);

    await shot(join(DOC_SHOTS, "playground.png"));
    await shot(join(SHOTS, "02-playground-audiences.png"));

    // Every image was sent with copy, so every card shows its copy lift.
    await full.nth(1).locator(":scope > summary").click();
    expect(await full.nth(1).getByTestId("ranked-card").count()).toBe(answer.by_audience[1]!.ranked.length);
    expect(await full.nth(1).getByTestId("ranked-card").first().isVisible()).toBe(true);
    expect(await full.nth(1).getByTestId("copy-lift").count()).toBe(3);
    await shot(join(SHOTS, "03-one-audience-opened.png"));

    expect(cspViolations).toEqual([]);
  }, 150_000);
});
