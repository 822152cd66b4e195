import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
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
  // Stands in for the API where a test must show that no request was made: it counts them.
  let recorder: Server;
  let recorderUrl: string;
  const recorded: string[] = [];
  // Answers as the account console does (services/dashboard): HTML for a GET, a 404 without
  // X-Request-Id for anything else. The real console is not started: it builds its front end
  // at start-up, which is slow and rewrites services/dashboard/dist.
  let fakeConsole: Server;
  let consoleUrl: string;

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
    dir = await mkdtemp(join(tmpdir(), "adrank-cli-"));
    for (const [i, variant] of [3, 17, 29].entries()) {
      const path = join(dir, `ad-${i + 1}.png`);
      await writeFile(path, Buffer.from(creative(variant).split(",")[1]!, "base64"));
      files.push(path);
    }
    await writeFile(join(dir, "copy.json"), JSON.stringify({ "ad-2.png": { headline: "Lighter than you think", body: "Free returns for 60 days." } }));
    await writeFile(join(dir, "notes.txt"), "not an image");
    // Folders: the three ads and a note; 21 copies of one ad; nothing.
    await mkdir(join(dir, "ads"));
    for (const f of files) await copyFile(f, join(dir, "ads", f.split("/").at(-1)!));
    await writeFile(join(dir, "ads", "notes.txt"), "not an image");
    await mkdir(join(dir, "many"));
    for (let i = 1; i <= 21; i++) await copyFile(files[0]!, join(dir, "many", `ad-${i}.png`));
    await mkdir(join(dir, "empty"));
    recorder = createServer((req, res) => {
      recorded.push(`${req.method} ${req.url}`);
      res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => recorder.listen(0, "127.0.0.1", resolve));
    recorderUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
    fakeConsole = createServer((req, res) => {
      if (req.method === "GET") res.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end('<!doctype html><html lang="en"><head><title>adrank console</title></head><body><div id="root"></div></body></html>');
      else res.writeHead(404, { "content-type": "application/json; charset=utf-8" }).end('{"error":"Not found."}');
    });
    await new Promise<void>((resolve) => fakeConsole.listen(0, "127.0.0.1", resolve));
    consoleUrl = `http://127.0.0.1:${(fakeConsole.address() as AddressInfo).port}`;
  }, 120_000);

  afterAll(async () => {
    await new Promise((resolve) => recorder?.close(resolve));
    await new Promise((resolve) => fakeConsole?.close(resolve));
    await stack?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  }, 30_000);

  it("ranks three local images into a table, with a progress line on stderr", async () => {
    const run = await adrank(["rank", ...files, "--audience-name", "Trail runners", "--goal", "scroll-stopping", "--copy", "copy.json"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("ranking 3 images");
    const lines = run.stdout.split("\n");
    expect(lines[0]).toMatch(/^rank\s+image\s+score\s+confidence\s+copy lift/);
    // A rank too close to call to the next carries a "?" (issue 34).
    const rows = lines.filter((l) => /^[1-3]\??\s+ad-\d\.png/.test(l));
    expect(rows.map((r) => r.split(/\s+/)[0]!.replace("?", ""))).toEqual(["1", "2", "3"]);
    expect(rows.map((r) => r.split(/\s+/)[1]).sort()).toEqual(["ad-1.png", "ad-2.png", "ad-3.png"]);
    expect(run.stdout).toMatch(/3 ranked, 0 failed; 4 credits used, 46 left/);
  });

  it("prints the API's JSON with --json and writes an HTML report with the three thumbnails", async () => {
    const run = await adrank(["rank", ...files, "--audience-name", "Trail runners", "--json", "--html", "report.html", "--no-refine"]);
    expect(run.code, run.stderr).toBe(0);
    const body = JSON.parse(run.stdout);
    expect(body.ranked).toHaveLength(3);
    // The images the API echoes are summarized, not printed in full; the rest is the API's.
    expect(run.stdout).not.toMatch(/base64,[A-Za-z0-9+/]{40}/);
    for (const r of body.ranked) expect(r.asset_url).toMatch(/^data:image\/png;base64,… \(\d+ (B|KiB)\)$/);
    expect(body.ranked.map((r: { asset_id: string }) => r.asset_id).sort()).toEqual(["ad-1.png", "ad-2.png", "ad-3.png"]);
    expect(body.summary.credits_used).toBe(3);
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

    const invalid = await adrank(["audiences", "create", "--name", "X", "--age-range", "ninety-nine"]);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toMatch(/^adrank: 422 Unprocessable Entity: .+ \[.*ageRange\] \(request id [0-9a-f-]{36}\)\n$/);

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

  it("prints its version from its package.json, as --version, -v and version", async () => {
    const { version } = JSON.parse(await readFile(join(REPO_ROOT, "packages/cli/package.json"), "utf8")) as { version: string };
    for (const flag of ["--version", "-v", "version"]) {
      const run = await adrank([flag]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe(`adrank ${version}\n`);
    }
  });

  it("answers an unknown flag or command with the one probably meant", async () => {
    const flag = await adrank(["rank", files[0]!, "--audience-name", "X", "--jsn"]);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toBe("adrank: unknown flag --jsn; did you mean --json?\n");
    const command = await adrank(["rnak", files[0]!]);
    expect(command.code).toBe(2);
    expect(command.stderr).toBe('adrank: unknown command "rnak"; did you mean "rank"?\n');
    const top = await adrank(["--verison"]);
    expect(top.stderr).toBe("adrank: unknown flag --verison; did you mean --version?\n");
  });

  it("catches a goal or asset type typo before any request, so nothing is spent", async () => {
    const before = await available();
    const goal = await adrank(["rank", files[0]!, "--audience-name", "X", "--goal", "purchse-intent"]);
    expect(goal.code).toBe(2);
    expect(goal.stderr).toBe('adrank: unknown goal "purchse-intent"; did you mean "purchase-intent"?\n');
    expect(goal.stdout).toBe("");
    const casing = await adrank(["pairwise", files[0]!, files[1]!, "--audience-name", "X", "--goal", "Scroll-Stopping"], { ADRANK_BASE_URL: recorderUrl });
    expect(casing.stderr).toBe('adrank: unknown goal "Scroll-Stopping"; did you mean "scroll-stopping"?\n');
    const type = await adrank(["rank", files[0]!, "--audience-name", "X", "--asset-type", "social media post"], { ADRANK_BASE_URL: recorderUrl });
    expect(type.code).toBe(2);
    expect(type.stderr).toBe('adrank: unknown asset type "social media post"; did you mean "Social Media Post"?\n');
    expect(recorded).toEqual([]);
    expect(await available()).toBe(before);
  });

  it("ranks the images of a folder, noting what it skipped, and refuses an empty or oversized one", async () => {
    const run = await adrank(["rank", "ads", "--audience-name", "Trail runners", "--no-refine"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("adrank: ads: skipped notes.txt (not an image)\n");
    expect(run.stderr).toContain("ranking 3 images");
    expect(run.stdout.split("\n").filter((l) => /^[1-3]\s+ad-\d\.png/.test(l))).toHaveLength(3);

    const empty = await adrank(["rank", "empty", "--audience-name", "X"], { ADRANK_BASE_URL: recorderUrl });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toBe("adrank: empty: no PNG, JPEG, WebP or GIF images in this folder (see adrank --help)\n");
    const many = await adrank(["rank", "many", "--audience-name", "X"], { ADRANK_BASE_URL: recorderUrl });
    expect(many.code).toBe(2);
    expect(many.stderr).toBe("adrank: 21 images (from many): a ranking takes at most 20 (see adrank --help)\n");
    expect(recorded).toEqual([]);
  });

  it("reports a missing key first, before any progress line", async () => {
    const run = await adrank(["rank", "ads", "--audience-name", "X"], { ADRANK_API_KEY: "" });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe("adrank: set ADRANK_API_KEY to your API key (see adrank --help)\n");
    expect(run.stderr).not.toContain("ranking");
    const badUrl = await adrank(["pairwise", "ads", "--audience-name", "X"], { ADRANK_BASE_URL: "not a url" });
    expect(badUrl.stderr).toBe("adrank: ADRANK_BASE_URL is not a URL: not a url (see adrank --help)\n");
  });

  it("says 1 credit, and 1 image, in the singular", async () => {
    const run = await adrank(["rank", files[2]!, "--audience-name", "Trail runners", "--no-refine"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain("ranking 1 image…");
    expect(run.stdout).toMatch(/^1 ranked, 0 failed; 1 credit used, \d+ left$/m);
    expect(run.stdout).not.toContain("-0.00");
  });

  it("hints that ADRANK_BASE_URL is the console when the answer is not the API's", async () => {
    const before = await available();
    const post = await adrank(["rank", files[0]!, "--audience-name", "X"], { ADRANK_BASE_URL: consoleUrl });
    expect(post.code).toBe(1);
    expect(post.stderr.trim().split("\n").at(-1)).toBe(`adrank: ${consoleUrl} does not look like the adrank API (no X-Request-Id in its answer); the API is usually on port 8080 — the console is on 8090`);
    const get = await adrank(["audiences", "list"], { ADRANK_BASE_URL: consoleUrl });
    expect(get.code).toBe(1);
    expect(get.stderr).toBe(`adrank: ${consoleUrl} does not look like the adrank API (it answered with an HTML page); the API is usually on port 8080 — the console is on 8090\n`);
    expect(await available()).toBe(before);
  });
});
