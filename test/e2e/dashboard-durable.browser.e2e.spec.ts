import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { mkdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { newDeliveryId, requestsRepository, webhooksRepository, type RequestsRepository } from "@adrank/db/repositories";
import { DEVELOPMENT_SECRETS_KEY, webhookSecretBox } from "@adrank/runtime";
import { chromiumAvailable, launchChromium } from "../support/browser.ts";
import { REPO_ROOT } from "../support/paths.ts";
import { creative } from "../support/png.ts";
import { startStack, type Stack } from "../support/stack.ts";
import { watchCsp } from "./dashboard-browser-helpers.ts";

// The console's Requests and Webhooks pages in Debian's chromium against a whole stack: both
// empty states, a rank call made with a console key through the public API and then found in
// the history with its exact result (shown, copied, downloaded), a running request whose page
// refreshes until it finishes, the webhook signing secret made and rotated (shown once, the
// rotation behind a confirmation), and the delivery list with its attempts. Deliveries need a
// public https receiver, which a test may not reach, so their rows are written with the
// gateway's own repositories. Shots of both pages go to docs/screenshots/console-and-docs/,
// the rest to test-output/dashboard-durable/.

const SHOTS = join(REPO_ROOT, "test-output", "dashboard-durable");
const DOC_SHOTS = join(REPO_ROOT, "docs", "screenshots", "console-and-docs");
const EMAIL = "webhooks@example.com";
const PASSWORD = "a very good password";
const HAS_CHROMIUM = chromiumAvailable("dashboard-durable.browser.e2e.spec.ts");
const HOOK_URL = "https://hooks.example.com/adrank";

describe.skipIf(!HAS_CHROMIUM)("requests and webhooks in the account console", () => {
  let stack: Stack;
  let browser: Browser;
  let page: Page;
  let requests: RequestsRepository;
  let cspViolations: string[] = [];
  let accountId = "";
  let apiKey = "";
  let rankRequestId = "";
  let rankBody = "";
  const shot = async (path: string) => {
    const dismiss = page.getByTestId("toast").getByRole("button", { name: "Dismiss" });
    for (let i = 0; i < 5 && (await dismiss.count()) > 0; i++) await dismiss.first().click({ timeout: 1_000 }).catch(() => {});
    await page.screenshot({ path, fullPage: true });
  };
  const heading = (name: string) => page.getByRole("heading", { level: 1, name });
  const path = () => new URL(page.url()).pathname;
  const nav = (name: string) => page.getByRole("navigation", { name: "Console" }).getByRole("link", { name });
  const toast = (text: string | RegExp) => page.getByTestId("toast").filter({ hasText: text });
  // Secrets are sealed at rest (bound to their account); opened here with the stack's development key.
  const storedSecret = async () => {
    const row = await stack.database.db.selectFrom("webhook_secrets").select(["secret", "previous_secret"]).where("account_id", "=", accountId).executeTakeFirst();
    if (!row) return row;
    expect(row.secret).toMatch(/^v1\./);
    const box = webhookSecretBox(DEVELOPMENT_SECRETS_KEY);
    return { secret: box.open(row.secret, accountId), previous_secret: row.previous_secret === null ? null : box.open(row.previous_secret, accountId) };
  };

  /** An asynchronous request as a gateway starts it, under a lease this test holds. */
  const startAsync = async (total: number, webhookUrl?: string) => {
    const requestId = randomUUID();
    const claim = await requests.start(
      { requestId, accountId, keyId: "key_console", operation: "rank", mode: "async", fingerprint: randomUUID(), progressTotal: total, leaseOwner: "e2e-runner", leaseMs: 300_000, requestBody: "{}", acceptedBody: "{}", ...(webhookUrl ? { webhookUrl } : {}) },
      null,
      24,
    );
    expect(claim.kind).toBe("claimed");
    return requestId;
  };
  const finish = (requestId: string) => requests.finish(requestId, "e2e-runner", { state: "succeeded", response: { status: 200, headers: { "content-type": "application/json" }, body: rankBody.replaceAll(rankRequestId, requestId) } });

  beforeAll(async () => {
    await rm(SHOTS, { recursive: true, force: true });
    await mkdir(SHOTS, { recursive: true });
    await mkdir(DOC_SHOTS, { recursive: true });
    stack = await startStack({ logLevel: "warn", dashboardEnv: { DASHBOARD_SIGNUP_CREDITS: "50", DASHBOARD_SESSION_SECRET: "browser-test-secret-of-at-least-32-chars" } });
    requests = requestsRepository(stack.database.db);
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 }, locale: "en-US", timezoneId: "UTC" });
    page.setDefaultTimeout(20_000);
    cspViolations = watchCsp(page);
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  }, 30_000);

  it("signs up on a deep link to Requests; Requests and Webhooks explain what will appear there", async () => {
    await page.goto(`${stack.dashboardUrl}/requests`);
    // The watcher must see a violation, or its empty list at the end would prove nothing.
    await page.locator("body").evaluate((body) => body.insertAdjacentHTML("beforeend", '<i id="csp-probe" style="color: red"></i>'));
    await expect.poll(() => cspViolations.length).toBeGreaterThan(0);
    cspViolations.length = 0;
    expect(await page.getByTestId("continue-to").textContent()).toBe("Sign in to continue to Requests.");
    await page.getByRole("button", { name: "Create an account" }).click();
    await page.fill('input[name="email"]', EMAIL);
    await page.fill('input[name="password"]', PASSWORD);
    await page.click('button[type="submit"]');

    await heading("Requests").waitFor();
    expect(path()).toBe("/requests");
    expect(await page.title()).toBe("Requests · adrank console");
    const empty = page.getByTestId("requests-empty");
    expect(await empty.textContent()).toContain("No requests yet");
    expect(await empty.textContent()).toContain('"async": true');
    expect(await empty.textContent()).toContain("GET /api/v1/requests/{request_id}");
    await shot(join(SHOTS, "01-requests-empty.png"));
    accountId = (await page.evaluate(() => fetch("/console/api/me").then((r) => r.json() as Promise<{ accountId: string }>))).accountId;

    await nav("Webhooks").click();
    await heading("Webhooks").waitFor();
    expect(path()).toBe("/webhooks");
    expect(await page.getByTestId("webhook-secret-empty").textContent()).toContain("No signing secret yet");
    expect(await page.getByTestId("deliveries-empty").textContent()).toContain("No deliveries yet");
    await shot(join(SHOTS, "02-webhooks-empty.png"));
  }, 60_000);

  it("lists a rank call made with a console key and opens its exact result", async () => {
    await nav("API keys").click();
    await page.fill('input[name="keyName"]', "history test");
    await page.click("text=Create key");
    apiKey = (await page.locator(".raw-key").textContent())!.trim();
    expect(apiKey).toMatch(/^agk_live_/);

    const res = await fetch(`${stack.baseUrl}/api/v1/rank`, {
      method: "POST",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: JSON.stringify({ assets: [{ url: creative(3), id: "spring" }, { url: creative(17), id: "summer" }], audience: { name: "Trail runners" } }),
    });
    rankBody = await res.text();
    expect(res.status, rankBody).toBe(200);
    rankRequestId = res.headers.get("x-request-id")!;

    await nav("Requests").click();
    await heading("Requests").waitFor();
    const row = page.locator(`tr[data-request-id="${rankRequestId}"]`);
    await row.waitFor();
    expect((await row.locator("td").allTextContents()).slice(1, 6)).toEqual(["rank", "sync", "succeeded", "200", "2 of 2 assets"]);
    expect(await page.getByTestId("requests-empty").count()).toBe(0);

    await row.getByRole("link").click();
    await heading("Rank request").waitFor();
    expect(path()).toBe(`/requests/${rankRequestId}`);
    expect(await page.getByTestId("request-id").textContent()).toBe(rankRequestId);
    expect(await page.getByTestId("request-state").textContent()).toBe("succeeded");
    // Indented for reading, with the very values the API answered.
    expect(await page.getByTestId("result-json").textContent()).toBe(JSON.stringify(JSON.parse(rankBody), null, 2));
    await page.getByRole("button", { name: "Copy JSON" }).click();
    await page.getByRole("button", { name: "Copied" }).waitFor();
    // The download is the stored text itself, byte for byte what the call answered.
    const [download] = await Promise.all([page.waitForEvent("download"), page.getByRole("link", { name: "Download .json" }).click()]);
    expect(download.suggestedFilename()).toBe(`adrank-rank-${rankRequestId}.json`);
    expect(await readFile(await download.path(), "utf8")).toBe(rankBody);
    const samples = await page.getByTestId("fetch-samples").textContent();
    expect(samples).toContain(`"$ADRANK_BASE_URL/api/v1/requests/${rankRequestId}"`);
    expect(samples).toContain(`adrank.getRequest("${rankRequestId}")`);
    await shot(join(SHOTS, "03-request-result.png"));
  }, 90_000);

  it("shows a running request's progress and refreshes until its result is there", async () => {
    const requestId = await startAsync(8);
    await requests.setProgress(requestId, 3);
    await page.goto(`${stack.dashboardUrl}/requests/${requestId}`);
    await heading("Rank request").waitFor();
    const running = page.getByTestId("request-running");
    expect(await running.textContent()).toContain("3 of 8 assets done.");
    expect(await running.textContent()).toContain("This page refreshes every 2 seconds until the request finishes.");
    expect(await page.getByTestId("request-result").count()).toBe(0);
    await shot(join(SHOTS, "04-request-running.png"));

    expect(await finish(requestId)).toBe(true);
    await page.getByTestId("request-result").waitFor({ timeout: 10_000 });
    expect(await page.getByTestId("request-state").textContent()).toBe("succeeded");
    expect(await page.getByTestId("request-progress").textContent()).toBe("8 of 8 assets");
    expect(await running.count()).toBe(0);
  }, 60_000);

  it("creates the signing secret, shows it once, and rotates it only after a confirmation", async () => {
    await nav("Webhooks").click();
    await heading("Webhooks").waitFor();
    await page.getByRole("button", { name: "Create signing secret" }).click();
    const fresh = page.getByTestId("fresh-secret");
    await fresh.waitFor();
    const first = await fresh.locator('input[name="signingSecret"]').inputValue();
    expect(first).toMatch(/^whsec_[\w-]{40,}$/);
    expect(await fresh.textContent()).toContain("It will not be shown again.");
    await toast("Signing secret created").waitFor();
    expect((await storedSecret())?.secret).toBe(first);
    await shot(join(SHOTS, "05-secret-shown-once.png"));

    // Shown once: after a reload only its dates are left.
    await page.reload();
    await heading("Webhooks").waitFor();
    await page.getByTestId("webhook-secret").waitFor();
    expect(await page.getByTestId("webhook-secret").textContent()).toMatch(/created .*, never rotated/);
    expect(await page.content()).not.toContain(first);
    expect(await fresh.count()).toBe(0);

    const help = await page.getByTestId("verify-help").textContent();
    expect(help).toContain("Adrank-Signature");
    expect(help).toContain("HMAC-SHA256");
    expect(help).toContain('"<t>.<body>"');
    const docsLink = page.getByTestId("verify-docs-link");
    expect(await docsLink.textContent()).toBe("verifyWebhookSignature");
    // The console on its own port sends /docs on to the gateway's API reference.
    const docs = await fetch(new URL((await docsLink.getAttribute("href"))!, stack.dashboardUrl), { redirect: "manual" });
    expect(docs.status).toBe(302);
    expect(docs.headers.get("location")).toBe(`${stack.baseUrl}/docs`);

    // Rotation asks first, saying the old secret keeps signing; Cancel changes nothing.
    await page.getByRole("button", { name: "Rotate secret" }).click();
    const dialog = page.getByRole("dialog", { name: "Rotate the signing secret?" });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain("The old secret keeps signing deliveries alongside the new one for 24 h");
    await shot(join(SHOTS, "06-rotate-confirmation.png"));
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await dialog.waitFor({ state: "hidden" });
    expect(await storedSecret()).toEqual({ secret: first, previous_secret: null });

    await page.getByRole("button", { name: "Rotate secret" }).click();
    await dialog.getByRole("button", { name: "Rotate secret" }).click();
    await toast("Signing secret rotated").waitFor();
    const second = await fresh.locator('input[name="signingSecret"]').inputValue();
    expect(second).toMatch(/^whsec_/);
    expect(second).not.toBe(first);
    expect(await storedSecret()).toEqual({ secret: second, previous_secret: first });
    await page.getByTestId("previous-secret").waitFor();
    expect(await page.getByTestId("webhook-secret").textContent()).toMatch(/last rotated/);
    await fresh.getByRole("button", { name: "Done" }).click();
    await fresh.waitFor({ state: "detached" });
  }, 60_000);

  it("lists deliveries with their attempts and links each to its request", async () => {
    const webhooks = webhooksRepository(stack.database.db);
    // Written not yet due, so the gateway's delivery worker leaves them to this test.
    const later = new Date(Date.now() + 3_600_000);
    const deliver = async (requestId: string) => {
      const id = newDeliveryId();
      await stack.database.db.insertInto("webhook_deliveries").values({ id, request_id: requestId, account_id: accountId, url: HOOK_URL, state: "pending", next_attempt_at: later }).execute();
      return id;
    };
    const retrying = await startAsync(4, HOOK_URL);
    expect(await finish(retrying)).toBe(true);
    const retryingDelivery = await deliver(retrying);
    await webhooks.recordAttempt(retryingDelivery, { attempt: 1, attemptedAt: new Date(Date.now() - 30_000), status: 503, error: null, durationMs: 41, delivered: false, nextAttemptAt: new Date(Date.now() - 20_000) });
    await webhooks.recordAttempt(retryingDelivery, { attempt: 2, attemptedAt: new Date(Date.now() - 20_000), status: null, error: "timed out after 10 s", durationMs: 10_000, delivered: false, nextAttemptAt: later });
    const delivered = await startAsync(2, HOOK_URL);
    expect(await finish(delivered)).toBe(true);
    const deliveredDelivery = await deliver(delivered);
    await webhooks.recordAttempt(deliveredDelivery, { attempt: 1, attemptedAt: new Date(), status: 200, error: null, durationMs: 85, delivered: true, nextAttemptAt: null });

    await page.reload();
    await heading("Webhooks").waitFor();
    const row = page.locator(`tr[data-delivery-id="${retryingDelivery}"]`);
    await row.waitFor();
    expect(await page.getByTestId("deliveries-empty").count()).toBe(0);
    expect(await row.getByTestId("delivery-state").textContent()).toBe("pending");
    expect(await row.getByTestId("delivery-last").textContent()).toBe("timed out after 10 s");
    expect(await row.textContent()).toContain(HOOK_URL);
    const done = page.locator(`tr[data-delivery-id="${deliveredDelivery}"]`);
    expect(await done.getByTestId("delivery-state").textContent()).toBe("delivered");
    expect(await done.getByTestId("delivery-last").textContent()).toBe("HTTP 200");

    // The attempts open beneath the row, oldest first, each with its answer and how long it took.
    const toggle = row.getByRole("button", { name: "Show 2 attempts" });
    expect(await toggle.getAttribute("aria-expanded")).toBe("false");
    expect(await page.getByTestId("delivery-history").count()).toBe(0);
    await toggle.click();
    const history = page.locator(`[id="${await row.getByRole("button", { name: "Hide 2 attempts" }).getAttribute("aria-controls")}"]`);
    expect(await history.locator("li").allTextContents()).toEqual([expect.stringMatching(/ HTTP 503 in 41 ms$/), expect.stringMatching(/ timed out after 10 s \(10\.0 s\)$/)]);
    await shot(join(DOC_SHOTS, "after-webhooks.png"));

    await row.getByRole("link").click();
    await heading("Rank request").waitFor();
    expect(path()).toBe(`/requests/${retrying}`);
    expect(await page.getByTestId("request-facts").textContent()).toContain(`to ${HOOK_URL}, 2 attempts`);
  }, 60_000);

  it("shows the whole history, each row with its webhook's state", async () => {
    await nav("Requests").click();
    await heading("Requests").waitFor();
    await page.locator(`tr[data-request-id="${rankRequestId}"]`).waitFor();
    expect(await page.locator("tr[data-request-id]").count()).toBe(4);
    const webhookOf = async (state: string) => page.locator("tr[data-request-id]").filter({ has: page.locator(`td:last-child .badge.state-${state}`) }).count();
    expect(await webhookOf("pending")).toBe(1);
    expect(await webhookOf("delivered")).toBe(1);
    await shot(join(DOC_SHOTS, "after-requests.png"));
    expect(cspViolations).toEqual([]);
  }, 30_000);
});
