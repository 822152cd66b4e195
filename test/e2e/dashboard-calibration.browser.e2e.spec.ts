import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Locator, Page } from "playwright-core";
import type { CalibrationGroup, CalibrationResponse, Estimate } from "@adrank/contracts";
import { chromiumAvailable, launchChromium } from "../support/browser.ts";
import { REPO_ROOT } from "../support/paths.ts";
import { creative } from "../support/png.ts";
import { startStack, type Stack } from "../support/stack.ts";
import { watchCsp } from "./dashboard-browser-helpers.ts";

// The console's Calibration page in Debian's chromium against a whole stack on the offline sim
// model: the empty state, then rankings made with a console key through the public API and
// their outcomes recorded with POST /api/v1/outcomes, first too few (the page says how many
// more are needed), then enough (figures, the agreement chart, the scatter), every number the
// page shows checked against GET /api/v1/calibration. Its two page shots go to
// docs/screenshots/console-and-docs/, the rest to test-output/dashboard-calibration/.

const SHOTS = join(REPO_ROOT, "test-output", "dashboard-calibration");
const DOC_SHOTS = join(REPO_ROOT, "docs", "screenshots", "console-and-docs");
const HAS_CHROMIUM = chromiumAvailable("dashboard-calibration.browser.e2e.spec.ts");

interface Ranked {
  requestId: string;
  goal: string;
  assets: Array<{ asset_id: string; score: number }>;
}

// The page's own way of writing figures, restated: correlations to two decimals with a real
// minus sign, agreement as whole percentages.
const correlation = (v: number) => `${v < 0 ? "−" : ""}${Math.abs(v).toFixed(2)}`;
const percent = (v: number) => `${Math.round(v * 100)} %`;
const figure = (e: Estimate, format: (v: number) => string) => `${format(e.value)} 95 % CI ${format(e.ci_low)} to ${format(e.ci_high)}`;

describe.skipIf(!HAS_CHROMIUM)("calibration in the account console", () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let cspViolations: string[] = [];
  const consoleErrors: string[] = [];
  let apiKey = "";
  const rankings: Ranked[] = [];
  const shot = async (path: string) => {
    const dismiss = page.getByTestId("toast").getByRole("button", { name: "Dismiss" });
    for (let i = 0; i < 5 && (await dismiss.count()) > 0; i++) await dismiss.first().click({ timeout: 1_000 }).catch(() => {});
    await page.screenshot({ path, fullPage: true });
  };
  const heading = (name: string) => page.getByRole("heading", { level: 1, name });
  const nav = (name: string) => page.getByRole("navigation", { name: "Console" }).getByRole("link", { name });
  const card = (goal: string) => page.locator(`[data-testid="calibration-group"][data-goal="${goal}"]`);
  const api = (path: string, body?: unknown) =>
    fetch(`${stack.baseUrl}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });

  const rank = async (goal: string, variants: number[]) => {
    const res = await api("/api/v1/rank", { assets: variants.map((v) => ({ url: creative(v), id: `ad-${v}` })), audience: { name: "Trail runners" }, goal });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    const body = JSON.parse(text) as { ranked: Array<{ asset_id: string; score: number }> };
    rankings.push({ requestId: res.headers.get("x-request-id")!, goal, assets: body.ranked.map((a) => ({ asset_id: a.asset_id, score: a.score })) });
  };

  /**
   * Outcomes for assets of the rankings: a click-through rate that mostly follows the score,
   * with a deterministic wobble so that not every pair agrees.
   */
  const record = async (picks: Array<{ ranking: number; assets: number[] }>) => {
    const outcomes = picks.flatMap(({ ranking, assets }) =>
      assets.map((i) => {
        const { requestId, assets: ranked } = rankings[ranking]!;
        const asset = ranked[i]!;
        const wobble = (((i + ranking) * 7) % 5) - 2;
        return { request_id: requestId, asset_id: asset.asset_id, metric: "ctr", value: Number((0.004 * asset.score + 0.0035 * wobble + 0.01).toFixed(5)), impressions: 10_000 + 1_000 * i };
      }),
    );
    const res = await api("/api/v1/outcomes", { outcomes });
    const text = await res.text();
    expect(res.status, text).toBe(200);
    expect(JSON.parse(text).created).toBe(outcomes.length);
  };

  /** The card of a group shows the API's counts and, when it has them, the API's figures. */
  const expectCardEquals = async (shown: Locator, group: CalibrationGroup) => {
    const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;
    expect(await shown.getByTestId("group-counts").textContent()).toBe(`${plural(group.n_outcomes, "outcome")} · ${plural(group.n_requests, "request")} · ${plural(group.n_pairs, "pair")}`);
    if (!group.enough_data) {
      expect(await shown.getByTestId("spearman-rho").count()).toBe(0);
      return;
    }
    expect(await shown.getByTestId("spearman-rho").textContent()).toBe(figure(group.spearman_rho!, correlation));
    expect(await shown.getByTestId("kendall-tau-b").textContent()).toBe(figure(group.kendall_tau_b!, correlation));
    expect(await shown.getByTestId("pairwise-agreement").textContent()).toBe(figure(group.pairwise_agreement!, percent));
    expect(await shown.getByTestId("pairwise-agreement-raw").textContent()).toBe(figure(group.pairwise_agreement_raw!, percent));
    expect(await shown.getByTestId("not-enough-data").count()).toBe(0);
  };

  beforeAll(async () => {
    await rm(SHOTS, { recursive: true, force: true });
    await mkdir(SHOTS, { recursive: true });
    await mkdir(DOC_SHOTS, { recursive: true });
    stack = await startStack({ logLevel: "warn", dashboardEnv: { DASHBOARD_SIGNUP_CREDITS: "50", DASHBOARD_SESSION_SECRET: "browser-test-secret-of-at-least-32-chars" } });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: "en-US", timezoneId: "UTC" });
    page.setDefaultTimeout(20_000);
    cspViolations = watchCsp(page);
    page.on("console", (msg) => {
      if (msg.type() === "error") consoleErrors.push(msg.text());
    });
    page.on("pageerror", (err) => consoleErrors.push(err.message));
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  }, 30_000);

  it("signs up on a deep link to Calibration, which says how to record outcomes before there are any", async () => {
    await page.goto(`${stack.dashboardUrl}/calibration`);
    expect(await page.getByTestId("continue-to").textContent()).toBe("Sign in to continue to Calibration.");
    await page.getByRole("button", { name: "Create an account" }).click();
    await page.fill('input[name="email"]', "calibration@example.com");
    await page.fill('input[name="password"]', "a very good password");
    await page.click('button[type="submit"]');

    await heading("Calibration").waitFor();
    // Signed out, /console/api/me answered 401, which chromium logs as an error: that one is expected.
    expect(consoleErrors).toEqual(["Failed to load resource: the server responded with a status of 401 (Unauthorized)"]);
    consoleErrors.length = 0;
    expect(new URL(page.url()).pathname).toBe("/calibration");
    expect(await page.title()).toBe("Calibration · adrank console");
    const empty = page.getByTestId("calibration-empty");
    const text = await empty.textContent();
    expect(text).toContain("No outcomes recorded yet");
    expect(text).toContain("POST /api/v1/outcomes");
    expect(text).toContain("adrank eval dataset.csv --metric ctr --record-outcomes");
    expect(text).toContain("adrank outcomes outcomes.csv --metric ctr");
    expect(text).toContain("once a goal has 10 outcomes");
    // The console on its own port sends /docs on to the gateway's API reference.
    const docs = await fetch(new URL((await page.getByTestId("calibration-docs-link").getAttribute("href"))!, stack.dashboardUrl), { redirect: "manual" });
    expect(docs.status).toBe(302);
    expect(docs.headers.get("location")).toMatch(new RegExp(`^${stack.baseUrl}/docs`));
    await shot(join(SHOTS, "01-empty.png"));
  }, 60_000);

  it("says how many outcomes a goal still needs while it has fewer than ten", async () => {
    await nav("API keys").click();
    await page.fill('input[name="keyName"]', "calibration test");
    await page.click("text=Create key");
    apiKey = (await page.locator(".raw-key").textContent())!.trim();
    expect(apiKey).toMatch(/^agk_live_/);

    await rank("purchase-intent", [1, 2, 3, 4]);
    await rank("purchase-intent", [5, 6, 7, 8]);
    await rank("purchase-intent", [9, 10, 11, 12]);
    await rank("engagement", [13, 14, 15]);
    await record([{ ranking: 0, assets: [0, 1, 2, 3] }, { ranking: 1, assets: [0, 1, 2] }]);

    await nav("Calibration").click();
    await heading("Calibration").waitFor();
    const shown = card("purchase-intent");
    await shown.waitFor();
    expect(await shown.getByTestId("not-enough-data").textContent()).toBe("Not enough data: 7 of 10 outcomes needed.");
    expect(await page.getByTestId("calibration-group").count()).toBe(1);
    expect(await page.getByTestId("agreement-chart-empty").textContent()).toContain("once a goal has 10 outcomes");
    expect(await page.getByTestId("agreement-chart").count()).toBe(0);
    // The outcomes are plotted already; only the figures wait for enough of them.
    await page.getByTestId("outcome-scatter").locator(".recharts-scatter-symbol").first().waitFor();
    expect(await page.getByTestId("outcome-scatter").locator(".recharts-scatter-symbol").count()).toBe(7);
    // The stack runs the offline sim model: the page says the figures measure the harness.
    const simulated = await page.getByTestId("calibration-simulated").textContent();
    expect(simulated).toContain("Simulated");
    expect(simulated).toContain("All 7 outcomes belong to rankings scored by the offline sim model");
    expect(simulated).toContain("measure the harness, not a model");

    const report = (await (await api("/api/v1/calibration")).json()) as CalibrationResponse;
    await expectCardEquals(shown, report.metrics[0]!.goals[0]!);
    await shot(join(DOC_SHOTS, "calibration-not-enough.png"));
  }, 90_000);

  it("shows the API's figures per goal and pooled, agreement against chance, and every outcome against its score", async () => {
    await record([{ ranking: 1, assets: [3] }, { ranking: 2, assets: [0, 1, 2, 3] }, { ranking: 3, assets: [0, 1, 2] }]);
    await page.reload();
    await heading("Calibration").waitFor();
    await card("purchase-intent").getByTestId("spearman-rho").waitFor();

    const res = await api("/api/v1/calibration");
    expect(res.status).toBe(200);
    const report = (await res.json()) as CalibrationResponse;
    expect(report.metrics.map((m) => m.metric)).toEqual(["ctr"]);
    const { pooled, goals } = report.metrics[0]!;
    expect(pooled).toMatchObject({ n_outcomes: 15, n_requests: 4, n_simulated: 15, enough_data: true });
    expect(goals.map((g) => [g.goal, g.n_outcomes, g.enough_data])).toEqual([["engagement", 3, false], ["purchase-intent", 12, true]]);

    // Pooled first, then each goal by name: the same cards in the same order as the API's rows.
    expect(await page.getByTestId("calibration-group").evaluateAll((cards) => cards.map((c) => c.getAttribute("data-goal")))).toEqual(["all", "engagement", "purchase-intent"]);
    await expectCardEquals(card("all"), pooled);
    await expectCardEquals(card("engagement"), goals[0]!);
    await expectCardEquals(card("purchase-intent"), goals[1]!);
    expect(await card("engagement").getByTestId("not-enough-data").textContent()).toBe("Not enough data: 3 of 10 outcomes needed.");
    expect(await page.getByText(`A group needs at least ${report.min_outcomes} outcomes before it gets figures.`).count()).toBe(1);

    // Agreement: final and raw bars for the pooled row and purchase-intent, whiskers, and chance at 50 %.
    const chart = page.getByTestId("agreement-chart");
    await chart.locator(".recharts-bar-rectangle").first().waitFor();
    expect(await chart.locator(".recharts-bar-rectangle").count()).toBe(4);
    expect(await chart.locator(".recharts-errorBar").count()).toBe(4);
    // The y axis's ticks are percentages; the rest name the bars.
    const ticks = await chart.locator(".recharts-cartesian-axis-tick-value").allTextContents();
    expect(ticks.filter((t) => !t.endsWith("%"))).toEqual(["All goals", "purchase-intent"]);
    expect(ticks.filter((t) => t.endsWith("%"))).toEqual(["0 %", "25 %", "50 %", "75 %", "100 %"]);
    expect(await chart.locator(".recharts-reference-line-line").count()).toBe(1);
    expect(await chart.locator("svg text").filter({ hasText: /^chance$/ }).count()).toBe(1);
    // The whisker is drawn over the bar's middle: point at its foot.
    await chart.scrollIntoViewIfNeeded();
    const bar = (await chart.locator(".recharts-bar-rectangle").first().boundingBox())!;
    await page.mouse.move(bar.x + bar.width / 2, bar.y + bar.height - 4);
    const tooltip = page.getByTestId("agreement-tooltip");
    await tooltip.waitFor();
    expect(await tooltip.textContent()).toContain(`${percent(pooled.pairwise_agreement!.value)} (${percent(pooled.pairwise_agreement!.ci_low)} to ${percent(pooled.pairwise_agreement!.ci_high)})`);

    // Every outcome is a dot, coloured by its goal.
    const scatter = page.getByTestId("outcome-scatter");
    expect(await scatter.locator(".recharts-scatter-symbol").count()).toBe(15);
    expect(await scatter.getByTestId("scatter-legend").locator("li").allTextContents()).toEqual([" engagement (3)", " purchase-intent (12)"]);
    await page.mouse.move(0, 0);
    await shot(join(DOC_SHOTS, "calibration.png"));

    // A goal on its own: its card, its points, and the address keeps the choice.
    await page.getByRole("combobox", { name: "Goal" }).selectOption("purchase-intent");
    await expect.poll(() => page.getByTestId("calibration-group").count()).toBe(1);
    expect(new URL(page.url()).search).toBe("?goal=purchase-intent");
    await expectCardEquals(card("purchase-intent"), goals[1]!);
    expect(await scatter.locator(".recharts-scatter-symbol").count()).toBe(12);
    const onlyGoal = (await (await api("/api/v1/calibration?goal=purchase-intent")).json()) as CalibrationResponse;
    expect(onlyGoal.metrics[0]!.goals[0]).toEqual(goals[1]);
    await shot(join(SHOTS, "02-one-goal.png"));

    expect(cspViolations).toEqual([]);
    expect(consoleErrors).toEqual([]);
  }, 90_000);
});
