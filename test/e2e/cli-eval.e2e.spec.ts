import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile, spawn } from "node:child_process";
import { copyFile, cp, mkdir, mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { CalibrationResponse } from "@adrank/contracts";
import { chromiumAvailable, launchChromium } from "../support/browser.ts";
import { REPO_ROOT } from "../support/paths.ts";
import { startStack, type Account, type Stack } from "../support/stack.ts";

// `adrank eval` as a user runs it, against a whole stack on the offline sim model, on the
// committed synthetic fixture (examples/eval): its outcomes are a known function of pixel
// statistics the sim reads too, so the scores must agree with them, and must not agree with
// the shuffled control. Every run has an account of its own (the rate limit is per key).

const CLI = join(REPO_ROOT, "packages/cli/src/main.ts");
// Copied into the folder the runs work in, so that commands read as in the README.
const FIXTURE = join("examples", "eval");
const DOC_SHOT = join(REPO_ROOT, "docs", "screenshots", "eval", "report.png");
const HAS_CHROMIUM = chromiumAvailable("cli-eval.e2e.spec.ts");

interface Estimate {
  value: number;
  ci_low: number;
  ci_high: number;
}
interface Figures {
  n: number;
  spearman_rho: Estimate | null;
  kendall_tau_b: Estimate | null;
  pairwise_agreement: Estimate | null;
  pairwise_agreement_raw: Estimate | null;
}
interface EvalResultJson {
  credits_used: number;
  requests: number;
  api: { simulated: boolean };
  outcomes: { groups: Array<{ label: string; points: unknown[]; request_ids: string[]; figures: Figures }>; pooled: Figures; failed: unknown[] } | null;
  pairs: { n: number; completed: number; agreement: Estimate | null } | null;
}

const fmt = (e: Estimate | null) => (e ? `${e.value.toFixed(2)} [${e.ci_low.toFixed(2)}, ${e.ci_high.toFixed(2)}]` : "null");

describe("adrank eval against the running stack", () => {
  let stack: Stack;
  let dir: string;

  const env = (account: Account) => ({ PATH: process.env.PATH ?? "", ADRANK_API_KEY: account.key, ADRANK_BASE_URL: stack.baseUrl });
  const adrank = (account: Account, args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [CLI, ...args], { cwd: dir, env: env(account), timeout: 120_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });
  const available = async (account: Account) => {
    const r = await stack.ledger.balance({ accountId: account.accountId });
    if (!r.ok) throw new Error(`balance refused: ${JSON.stringify(r)}`);
    return r.value.available;
  };
  const resultOf = async (path: string) => JSON.parse(await readFile(path, "utf8")) as EvalResultJson;

  beforeAll(async () => {
    stack = await startStack({ logLevel: "warn" });
    dir = await mkdtemp(join(tmpdir(), "adrank-cli-eval-"));
    await cp(join(REPO_ROOT, FIXTURE), join(dir, FIXTURE), { recursive: true });
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 30_000);

  it("finds the fixture's scores agreeing with its outcomes, records them for calibration, and writes a report", async () => {
    const account = await stack.createAccount({ credits: 200 });
    const before = await available(account);
    const run = await adrank(account, ["eval", join(FIXTURE, "synthetic.csv"), "--audience-name", "Trail runners", "--metric", "ctr", "--record-outcomes", "--html", "report.html"]);
    expect(run.code, run.stderr).toBe(0);
    // The default result file: the dataset's name, in the folder the command ran in.
    const result = await resultOf(join(dir, "synthetic.eval.json"));
    console.log(`synthetic.csv:\n${run.stdout}`);

    expect(result.requests).toBe(3);
    expect(result.api.simulated).toBe(true);
    const outcomes = result.outcomes!;
    expect(outcomes.groups.map((g) => [g.label, g.points.length, g.request_ids.length])).toEqual([
      ["spring-sale / Trail runners / purchase-intent", 12, 1],
      ["summer-launch / Trail runners / click-through-rate", 12, 1],
      ["autumn-promo / Trail runners / scroll-stopping", 12, 1],
    ]);
    expect(outcomes.failed).toEqual([]);
    // Positive agreement, beyond chance: the interval of rho is above 0, of agreement above 0.5.
    expect(outcomes.pooled.n).toBe(36);
    expect(outcomes.pooled.spearman_rho!.ci_low).toBeGreaterThan(0);
    expect(outcomes.pooled.pairwise_agreement!.ci_low).toBeGreaterThan(0.5);
    for (const g of outcomes.groups) expect(g.figures.spearman_rho!.value, g.label).toBeGreaterThan(0);

    // What the terminal shows: a row per group, the pooled row, the sim warning, the bill.
    expect(run.stdout).toMatch(new RegExp(`^pooled \\(3 groups\\)\\s+36\\s+${fmt(outcomes.pooled.spearman_rho).replace(/[[\]().]/g, "\\$&")}\\s`, "m"));
    expect(run.stdout).toMatch(/^spring-sale \/ Trail runners \/ purchase-intent\s+12\s+/m);
    expect(run.stdout).toContain("SIMULATED: these scores come from the offline sim model");
    expect(run.stdout).toContain(`${result.credits_used} credits used over 3 requests`);
    expect(run.stdout).toContain('36 outcomes recorded under metric "ctr"');
    expect(run.stdout).toContain("result written to synthetic.eval.json");
    expect(run.stdout).toContain("report written to report.html");
    expect(before - (await available(account))).toBe(result.credits_used);
    // One progress line per request (stderr is a pipe here), and no resume file left behind.
    expect(run.stderr).toMatch(/^request 3 of 3: ranking 12 creatives of autumn-promo \/ Trail runners \/ scroll-stopping \(24 creatives scored so far\)…$/m);
    await expect(stat(join(dir, "synthetic.eval.json.state.json"))).rejects.toThrow(/ENOENT/);

    // The recorded outcomes are the account's calibration now: the same scores, the same figures.
    const res = await fetch(`${stack.baseUrl}/api/v1/calibration?metric=ctr`, { headers: { authorization: `Bearer ${account.key}` } });
    expect(res.status).toBe(200);
    const calibration = (await res.json()) as CalibrationResponse;
    expect(calibration.metrics.map((m) => m.metric)).toEqual(["ctr"]);
    const pooled = calibration.metrics[0]!.pooled;
    expect(pooled).toMatchObject({ n_outcomes: 36, n_requests: 3, n_simulated: 36, enough_data: true });
    expect(pooled.spearman_rho!.value).toBeCloseTo(outcomes.pooled.spearman_rho!.value, 4);
    expect(pooled.pairwise_agreement!.value).toBeCloseTo(outcomes.pooled.pairwise_agreement!.value, 4);

    // The report, looked at in a browser.
    const html = await readFile(join(dir, "report.html"), "utf8");
    expect(html).toContain("spring-sale / Trail runners / purchase-intent");
    if (HAS_CHROMIUM) {
      const browser = await launchChromium();
      try {
        const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
        await page.setContent(html, { waitUntil: "load" });
        await mkdir(join(REPO_ROOT, "docs", "screenshots", "eval"), { recursive: true });
        await page.screenshot({ path: DOC_SHOT, fullPage: true });
        await copyFile(DOC_SHOT, "/tmp/c2-report.png");
      } finally {
        await browser.close();
      }
    }
  });

  it("finds no agreement with the shuffled control: the intervals hold 0 (rho) and 0.5 (agreement)", async () => {
    const account = await stack.createAccount({ credits: 200 });
    const run = await adrank(account, ["eval", join(FIXTURE, "synthetic-shuffled.csv"), "--audience-name", "Trail runners", "--out", "shuffled.json", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    // --json: stdout is the result, the same as the file.
    const result = JSON.parse(run.stdout) as EvalResultJson;
    expect(result).toEqual(await resultOf(join(dir, "shuffled.json")));
    console.log(`synthetic-shuffled.csv: pooled rho ${fmt(result.outcomes!.pooled.spearman_rho)}, agreement ${fmt(result.outcomes!.pooled.pairwise_agreement)}`);
    const { spearman_rho: rho, pairwise_agreement: agreement } = result.outcomes!.pooled;
    expect(rho!.ci_low).toBeLessThan(0);
    expect(rho!.ci_high).toBeGreaterThan(0);
    expect(agreement!.ci_low).toBeLessThan(0.5);
    expect(agreement!.ci_high).toBeGreaterThan(0.5);
    expect(run.stderr).toContain("result written to shuffled.json");
  });

  it("gives the panel's agreement with labelled pairs", async () => {
    const account = await stack.createAccount({ credits: 200 });
    const run = await adrank(account, ["eval", join(FIXTURE, "synthetic-pairs.csv"), "--audience-name", "Trail runners", "--out", "pairs.json"]);
    expect(run.code, run.stderr).toBe(0);
    const result = await resultOf(join(dir, "pairs.json"));
    console.log(`synthetic-pairs.csv:\n${run.stdout}`);
    expect(result.outcomes).toBeNull();
    const pairs = result.pairs!;
    expect(pairs.n).toBe(10);
    expect(pairs.completed).toBe(10);
    expect(pairs.agreement).not.toBeNull();
    // Ten independent pairs cannot prove certainty: the Wilson interval keeps a width even at 10 of 10.
    expect(pairs.agreement!.ci_high - pairs.agreement!.ci_low).toBeGreaterThan(0.2);
    expect(run.stdout).toMatch(new RegExp(`^pooled \\(3 groups\\)\\s+10\\s+10\\s+${fmt(pairs.agreement).replace(/[[\]().]/g, "\\$&")}$`, "m"));
    expect(run.stdout).toContain("SIMULATED: these votes come from the offline sim model");
  });

  it("resumes a killed run, paying only for the requests it had not got", async () => {
    const full = await stack.createAccount({ credits: 200 });
    const reference = await adrank(full, ["eval", join(FIXTURE, "synthetic.csv"), "--audience-name", "Trail runners", "--out", "reference.json"]);
    expect(reference.code, reference.stderr).toBe(0);
    const fullCost = (await resultOf(join(dir, "reference.json"))).credits_used;

    const account = await stack.createAccount({ credits: 200 });
    const start = await available(account);
    const args = ["eval", join(FIXTURE, "synthetic.csv"), "--audience-name", "Trail runners", "--out", "resumed.json"];
    // Killed as it starts its second request: the first is answered and saved, the second maybe in flight.
    const killed = spawn(process.execPath, [CLI, ...args], { cwd: dir, env: env(account), stdio: ["ignore", "pipe", "pipe"] });
    let stderr = "";
    const exited = new Promise<number | null>((resolve) => killed.on("exit", (code) => resolve(code)));
    killed.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
      if (/^request 2 of 3:/m.test(stderr)) killed.kill("SIGKILL");
    });
    expect(await exited, stderr).toBeNull();
    const state = JSON.parse(await readFile(join(dir, "resumed.json.state.json"), "utf8")) as { done: Array<{ index: number }> };
    expect(state.done.map((d) => d.index)).toEqual([0]);
    const paidBeforeResume = start - (await available(account));

    const resumed = await adrank(account, args);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/^resuming: 1 of 3 requests already done \(\d+ credits\), from resumed\.json\.state\.json$/m);
    // Only requests 2 and 3 are sent again.
    expect(resumed.stderr).not.toMatch(/^request 1 of 3/m);
    expect(resumed.stderr).toMatch(/^request 2 of 3/m);
    const result = await resultOf(join(dir, "resumed.json"));
    const paidInAll = start - (await available(account));
    console.log(`resume: full run ${fullCost} credits; killed run paid ${paidBeforeResume}; after resuming ${paidInAll} in all; result says ${result.credits_used}`);
    // Billed once in all, whatever was in flight at the kill: no request paid twice.
    expect(paidInAll).toBe(fullCost);
    expect(result.credits_used).toBe(fullCost);
    expect(result.outcomes!.pooled.n).toBe(36);
    expect(resumed.stdout).toMatch(new RegExp(`^${fullCost} credits used over 3 requests \\(\\d+ of them by the 1 request the run it resumed had finished\\)$`, "m"));
  });

  it("refuses a dataset with a mistake before any request, naming the line", async () => {
    const account = await stack.createAccount({ credits: 10 });
    const run = await adrank(account, ["eval", join(FIXTURE, "synthetic.csv")]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/line 2: has no audience; .*--audience-name/);
    expect(await available(account)).toBe(10);
  });
});
