import { execFile } from "node:child_process";
import { cp, mkdir, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromiumAvailable, launchChromium } from "../support/browser.ts";
import { REPO_ROOT } from "../support/paths.ts";
import { startStack, type Account, type Stack } from "../support/stack.ts";

// `adrank rank` for several audiences as the README runs it, against a whole stack on the sim
// model: the example creatives with their per-image copy (examples/audiences-copy.json) for the
// three example audiences (examples/audiences.json). The terminal matrix and the HTML report's
// chart are looked at in a browser and kept as the docs' screenshots (docs/screenshots/audiences/).

const CLI = join(REPO_ROOT, "packages/cli/src/main.ts");
const SHOTS = join(REPO_ROOT, "docs", "screenshots", "audiences");
const HAS_CHROMIUM = chromiumAvailable("cli-audiences.e2e.spec.ts");

const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

describe("adrank rank for several audiences against the running stack", () => {
  let stack: Stack;
  let dir: string;

  const adrank = (account: Account, args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      const env = { PATH: process.env.PATH ?? "", ADRANK_API_KEY: account.key, ADRANK_BASE_URL: stack.baseUrl };
      execFile(process.execPath, [CLI, ...args], { cwd: dir, env, timeout: 120_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });

  beforeAll(async () => {
    stack = await startStack({ gatewayEnv: { RANK_TIMEOUT_MS: "60000" } });
    dir = await mkdtemp(join(tmpdir(), "adrank-cli-audiences-"));
    // The README's command, run from a folder that holds what it names.
    await cp(join(REPO_ROOT, "examples"), join(dir, "examples"), { recursive: true, filter: (src) => !src.includes(`${join("examples", "eval")}`) && !src.includes(`${join("examples", "drift")}`) });
  }, 90_000);

  afterAll(async () => {
    await stack?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 30_000);

  it("prints a matrix with the reversal marked and the twin audiences flagged, and writes a report with a chart of every audience", async () => {
    const account = await stack.createAccount({ credits: 100 });
    const run = await adrank(account, ["rank", "examples/ads", "--audiences", "examples/audiences.json", "--copy", "examples/audiences-copy.json", "--html", "audiences.html"]);
    expect(run.code, `${run.stderr}\n${stack.output()}`).toBe(0);
    const out = run.stdout;
    for (const image of ["spring-sale.png", "summer-launch.png", "autumn-promo.png"]) expect(out).toContain(image);
    for (const audience of ["Bargain hunters", "Skeptics", "Skeptical runners"]) expect(out).toContain(audience);
    // The two creatives the persona rules reverse are marked in the matrix, and the reversal is said in words.
    const rows = out.split("\n");
    expect(rows.find((l) => l.includes("spring-sale.png") && l.includes("↕"))).toBeDefined();
    expect(rows.find((l) => l.includes("summer-launch.png") && l.includes("↕"))).toBeDefined();
    expect(rows.find((l) => l.includes("autumn-promo.png") && !l.includes("↕") && /\d\.\d\d/.test(l))).toBeDefined();
    expect(out).toMatch(/Reversals/);
    expect(rows.some((l) => l.includes("spring-sale.png") && l.includes("summer-launch.png") && l.includes("Bargain hunters") && l.includes("Skeptic"))).toBe(true);
    expect(rows.some((l) => l.includes("persona made no difference") && l.includes("Skeptics") && l.includes("Skeptical runners"))).toBe(true);
    expect(out).toContain("SIMULATED");
    // The matrix and the sentences about it fit a 100-column terminal (the warnings below them are paragraphs).
    for (const line of rows.slice(0, rows.findIndex((l) => l.startsWith("warning ")))) expect([...line].length, line).toBeLessThanOrEqual(100);
    // 3 images with copy (2 evaluations each) for 3 audiences, charged once.
    const balance = await stack.ledger.balance({ accountId: account.accountId });
    expect(balance.ok && balance.value.available).toBe(100 - 18);

    const html = await readFile(join(dir, "audiences.html"), "utf8");
    expect(html).toContain("<svg");
    for (const audience of ["Bargain hunters", "Skeptics", "Skeptical runners"]) expect(html).toContain(audience);
    expect(html).not.toMatch(/<script|https?:\/\/(?!www\.w3\.org)/);

    if (HAS_CHROMIUM) {
      await mkdir(SHOTS, { recursive: true });
      const browser = await launchChromium();
      try {
        const terminal = await browser.newPage({ viewport: { width: 1000, height: 600 } });
        await terminal.setContent(
          `<!doctype html><meta charset="utf-8"><body style="margin:0;background:#1e1e1e"><pre style="margin:0;padding:16px 20px;color:#e6e6e6;font:14px/1.45 'DejaVu Sans Mono',monospace;white-space:pre">$ adrank rank examples/ads --audiences examples/audiences.json --copy examples/audiences-copy.json\n${escapeHtml(out)}</pre></body>`,
          { waitUntil: "load" },
        );
        await terminal.screenshot({ path: join(SHOTS, "cli-matrix.png"), fullPage: true });
        const report = await browser.newPage({ viewport: { width: 1200, height: 900 } });
        await report.setContent(html, { waitUntil: "load" });
        await report.screenshot({ path: join(SHOTS, "report-chart.png"), fullPage: true });
      } finally {
        await browser.close();
      }
    }
  }, 120_000);
});
