import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "../support/paths.ts";
import { creative } from "../support/png.ts";
import { startStack, type Account, type Stack } from "../support/stack.ts";

// The real `adrank` binary against the running stack: a request submitted with --async, waited
// for, and fetched again later by its id.

const CLI = join(REPO_ROOT, "packages/cli/src/main.ts");

describe("adrank CLI durable requests against the running stack", () => {
  let stack: Stack;
  let account: Account;
  let dir: string;
  const files: string[] = [];

  const available = async () => {
    const r = await stack.ledger.balance({ accountId: account.accountId });
    if (!r.ok) throw new Error(`balance refused: ${JSON.stringify(r)}`);
    return r.value.available;
  };

  const adrank = (args: string[], env: Record<string, string> = {}) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [CLI, ...args], { cwd: dir, env: { PATH: process.env.PATH ?? "", ADRANK_API_KEY: account.key, ADRANK_BASE_URL: stack.baseUrl, ...env }, timeout: 60_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });

  beforeAll(async () => {
    stack = await startStack({ logLevel: "warn" });
    account = await stack.createAccount({ credits: 50 });
    dir = await mkdtemp(join(tmpdir(), "adrank-cli-durable-"));
    for (const [i, variant] of [3, 17, 29].entries()) {
      const path = join(dir, `ad-${i + 1}.png`);
      await writeFile(path, Buffer.from(creative(variant).split(",")[1]!, "base64"));
      files.push(path);
    }
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 30_000);

  it("ranks with --async --wait, showing progress, and adrank get prints the same table again, billed once", async () => {
    const before = await available();
    const run = await adrank(["rank", ...files, "--audience-name", "Trail runners", "--no-refine", "--async", "--wait"]);
    expect(run.code, run.stderr).toBe(0);
    const id = /^request ([0-9a-f-]{36}) accepted; waiting for it/m.exec(run.stderr)?.[1];
    expect(id, run.stderr).toBeDefined();
    expect(run.stderr).toMatch(/^[0-3] of 3 assets scored$/m);
    const rows = run.stdout.split("\n").filter((l) => /^[1-3]\s+ad-\d\.png/.test(l));
    expect(rows.map((r) => r.split(/\s+/)[1]).sort()).toEqual(["ad-1.png", "ad-2.png", "ad-3.png"]);
    expect(run.stdout).toMatch(/^3 ranked, 0 failed; 3 credits used, \d+ left$/m);

    const got = await adrank(["get", id!]);
    expect(got).toEqual({ code: 0, stdout: run.stdout, stderr: "" });
    const asJson = JSON.parse((await adrank(["get", id!, "--json"])).stdout);
    expect(asJson.request_id).toBe(id);
    expect(asJson.ranked).toHaveLength(3);
    expect(await available()).toBe(before - 3);
  });

  it("submits with --async, prints only the id, and adrank get --wait prints the comparison", async () => {
    const run = await adrank(["pairwise", files[0]!, files[1]!, "--audience-name", "Trail runners", "--async"]);
    expect(run.code, run.stderr).toBe(0);
    const id = run.stdout.trim();
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(run.stderr).toContain(`adrank get ${id}`);

    const got = await adrank(["get", id, "--wait"]);
    expect(got.code, got.stderr).toBe(0);
    expect(got.stdout).toMatch(/^winner: ad-[12]\.png \([3-5] of 5 votes/m);
    expect(got.stdout).toContain("1 credit used");
  });

  it("says a request id it does not know is not there", async () => {
    const run = await adrank(["get", "00000000-0000-4000-8000-000000000000"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe("adrank: no request 00000000-0000-4000-8000-000000000000 in this account (requests are kept 30 days; is ADRANK_API_KEY a key of the account that made it?)\n");
  });
});
