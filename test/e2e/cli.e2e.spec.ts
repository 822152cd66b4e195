import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { REPO_ROOT } from "../support/paths.ts";
import { creative } from "../support/png.ts";
import { startStack, type Account, type Stack } from "../support/stack.ts";

// The real `adrank` binary against the running stack, as a user runs it.

const CLI = join(REPO_ROOT, "packages/cli/src/main.ts");

describe("adrank CLI against the running stack", () => {
  let stack: Stack;
  let account: Account;
  let dir: string;
  const files: string[] = [];

  const adrank = (args: string[], env: Record<string, string> = {}) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [CLI, ...args], { cwd: dir, env: { PATH: process.env.PATH ?? "", ADRANK_API_KEY: account.key, ADRANK_BASE_URL: stack.baseUrl, ...env }, timeout: 60_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });

  beforeAll(async () => {
    stack = await startStack({ logLevel: "warn" });
    account = await stack.createAccount({ credits: 50 });
    dir = await mkdtemp(join(tmpdir(), "adrank-cli-"));
    for (const [i, variant] of [3, 17, 29].entries()) {
      const path = join(dir, `ad-${i + 1}.png`);
      await writeFile(path, Buffer.from(creative(variant).split(",")[1]!, "base64"));
      files.push(path);
    }
    await writeFile(join(dir, "copy.json"), JSON.stringify({ "ad-2.png": { headline: "Lighter than you think", body: "Free returns for 60 days." } }));
    await writeFile(join(dir, "notes.txt"), "not an image");
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 30_000);

  it("ranks three local images into a table, with a progress line on stderr", async () => {
    const run = await adrank(["rank", ...files, "--audience-name", "Trail runners", "--goal", "scroll-stopping", "--copy", "copy.json"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("ranking 3 images");
    const lines = run.stdout.split("\n");
    expect(lines[0]).toMatch(/^rank\s+image\s+score\s+confidence\s+copy lift/);
    const rows = lines.filter((l) => /^[1-3]\s+ad-\d\.png/.test(l));
    expect(rows.map((r) => r.split(/\s+/)[0])).toEqual(["1", "2", "3"]);
    expect(rows.map((r) => r.split(/\s+/)[1]).sort()).toEqual(["ad-1.png", "ad-2.png", "ad-3.png"]);
    expect(run.stdout).toMatch(/3 ranked, 0 failed; 4 credits used, 46 left/);
  });

  it("prints the API's JSON with --json and writes an HTML report with the three thumbnails", async () => {
    const run = await adrank(["rank", ...files, "--audience-name", "Trail runners", "--json", "--html", "report.html", "--no-refine"]);
    expect(run.code, run.stderr).toBe(0);
    const body = JSON.parse(run.stdout);
    expect(body.ranked).toHaveLength(3);
    expect(body.summary.close_pair_refinement.enabled).toBe(false);
    const html = await readFile(join(dir, "report.html"), "utf8");
    expect(html.match(/<img src="data:image\/png;base64,/g)).toHaveLength(3);
    for (const name of ["ad-1.png", "ad-2.png", "ad-3.png"]) expect(html).toContain(name);
  });

  it("compares two images with a panel and prints every vote", async () => {
    const run = await adrank(["pairwise", files[0]!, files[1]!, "--audience-name", "Trail runners"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^winner: ad-[12]\.png \([3-5] of 5 votes/m);
    expect(run.stdout.match(/^ {2}voter-\d \((ab|ba), sim:sim-voter\): picked ad-[12]\.png$/gm)).toHaveLength(5);
    expect(run.stdout).toContain("1 credit used");
    expect(run.stdout).toMatch(/^SIMULATED: these votes come from the offline sim model/m);
  });

  it("creates and lists saved audiences, and ranks with one by id", async () => {
    const created = await adrank(["audiences", "create", "--name", "Gravel riders", "--age-range", "25-34", "--price-sensitivity", "high"]);
    expect(created.code, created.stderr).toBe(0);
    const id = created.stdout.trim();
    expect(id).toMatch(/^aud_/);
    const listed = await adrank(["audiences", "list"]);
    expect(listed.stdout).toContain(`${id}  Gravel riders  (ageRange=25-34 priceSensitivity=high)`);
    const ranked = await adrank(["rank", files[0]!, "--audience-id", id, "--json"]);
    expect(JSON.parse(ranked.stdout).summary.audience).toBe("Gravel riders");
  });

  it("fails with one clear line: the status, the server's sentence and the request id", async () => {
    const badKey = await adrank(["audiences", "list"], { ADRANK_API_KEY: "agk_live_thisisnotarealkey0000000000000000000000000" });
    expect(badKey.code).toBe(1);
    expect(badKey.stderr.trim().split("\n")).toHaveLength(1);
    expect(badKey.stderr).toMatch(/^adrank: 401 Unauthorized: .+ \(request id [0-9a-f-]{36}\)\n$/);

    const invalid = await adrank(["rank", files[0]!, "--audience-name", "X", "--goal", "world-domination"]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/adrank: 422 Unprocessable Entity: .+ \[goal\] \(request id/);

    const notImage = await adrank(["rank", "notes.txt", "--audience-name", "X"]);
    expect(notImage.code).toBe(2);
    expect(notImage.stderr).toBe("adrank: notes.txt: not a PNG, JPEG, WebP or GIF image (see adrank --help)\n");

    // A report that could not be written is found before the ranking is paid for.
    const noFolder = await adrank(["rank", files[0]!, "--audience-name", "X", "--html", "missing/report.html"]);
    expect(noFolder.code).toBe(2);
    expect(noFolder.stderr).toBe("adrank: --html missing/report.html: the folder missing does not exist (see adrank --help)\n");

    const noKey = await adrank(["audiences", "list"], { ADRANK_API_KEY: "" });
    expect(noKey.stderr).toMatch(/set ADRANK_API_KEY/);
    expect(noKey.code).toBe(2);
  });
});
