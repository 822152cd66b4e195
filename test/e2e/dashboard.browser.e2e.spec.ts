import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { REPO_ROOT } from "../support/paths.ts";
import { creative } from "../support/png.ts";
import { startStack, type Stack } from "../support/stack.ts";

// The console in Debian's chromium: a person signs up, makes a key and sees it once, revokes
// it, saves an audience and ranks three images in the playground. Screenshots land in
// test-output/dashboard/ for a human to look at. The stack runs the offline sim model, so every
// playground result must carry the "Simulated" badge and name its models.

const CHROMIUM = "/usr/bin/chromium";
const SHOTS = join(REPO_ROOT, "test-output", "dashboard");
if (!existsSync(CHROMIUM)) {
  // Never a silent skip in CI: the browser is part of what CI installs (scripts/ensure-chromium.sh).
  if (process.env.CI === "true") throw new Error(`${CHROMIUM} is missing: run bash scripts/ensure-chromium.sh`);
  console.warn(`dashboard.browser.e2e.spec.ts SKIPPED: ${CHROMIUM} is missing (bash scripts/ensure-chromium.sh installs it)`);
}

describe.skipIf(!existsSync(CHROMIUM))("account console in a real browser", () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    stack = await startStack({ logLevel: "warn", dashboardEnv: { DASHBOARD_SIGNUP_CREDITS: "50", DASHBOARD_SESSION_SECRET: "browser-test-secret-of-at-least-32-chars" } });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"] });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(20_000);
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  }, 30_000);

  it("signs up, shows a new key once, revokes it, saves an audience and ranks three images", async () => {
    await page.goto(stack.dashboardUrl);
    await page.fill('input[name="email"]', "marketer@example.com");
    await page.fill('input[name="password"]', "a very good password");
    await shot("01-sign-up");
    await page.click('button[type="submit"]');
    await page.getByRole("heading", { name: "API keys" }).waitFor();

    // A key: the raw value is shown once, with a copy button.
    await page.fill('input[name="keyName"]', "production server");
    await page.click("text=Create key");
    const raw = (await page.locator(".raw-key").textContent())!.trim();
    expect(raw).toMatch(/^agk_live_[\w-]{40,}$/);
    await page.getByRole("button", { name: "Copy" }).waitFor();
    await shot("02-key-shown-once");
    // It works against the real API.
    const works = await fetch(`${stack.baseUrl}/api/v1/audiences`, { headers: { authorization: `Bearer ${raw}` } });
    expect(works.status).toBe(200);

    // After a reload only its prefix and last four remain.
    await page.reload();
    await page.getByRole("heading", { name: "API keys" }).waitFor();
    const row = page.locator('tr[data-key-name="production server"]');
    await expect.poll(() => row.textContent()).toContain(raw.slice(-4));
    expect(await page.content()).not.toContain(raw);
    await row.getByRole("button", { name: "Revoke" }).click();
    await row.locator(".badge", { hasText: "revoked" }).waitFor();
    await shot("03-key-revoked");
    await expect.poll(async () => (await fetch(`${stack.baseUrl}/api/v1/audiences`, { headers: { authorization: `Bearer ${raw}` } })).status, { timeout: 7_000, interval: 250 }).toBe(401);

    // A saved audience with demographics chosen from selects.
    await page.click("text=Audiences");
    await page.fill('input[name="audienceName"]', "Trail runners");
    await page.selectOption('select[name="ageRange"]', "25-34");
    await page.selectOption('select[name="priceSensitivity"]', "high");
    await page.click("text=Create audience");
    await page.locator('[data-audience-name="Trail runners"]').waitFor();
    await shot("04-audience");

    // The playground: three images, the saved audience, a goal; three ranked cards come back.
    await page.click("text=Playground");
    await page.setInputFiles('input[name="images"]', [3, 17, 29].map((v, i) => ({ name: `ad-${i + 1}.png`, mimeType: "image/png", buffer: Buffer.from(creative(v).split(",")[1]!, "base64") })));
    await expect.poll(() => page.locator(".thumbs img").count()).toBe(3);
    await page.selectOption('select[name="audienceId"]', { label: "Trail runners" });
    await page.selectOption('select[name="goal"]', "scroll-stopping");
    await page.fill('input[name="headline"]', "Run further this weekend");
    await shot("05-playground-ready");
    await page.click("text=Rank 3 images");
    await page.locator('[data-testid="ranked-card"]').nth(2).waitFor({ timeout: 60_000 });
    const cards = page.locator('[data-testid="ranked-card"]');
    expect(await cards.count()).toBe(3);
    expect(await cards.locator(".rank").allTextContents()).toEqual(["#1", "#2", "#3"]);
    expect(await cards.locator("img").count()).toBe(3);
    expect(await cards.first().textContent()).toMatch(/\/ 5 · (high|medium|low) confidence · copy lift/);
    // The gateway fills summary.models (issue 17); without the badge nothing on the page says "sim".
    expect(await page.getByTestId("simulated-badge").textContent({ timeout: 5_000 })).toBe("Simulated");
    expect(await page.getByTestId("simulated-badge").isVisible()).toBe(true);
    expect(await page.getByTestId("models-note").textContent()).toMatch(/offline sim model.*Models: generators sim:[\w-]+, sim:[\w-]+ · embedder sim:[\w-]+/);
    await shot("06-ranked");

    // The bill is visible as credits and usage.
    await page.click("text=Credits & usage");
    await expect.poll(() => page.getByTestId("available").textContent()).toBe(String(50 - 6));
    await shot("07-usage");
  }, 150_000);

  it("runs a pairwise panel in the playground and shows every vote", async () => {
    await page.click("text=Playground");
    await page.setInputFiles('input[name="images"]', [5, 40].map((v, i) => ({ name: `pair-${i + 1}.png`, mimeType: "image/png", buffer: Buffer.from(creative(v).split(",")[1]!, "base64") })));
    await page.click("text=Compare the first two with a panel");
    const panel = page.getByTestId("panel");
    await panel.waitFor({ timeout: 60_000 });
    expect(await panel.locator(".votes li").count()).toBe(5);
    expect(await panel.getByTestId("simulated-badge").textContent({ timeout: 5_000 })).toBe("Simulated");
    expect(await panel.getByTestId("models-note").textContent()).toMatch(/Models: voters sim:[\w-]+/);
    // Each vote names the model that cast it (a panel's seats may hold different models).
    expect(await panel.getByTestId("vote-model").allTextContents()).toEqual(Array.from({ length: 5 }, () => expect.stringMatching(/^ sim:[\w-]+$/)));
    await shot("08-pairwise");
  }, 90_000);
});
