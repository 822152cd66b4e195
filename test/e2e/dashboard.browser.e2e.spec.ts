import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { chromiumAvailable, launchChromium } from "../support/browser.ts";
import { REPO_ROOT } from "../support/paths.ts";
import { startStack, type Stack } from "../support/stack.ts";
import { longToday, pngFile, watchCsp } from "./dashboard-browser-helpers.ts";

// The console in Debian's chromium, page by page, as one person's first session: a deep link
// while signed out, every page's empty state, Back and reload, a key made, shown once and
// revoked after a confirmation, audiences saved and deleted, the playground (dropped files,
// a ranking, a panel), the playground's own key explained, and usage as chart and table.
// Screenshots land in test-output/dashboard/ for a human to look at. The stack runs the offline
// sim model, so every playground result must carry the "Simulated" badge and name its models.
// The page's CSP allows no inline style or script: any violation fails the run.

const SHOTS = join(REPO_ROOT, "test-output", "dashboard");
const EMAIL = "marketer@example.com";
const PASSWORD = "a very good password";
const HAS_CHROMIUM = chromiumAvailable("dashboard.browser.e2e.spec.ts");

describe.skipIf(!HAS_CHROMIUM)("account console in a real browser", () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let cspViolations: string[] = [];
  // Toasts of earlier steps would float over the page: a shot keeps them only when they are its subject.
  const shot = async (name: string, { keepToasts = false } = {}) => {
    // First one at a time (the rest move up); a toast may also time out before its click.
    const dismiss = page.getByTestId("toast").getByRole("button", { name: "Dismiss" });
    for (let i = 0; !keepToasts && i < 5 && (await dismiss.count()) > 0; i++) await dismiss.first().click({ timeout: 1_000 }).catch(() => {});
    await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
  };
  const heading = (name: string) => page.getByRole("heading", { level: 1, name });
  const path = () => new URL(page.url()).pathname;
  const nav = (name: string) => page.getByRole("navigation", { name: "Console" }).getByRole("link", { name });
  const toast = (text: string | RegExp) => page.getByTestId("toast").filter({ hasText: text });

  beforeAll(async () => {
    // Only this run's screenshots: a renamed step must not leave an old picture behind.
    await rm(SHOTS, { recursive: true, force: true });
    await mkdir(SHOTS, { recursive: true });
    stack = await startStack({ logLevel: "warn", dashboardEnv: { DASHBOARD_SIGNUP_CREDITS: "50", DASHBOARD_SESSION_SECRET: "browser-test-secret-of-at-least-32-chars" } });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: "en-US", timezoneId: "UTC" });
    page.setDefaultTimeout(20_000);
    cspViolations = watchCsp(page);
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  }, 30_000);

  it("opens a deep link signed out, signs up there and lands on it; every page starts empty; Back and reload keep the page", async () => {
    await page.goto(`${stack.dashboardUrl}/usage`);
    // The watcher must see a violation, or its empty list at the end would prove nothing.
    await page.locator("body").evaluate((body) => body.insertAdjacentHTML("beforeend", '<i id="csp-probe" style="color: red"></i>'));
    await expect.poll(() => cspViolations.length).toBeGreaterThan(0);
    cspViolations.length = 0;
    expect(await page.getByTestId("continue-to").textContent()).toBe("Sign in to continue to Credits & usage.");
    await page.getByRole("button", { name: "Create an account" }).click();
    expect(await page.getByTestId("continue-to").textContent()).toBe("Once signed up, you go on to Credits & usage.");
    await page.fill('input[name="email"]', EMAIL);
    await page.fill('input[name="password"]', PASSWORD);
    await shot("01-sign-up-deep-link");
    await page.click('button[type="submit"]');

    // Landed on the page the link named, which has no usage yet: a sentence, not a blank chart.
    await heading("Credits & usage").waitFor();
    expect(path()).toBe("/usage");
    expect(await page.title()).toBe("Credits & usage · adrank console");
    await page.getByTestId("usage-empty").waitFor();
    expect(await page.getByTestId("available").textContent()).toBe("50");
    expect(await page.getByTestId("usage-chart").count()).toBe(0);
    await shot("02-usage-empty");

    await nav("API keys").click();
    await heading("API keys").waitFor();
    expect(path()).toBe("/keys");
    expect(await page.getByTestId("keys-empty").textContent()).toContain("No API keys yet");
    await shot("03-keys-empty");

    await nav("Audiences").click();
    await heading("Saved audiences").waitFor();
    expect(await page.getByTestId("audiences-empty").textContent()).toContain("No audiences yet");
    // Each demographic select names its API field.
    expect(await page.getByLabel("Age range (ageRange)").evaluate((el) => el.tagName)).toBe("SELECT");
    expect(await page.getByLabel("Price sensitivity (priceSensitivity)").evaluate((el) => el.tagName)).toBe("SELECT");
    await shot("04-audiences-empty");

    // First run: the playground greets with the account's real credits and the two first steps.
    await nav("Playground").click();
    await heading("Playground").waitFor();
    const onboarding = page.getByTestId("onboarding");
    expect(await onboarding.textContent()).toContain("You have 50 credits");
    expect(await onboarding.getByRole("link", { name: "create a key" }).getAttribute("href")).toBe("/keys");
    await shot("05-playground-first-run");

    // Back walks the pages in reverse; a reload stays where it is; an unknown address says so.
    await page.goBack();
    await heading("Saved audiences").waitFor();
    expect(path()).toBe("/audiences");
    await page.goBack();
    await heading("API keys").waitFor();
    await page.reload();
    await heading("API keys").waitFor();
    expect(path()).toBe("/keys");
    await page.goto(`${stack.dashboardUrl}/no-such-page`);
    await heading("No such page").waitFor();
    await page.goto(stack.dashboardUrl);
    await heading("Playground").waitFor();
    expect(path()).toBe("/playground");
  }, 90_000);

  it("creates a key, shows it once, and revokes it only after a confirmation", async () => {
    await nav("API keys").click();
    await page.fill('input[name="keyName"]', "production server");
    await page.click("text=Create key");
    const raw = (await page.locator(".raw-key").textContent())!.trim();
    expect(raw).toMatch(/^agk_live_[\w-]{40,}$/);
    await page.getByRole("button", { name: "Copy" }).waitFor();
    await toast("Key “production server” created").waitFor();
    await shot("06-key-shown-once", { keepToasts: true });
    const audiencesWith = async (key: string) => (await fetch(`${stack.baseUrl}/api/v1/audiences`, { headers: { authorization: `Bearer ${key}` } })).status;
    expect(await audiencesWith(raw)).toBe(200);

    // After a reload only its prefix and last four remain.
    await page.reload();
    await heading("API keys").waitFor();
    const row = page.locator('tr[data-key-name="production server"]');
    await expect.poll(() => row.textContent()).toContain(raw.slice(-4));
    expect(await page.content()).not.toContain(raw);

    // Revoke asks first; Cancel leaves the key alone.
    await row.getByRole("button", { name: "Revoke" }).click();
    const dialog = page.getByRole("dialog", { name: "Revoke “production server”?" });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(`…${raw.slice(-4)}`);
    await shot("07-revoke-confirmation");
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await row.locator(".badge", { hasText: "revoked" }).count()).toBe(0);
    expect(await audiencesWith(raw)).toBe(200);

    await row.getByRole("button", { name: "Revoke" }).click();
    await dialog.getByRole("button", { name: "Revoke key" }).click();
    await toast("Key “production server” revoked").waitFor();
    await row.locator(".badge", { hasText: "revoked" }).waitFor();
    await shot("08-key-revoked", { keepToasts: true });
    await expect.poll(() => audiencesWith(raw), { timeout: 7_000, interval: 250 }).toBe(401);
  }, 60_000);

  it("saves audiences with toasts and deletes one only after a confirmation", async () => {
    await nav("Audiences").click();
    await page.fill('input[name="audienceName"]', "Trail runners");
    await page.selectOption('select[name="ageRange"]', "25-34");
    await page.selectOption('select[name="priceSensitivity"]', "high");
    await page.click("text=Create audience");
    await toast("Audience “Trail runners” created").waitFor();
    await page.locator('[data-audience-name="Trail runners"]').waitFor();
    expect(await page.getByTestId("audiences-empty").count()).toBe(0);

    await page.fill('input[name="audienceName"]', "Tried and dropped");
    await page.click("text=Create audience");
    const dropped = page.locator('[data-audience-name="Tried and dropped"]');
    await dropped.waitFor();
    await shot("09-audiences");
    await dropped.getByRole("button", { name: "Delete" }).click();
    const dialog = page.getByRole("dialog", { name: "Delete “Tried and dropped”?" });
    await dialog.getByRole("button", { name: "Delete audience" }).click();
    await toast("Audience “Tried and dropped” deleted").waitFor();
    await dropped.waitFor({ state: "detached" });
    expect(await page.locator("[data-audience-name]").count()).toBe(1);
  }, 30_000);

  it("says which dropped files it left out, explains errors in plain words, and ranks three images", async () => {
    await nav("Playground").click();
    const input = page.locator('input[name="images"]');
    // 21 images and a text file: 20 kept, and a sentence for each thing left out.
    await input.setInputFiles([...Array.from({ length: 21 }, (_, i) => pngFile(`bulk-${i + 1}.png`, i)), { name: "notes.txt", mimeType: "text/plain", buffer: Buffer.from("not an image") }]);
    await expect.poll(() => page.locator(".thumbs img").count()).toBe(20);
    const notices = page.getByTestId("dropped-files");
    expect(await notices.locator("li").allTextContents()).toEqual(["notes.txt is not an image: skipped", "21 images: only the first 20 were kept (bulk-21.png left out)"]);
    await shot("10-playground-dropped-files");
    await page.getByRole("button", { name: "Clear images" }).click();
    expect(await notices.count()).toBe(0);

    await input.setInputFiles([3, 17, 29].map((v, i) => pngFile(`ad-${i + 1}.png`, v)));
    await expect.poll(() => page.locator(".thumbs img").count()).toBe(3);
    // A refused request reads as a sentence, with no status number in front.
    await page.fill('input[name="inlineAudience"]', "x".repeat(300));
    await page.click("text=Rank 3 images");
    const error = page.getByTestId("playground-error");
    await error.waitFor();
    expect(await error.textContent()).toBe("The audience name must be at most 200 characters long.");
    await shot("11-playground-error");

    await page.selectOption('select[name="audienceId"]', { label: "Trail runners" });
    await page.selectOption('select[name="goal"]', "scroll-stopping");
    await page.fill('input[name="headline"]', "Run further this weekend");
    await page.click("text=Rank 3 images");
    await page.locator('[data-testid="ranked-card"]').nth(2).waitFor({ timeout: 60_000 });
    expect(await error.count()).toBe(0);
    const cards = page.locator('[data-testid="ranked-card"]');
    expect(await cards.count()).toBe(3);
    expect(await cards.locator(".rank").allTextContents()).toEqual(["#1", "#2", "#3"]);
    expect(await cards.locator("img").count()).toBe(3);
    expect(await cards.first().textContent()).toMatch(/\/ 5 · (high|medium|low) confidence · copy lift [+−]?\d\.\d\d/);
    // Copy lift is explained, on the page and on each value.
    expect(await page.getByTestId("copy-lift-help").textContent()).toMatch(/^Copy lift: how much your headline and body raised \(\+\) or lowered \(−\) an image's score compared with the image alone/);
    expect(await cards.first().getByTestId("copy-lift").getAttribute("title")).toContain("compared with the image alone");
    // A panel outcome names both images of the pair.
    const outcomes = await page.getByTestId("panel-outcome").locator("p").allTextContents();
    expect(outcomes.length).toBeGreaterThan(0);
    for (const o of outcomes) expect(o).toMatch(/^Panel: ad-\d\.png beat ad-\d\.png, \d of \d votes/);
    // The gateway fills summary.models (issue 17); without the badge nothing on the page says "sim".
    expect(await page.getByTestId("simulated-badge").textContent({ timeout: 5_000 })).toBe("Simulated");
    expect(await page.getByTestId("simulated-badge").isVisible()).toBe(true);
    expect(await page.getByTestId("models-note").textContent()).toMatch(/offline sim model.*Models: generators sim:[\w-]+, sim:[\w-]+ · embedder sim:[\w-]+/);
    // Onboarding has done its job once something was ranked.
    expect(await page.getByTestId("onboarding").count()).toBe(0);
    await shot("12-playground-ranked");
  }, 90_000);

  it("runs a pairwise panel and says which image each voter saw first", async () => {
    await page.getByRole("button", { name: "Clear images" }).click();
    await page.locator('input[name="images"]').setInputFiles([pngFile("summer.png", 5), pngFile("spring.png", 40)]);
    await page.click("text=Compare the first two with a panel");
    const panel = page.getByTestId("panel");
    await panel.waitFor({ timeout: 60_000 });
    expect(await panel.locator("h3").textContent()).toMatch(/^Panel: (summer|spring)\.png beat (spring|summer)\.png, \d of 5 votes$/);
    expect(await panel.locator(".votes li").count()).toBe(5);
    const orders = await panel.getByTestId("vote-order").allTextContents();
    expect(orders).toEqual(Array.from({ length: 5 }, () => expect.stringMatching(/^saw (summer|spring)\.png first$/)));
    expect(new Set(orders).size).toBe(2);
    expect(await panel.getByTestId("simulated-badge").textContent({ timeout: 5_000 })).toBe("Simulated");
    expect(await panel.getByTestId("models-note").textContent()).toMatch(/Models: voters sim:[\w-]+/);
    // Each vote names the model that cast it (a panel's seats may hold different models).
    expect(await panel.getByTestId("vote-model").allTextContents()).toEqual(Array.from({ length: 5 }, () => expect.stringMatching(/^ sim:[\w-]+$/)));
    // How sure the panel is, and the answer's warnings as sentences (issue 34).
    expect(await panel.getByTestId("win-probability").textContent()).toMatch(/\d+ %/);
    // The simulated warning is the SIMULATED note's to say, once; other warnings show as sentences.
    for (const text of await panel.getByTestId("answer-warning").allTextContents()) expect(text).not.toMatch(/offline sim model/);
    await shot("13-playground-panel");
  }, 90_000);

  it("explains the playground's own key in the key list", async () => {
    await nav("API keys").click();
    const row = page.locator('tr[data-playground-key="true"]');
    await row.waitFor();
    expect(await row.getByTestId("playground-key-badge").textContent()).toBe("playground");
    expect(await row.getByTestId("playground-key-note").textContent()).toMatch(/^Used by the playground in this console.*Revoking it is safe: the playground makes a new one the next time you use it\.$/);
    // Only the key the console made is marked.
    expect(await page.locator('tr[data-key-name="production server"]').getAttribute("data-playground-key")).toBeNull();
    await shot("14-keys-with-playground-key");
  }, 30_000);

  it("shows usage as a chart with axes and values on hover, and as a table; signing in again lands on the link", async () => {
    await nav("Credits & usage").click();
    await heading("Credits & usage").waitFor();
    // The ledger's Postgres mirror settles shortly after the requests: wait until it has both kinds.
    await expect.poll(async () => {
      await page.reload();
      await heading("Credits & usage").waitFor();
      if ((await page.getByTestId("usage-chart").count()) === 0) return "no chart yet";
      await page.getByRole("button", { name: "Table" }).click();
      const row = page.locator(".usage-table tbody tr").first();
      return (await row.locator("td").allTextContents()).map(Number).every((n) => n > 0) ? "both kinds" : "one kind";
    }, { timeout: 15_000, interval: 500 }).toBe("both kinds");

    // The table: today's row, and the 30 days' total equal to what the balance says was used.
    const used = Number(await page.getByTestId("used").textContent());
    expect(Number(await page.getByTestId("available").textContent())).toBe(50 - used);
    expect(await page.locator(".usage-table tbody th").first().textContent()).toBe(longToday());
    expect(Number(await page.getByTestId("usage-total").textContent())).toBe(used);
    const [scoring, pairwise, total] = (await page.locator(".usage-table tbody tr").first().locator("td").allTextContents()).map(Number);
    await shot("15-usage-table");

    // The chart: dated x axis, numbered y axis, and today's values on hover.
    await page.getByRole("button", { name: "Chart" }).click();
    const chart = page.getByTestId("usage-chart");
    await chart.locator(".recharts-bar-rectangle").first().waitFor();
    const xTicks = await chart.locator(".recharts-xAxis-tick-labels .recharts-cartesian-axis-tick-value").allTextContents();
    expect(xTicks.length).toBeGreaterThan(3);
    for (const t of xTicks) expect(t).toMatch(/^[A-Z][a-z]{2} \d{1,2}$/);
    const yTicks = (await chart.locator(".recharts-yAxis-tick-labels .recharts-cartesian-axis-tick-value").allTextContents()).map(Number);
    expect(Math.max(...yTicks)).toBeGreaterThanOrEqual(total!);
    expect(await chart.locator(".recharts-label").textContent()).toBe("credits");
    // Hover today's bar (the last one): the tooltip names the day and both kinds.
    await chart.locator(".recharts-bar-rectangle").last().hover();
    const tooltip = page.getByTestId("usage-tooltip");
    await tooltip.waitFor();
    expect((await tooltip.innerText()).replace(/\s+/g, " ").trim()).toBe(`${longToday()} Scoring ${scoring} Pairwise ${pairwise} Total ${total} credits`);
    await shot("16-usage-chart-hover");

    // Signed out, a deep link asks for a sign-in and then opens that page.
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.goto(`${stack.dashboardUrl}/usage`);
    await page.fill('input[name="email"]', EMAIL);
    await page.fill('input[name="password"]', PASSWORD);
    await page.click('button[type="submit"]');
    await heading("Credits & usage").waitFor();
    expect(path()).toBe("/usage");
    await page.getByTestId("usage-chart").waitFor();

    expect(cspViolations).toEqual([]);
  }, 60_000);
});
