import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { chmod, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { chromiumAvailable, launchChromium } from "../support/browser.ts";
import { REPO_ROOT } from "../support/paths.ts";
import { startStack, type Account, type Stack } from "../support/stack.ts";

// The API reference at /docs in Debian's chromium, on a real gateway: our introduction and
// tags render, the page talks to nobody but its own origin, raises no CSP violation or
// console error, and "Test request" with the document's example and a real key ranks. Then
// every code sample on the page is run as a reader would paste it: curl, the TypeScript SDK
// and the adrank CLI. Screenshots land in test-output/docs/ for a human to look at.

const SHOTS = join(REPO_ROOT, "test-output", "docs");
const CLI = join(REPO_ROOT, "packages/cli/src/main.ts");
const HAS_CHROMIUM = chromiumAvailable("docs-page.browser.e2e.spec.ts");

type Sample = { label: string; source: string };
type Operation = { operationId: string; "x-codeSamples": Sample[]; requestBody?: { content: Record<string, { examples: Record<string, { value: unknown }> }> } };
type OpenApiDocument = { info: { title: string }; paths: Record<string, Record<string, Operation>> };

describe.skipIf(!HAS_CHROMIUM)("the API reference at /docs in a real browser", () => {
  let stack: Stack;
  let account: Account;
  let browser: Browser;
  let page: Page;
  let openApi: OpenApiDocument;
  const requested: string[] = [];
  const consoleErrors: string[] = [];
  const shot = (name: string, fullPage = false) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage });

  beforeAll(async () => {
    await mkdir(SHOTS, { recursive: true });
    stack = await startStack({ logLevel: "warn" });
    account = await stack.createAccount({ credits: 200 });
    openApi = (await (await fetch(`${stack.baseUrl}/docs/json`)).json()) as OpenApiDocument;
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    page.setDefaultTimeout(20_000);
    page.on("request", (r) => requested.push(r.url()));
    page.on("console", (m) => {
      if (m.type() === "error") consoleErrors.push(m.text());
    });
    page.on("pageerror", (e) => consoleErrors.push(`uncaught: ${e.message}`));
    // Chromium also logs a violation to the console; the event names the directive.
    await page.addInitScript({ content: 'document.addEventListener("securitypolicyviolation", (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));' });
  }, 150_000);

  afterAll(async () => {
    await browser?.close();
    await stack?.stop();
  }, 30_000);

  it("shows our name, the introduction and every operation under its tag", async () => {
    await page.goto(`${stack.baseUrl}/docs`);
    await page.getByRole("heading", { name: openApi.info.title }).waitFor();
    for (const heading of ["Scores are relative", "Authentication", "Quick start", "Rate limits", "Credits", "Errors", "How sure is it", "Audiences side by side", "Measuring fidelity", "Versioning"]) {
      await expect.poll(() => page.getByRole("heading", { name: heading, exact: true }).count(), { message: heading }).toBeGreaterThan(0);
    }
    expect(await page.getByText("It is not a conversion probability", { exact: false }).count()).toBeGreaterThan(0);
    await shot("01-introduction");

    const sidebar = page.locator("aside");
    const underTag = { ranking: ["Rank creatives", "Rank creatives for several audiences"], pairwise: ["Compare pairs with a panel"], audiences: ["List saved audiences", "Create a saved audience"], evaluation: ["Record outcomes", "Get calibration"] };
    for (const [tag, operations] of Object.entries(underTag)) {
      const group = sidebar.locator(`li[data-sidebar-id$="/tag/${tag}"]`);
      for (const operation of operations) await expect.poll(() => group.getByText(operation, { exact: true }).count(), { message: `${operation} under ${tag}` }).toBe(1);
    }
    await sidebar.getByText("Ranking", { exact: true }).click();
    await page.waitForTimeout(500); // the sidebar link scrolls smoothly
    await shot("02-ranking-tag");
  }, 60_000);

  it("offers curl, the TypeScript SDK and the CLI for an operation", async () => {
    await page.goto(`${stack.baseUrl}/docs#tag/ranking/POST/api/v1/rank`);
    await page.getByRole("heading", { name: "Rank creatives", exact: true }).waitFor();
    await expect.poll(() => page.getByText(`"$ADRANK_BASE_URL/api/v1/rank"`, { exact: false }).count()).toBeGreaterThan(0);
    await shot("03-rank-curl");
    await page.getByRole("button", { name: "curl" }).first().click();
    for (const label of ["curl", "TypeScript SDK", "CLI"]) await page.getByRole("option", { name: label }).waitFor();
    await page.getByRole("option", { name: "CLI" }).click();
    await expect.poll(() => page.getByText("adrank rank sunrise-run.png studio-shoe.png", { exact: false }).count()).toBeGreaterThan(0);
    await shot("04-rank-cli");
  }, 60_000);

  it("ranks the example with Test request and a real key", async () => {
    await page.getByRole("button", { name: "Test Request" }).first().click();
    const modal = page.getByRole("dialog");
    const send = modal.getByRole("button", { name: /^Send post request/ });
    await send.waitFor();
    await modal.getByPlaceholder("Token").fill(account.key);
    await shot("05-test-request");
    const [response] = await Promise.all([
      page.waitForResponse((r) => r.url() === `${stack.baseUrl}/api/v1/rank` && r.request().method() === "POST", { timeout: 60_000 }),
      send.click(),
    ]);
    expect(response.status(), await response.text()).toBe(200);
    const body = (await response.json()) as { ranked: Array<{ asset_id: string }>; errors: unknown[]; summary: { scoring_evaluations: number } };
    expect(body.ranked.map((r) => r.asset_id).sort()).toEqual(["studio-shoe.png", "sunrise-run.png"]);
    expect(body.errors).toEqual([]);
    expect(body.summary.scoring_evaluations).toBe(3);
    await expect.poll(() => modal.getByText("200", { exact: false }).count()).toBeGreaterThan(0);
    await shot("06-test-request-200");
  }, 90_000);

  it("asked nobody but its own origin, and raised no CSP violation or console error", () => {
    const foreign = requested.filter((url) => !/^(data:|blob:)/.test(url) && new URL(url).hostname !== "127.0.0.1");
    expect(foreign).toEqual([]);
    const paths = requested.map((url) => new URL(url).pathname);
    // Scalar's bundle under its content-hashed, immutable name (see routes/docs/encoded-asset.ts).
    expect(paths).toEqual(expect.arrayContaining(["/docs", "/docs/zod-jitless.js", expect.stringMatching(/^\/docs\/scalar\/js\/scalar\.[A-Za-z0-9_-]{16}\.js$/), "/docs/json", "/api/v1/rank"]));
    expect(consoleErrors).toEqual([]);
  });

  it("runs every code sample on the page against the API", async () => {
    const dir = await mkdtemp(join(tmpdir(), "adrank-docs-samples-"));
    try {
      // What a reader has: the example images as files, `adrank` on PATH, the two variables.
      const rank = openApi.paths["/api/v1/rank"]!.post!;
      const example = Object.values(rank.requestBody!.content["application/json"]!.examples)[0]!.value as { assets: Array<{ id: string; url: string }> };
      for (const asset of example.assets) await writeFile(join(dir, asset.id), Buffer.from(asset.url.split(",")[1]!, "base64"));
      await mkdir(join(dir, "bin"));
      await writeFile(join(dir, "bin", "adrank"), `#!/bin/sh\nexec "${process.execPath}" "${CLI}" "$@"\n`);
      await chmod(join(dir, "bin", "adrank"), 0o755);
      // The getRequest curl sample fetches a request the reader made before, and the
      // recordOutcomes samples record outcomes for its creatives: one rank, by its id.
      const made = await fetch(`${stack.baseUrl}/api/v1/rank`, { method: "POST", headers: { authorization: `Bearer ${account.key}`, "content-type": "application/json" }, body: JSON.stringify(example) });
      expect(made.status).toBe(200);
      const REQUEST_ID = ((await made.json()) as { request_id: string }).request_id;
      const env = { PATH: `${join(dir, "bin")}:${process.env.PATH ?? ""}`, ADRANK_API_KEY: account.key, ADRANK_BASE_URL: stack.baseUrl, NO_COLOR: "1", REQUEST_ID };
      // The SDK sample imports @adrank/sdk, which resolves inside the repository only.
      const sdkDir = join(SHOTS, "sdk-samples");
      await mkdir(sdkDir, { recursive: true });

      // recordOutcomes before getCalibration, which then has the outcomes to report on.
      const operations = [
        openApi.paths["/api/v1/audiences"]!.post!,
        openApi.paths["/api/v1/audiences"]!.get!,
        rank,
        openApi.paths["/api/v1/pairwise"]!.post!,
        openApi.paths["/api/v1/requests/{request_id}"]!.get!,
        openApi.paths["/api/v1/outcomes"]!.post!,
        openApi.paths["/api/v1/calibration"]!.get!,
      ];
      // The first recordOutcomes sample records the ranking's two creatives; the others repeat
      // it, which changes nothing; calibration then has two outcomes, too few for a figure.
      const shows: Record<string, string> = {
        "recordOutcomes curl": '"created":2,',
        "recordOutcomes TypeScript SDK": "0 created, 0 updated, 2 unchanged",
        "recordOutcomes CLI": "0 created, 0 updated, 2 unchanged",
        "getCalibration curl": '"n_outcomes":2,',
        "getCalibration TypeScript SDK": "ctr all goals: 2 outcomes, not enough data (10 needed)",
        "getCalibration CLI": "not enough data (2 of 10)",
      };
      for (const op of operations) {
        for (const sample of op["x-codeSamples"]) {
          const what = `${op.operationId} ${sample.label}`;
          let run: { code: number; stdout: string; stderr: string };
          if (sample.label === "TypeScript SDK") {
            const file = join(sdkDir, `${op.operationId}.ts`);
            await writeFile(file, sample.source);
            run = await exec(process.execPath, [file], { cwd: dir, env });
          } else {
            run = await exec("bash", ["-euo", "pipefail", "-c", sample.source], { cwd: dir, env });
          }
          expect(run.code, `${what}\n${run.stderr}\n${run.stdout}`).toBe(0);
          if (sample.label === "curl") expect(JSON.parse(run.stdout), what).not.toHaveProperty("error");
          expect(run.stdout.trim(), what).not.toBe("");
          if (shows[what]) expect(run.stdout, what).toContain(shows[what]);
        }
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 240_000);
});

function exec(file: string, args: string[], opts: { cwd: string; env: Record<string, string> }) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(file, args, { ...opts, timeout: 90_000, maxBuffer: 16 * 1024 * 1024 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}
