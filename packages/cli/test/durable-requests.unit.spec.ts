import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { rankCommand } from "../src/commands/rank.ts";
import { jsonAnswer, startScriptedApi, type Handler, type ScriptedApi, type Seen } from "./support/scripted-api.ts";

// The real `adrank` binary (and, for a terminal, its rank command in process) against a local
// server speaking the API's wire format: each test scripts the answers in order and reads
// back what was sent.

const CLI = join(import.meta.dirname, "../src/main.ts");
const ID = "3f1c9a52-8d4e-4b7a-9c21-5e6f7a8b9c0d";
const KEY = "agk_test_durable";

let api: ScriptedApi;
let baseUrl: string;
let script: Handler[] = [];
let seen: Seen[] = [];
let dir: string;
const images: string[] = [];

const json = jsonAnswer(ID);

const ranked = (rank: number, id: string, score: number) => ({
  rank,
  asset_url: `data:image/png;base64,${Buffer.alloc(3000, rank).toString("base64")}`,
  asset_id: id,
  score,
  score_before_refine: score,
  score_layer: "image-only",
  asset_type: "social-feed",
  copy_context_included: false,
  image_only_score: score,
  copy_lift: 0,
  rationale: `Because ${id}`,
  product_read: "",
  confidence: "medium",
  panel_outcome: null,
  confidence_details: { entropy: 0.4, top_margin: 0.2, sample_std_dev: 0.1, repetition_count: 3, generator_sample_count: 6 },
  details: { probabilities: [0.1, 0.1, 0.2, 0.3, 0.3], similarities: [0.1, 0.2, 0.3, 0.4, 0.5], repetitionCount: 3, generatorSampleCount: 6, repetitionScores: [4, 4, 4], repetitionScoreRange: 0.1 },
});

const SIM = { generators: ["sim:sim-gen-a"], embedder: "sim:sim-embed", voters: ["sim:sim-voter"], simulated: true };

const rankResult = {
  request_id: ID,
  ranked: [ranked(1, "ad-2.png", 4.21), ranked(2, "ad-1.png", 3.5)],
  errors: [{ asset_url: "data:image/png;base64,AAAA", asset_id: "ad-3.png", error: "The image could not be decoded." }],
  summary: { goal: "purchase-intent", asset_type: "social-feed", platform: null, audience: "Runners", assets_ranked: 2, assets_failed: 1, scoring_evaluations: 2, repetitions_per_evaluation: 3, generator_samples_per_evaluation: 6, close_pair_refinement: { enabled: false, pairs_evaluated: 0, results: [] }, credits_used: 2, credits_remaining: 48, models: SIM },
};

const vote = (n: number, winnerId: string) => ({ voterId: `voter-${n}`, order: n % 2 ? "ab" : "ba", winnerId, loserId: winnerId === "ad-1.png" ? "ad-2.png" : "ad-1.png", response: "A", model: "sim:sim-voter", simulated: true });
const pairwiseResult = {
  request_id: ID,
  pairs: [{ pairId: "pair-1", aId: "ad-1.png", bId: "ad-2.png", status: "done", votes: [1, 2, 3, 4, 5].map((n) => vote(n, n === 3 ? "ad-2.png" : "ad-1.png")), winnerId: "ad-1.png", votesFor: 4, votesTotal: 5, winRate: 0.8, consistency: 0.6 }],
  summary: { goal: "purchase-intent", platform: null, audience: "Runners", model: "sim:sim-voter", panel_size: 5, pairs_requested: 1, pairs_completed: 1, pairs_failed: 0, valid_votes: 5, pairwise_evaluations: 1, credits_used: 1, credits_remaining: 47, models: { ...SIM, generators: [], embedder: null } },
};

const status = (done: number, total: number, over: Record<string, unknown> = {}) => ({
  object: "request",
  request_id: ID,
  operation: "rank",
  status: "running",
  created_at: "2026-11-26T10:00:00.000Z",
  finished_at: null,
  progress: { done, total, unit: "assets" },
  result_url: `/api/v1/requests/${ID}`,
  webhook: null,
  error: null,
  ...over,
});
const pairStatus = (done: number) => status(done, 1, { operation: "pairwise", progress: { done, total: 1, unit: "pairs" } });
const failed = status(1, 3, { status: "failed", finished_at: "2026-11-26T10:01:00.000Z", error: "The scorer did not answer in time." });
// The 202 of an asynchronous POST and of a look at a running request, as the gateway sends them.
const accepted = (body: unknown) => json(202, body, { location: `/api/v1/requests/${ID}` });

const adrank = (args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: dir, env: { PATH: process.env.PATH ?? "", ADRANK_API_KEY: KEY, ADRANK_BASE_URL: baseUrl }, timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });

/** A stream standing in for stdout or stderr, a terminal or not; it keeps what was written. */
const sink = (isTTY: boolean) => {
  const chunks: string[] = [];
  const stream = { isTTY, write: (s: string) => chunks.push(s) > 0 } as unknown as NodeJS.WriteStream;
  return { stream, text: () => chunks.join("") };
};

const RANK = ["rank", "ad-1.png", "ad-2.png", "ad-3.png", "--audience-name", "Runners"];
const PAIRWISE = ["pairwise", "ad-1.png", "ad-2.png", "--audience-name", "Runners"];

/** What the synchronous command prints for the result: the reference every other path must match byte for byte. */
async function synchronousStdout(args: string[], result: unknown): Promise<string> {
  script = [json(200, result)];
  const run = await adrank(args);
  expect(run.code, run.stderr).toBe(0);
  expect(seen.at(-1)!.body!.async).toBeUndefined();
  seen = [];
  return run.stdout;
}

beforeAll(async () => {
  api = await startScriptedApi(ID, { next: () => script.shift(), record: (request) => seen.push(request) });
  baseUrl = api.baseUrl;
  dir = await mkdtemp(join(tmpdir(), "adrank-cli-durable-"));
  // A PNG signature is all the CLI reads of an image: the server here decodes nothing.
  for (const name of ["ad-1.png", "ad-2.png", "ad-3.png"]) {
    await writeFile(join(dir, name), Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from(name)]));
    images.push(join(dir, name));
  }
});

afterAll(async () => {
  await api.close();
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  script = [];
  seen = [];
});

describe("adrank get", () => {
  it("prints a succeeded ranking exactly as adrank rank printed it, and --json as rank --json", async () => {
    const table = await synchronousStdout(RANK, rankResult);
    expect(table).toMatch(/^rank\s+image\s+score/);
    expect(table).toContain("SIMULATED: these scores come from the offline sim model");
    script = [json(200, rankResult)];
    const got = await adrank(["get", ID]);
    expect(got).toEqual({ code: 0, stdout: table, stderr: "" });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual([`GET /api/v1/requests/${ID}`]);
    expect(seen[0]!.headers.authorization).toBe(`Bearer ${KEY}`);

    const jsonOut = await synchronousStdout([...RANK, "--json"], rankResult);
    script = [json(200, rankResult)];
    const gotJson = await adrank(["get", ID, "--json"]);
    expect(gotJson.stdout).toBe(jsonOut);
    expect(JSON.parse(gotJson.stdout).ranked[0].asset_url).toBe("data:image/png;base64,… (3 KiB)");
  });

  it("prints a succeeded pairwise comparison exactly as adrank pairwise printed it", async () => {
    const votes = await synchronousStdout(PAIRWISE, pairwiseResult);
    expect(votes).toMatch(/^winner: ad-1\.png \(4 of 5 votes/);
    script = [json(200, pairwiseResult)];
    expect(await adrank(["get", ID])).toEqual({ code: 0, stdout: votes, stderr: "" });
  });

  it("says how far a running request has come, and exits 0", async () => {
    script = [accepted(status(3, 8))];
    expect(await adrank(["get", ID])).toEqual({ code: 0, stdout: `Request ${ID} is still running: 3 of 8 assets done.\n`, stderr: "" });
    script = [accepted(pairStatus(0))];
    expect((await adrank(["get", ID])).stdout).toBe(`Request ${ID} is still running: 0 of 1 pair done.\n`);
    script = [accepted(status(3, 8))];
    expect(JSON.parse((await adrank(["get", ID, "--json"])).stdout)).toEqual(status(3, 8));
  });

  it("with --wait, shows each step of progress on stderr, then prints the result", async () => {
    const table = await synchronousStdout(RANK, rankResult);
    script = [accepted(status(1, 3)), accepted(status(1, 3)), accepted(status(2, 3)), json(200, rankResult)];
    const run = await adrank(["get", ID, "--wait"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.split("\n")).toEqual([`waiting for request ${ID}…`, "1 of 3 assets scored", "2 of 3 assets scored", ""]);
    expect(run.stdout).toBe(table);
    expect(seen).toHaveLength(4);
  }, 20_000);

  it("prints why a request failed, and exits 1 (its status on stdout with --json)", async () => {
    script = [json(200, failed)];
    expect(await adrank(["get", ID])).toEqual({ code: 1, stdout: "", stderr: `adrank: request ${ID} failed: The scorer did not answer in time.\n` });
    script = [json(200, failed)];
    const asJson = await adrank(["get", ID, "--json"]);
    expect(asJson.code).toBe(1);
    expect(JSON.parse(asJson.stdout)).toEqual(failed);
  });

  it("says an unknown id is not there, and refuses what is not an id without asking", async () => {
    script = [json(404, { error: "Request not found." })];
    const unknown = await adrank(["get", ID]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toBe(`adrank: no request ${ID} in this account (requests are kept 30 days; is ADRANK_API_KEY a key of the account that made it?)\n`);
    expect(unknown.stdout).toBe("");

    const typo = await adrank(["get", "3f1c9a52-8d4e"]);
    expect(typo).toEqual({ code: 2, stdout: "", stderr: 'adrank: "3f1c9a52-8d4e" is not a request id; request ids look like 7d0c2f8e-4f6b-4a43-9a55-1b1d6c3b2a10\n' });
    expect((await adrank(["get"])).stderr).toBe("adrank: give the request id that rank --async or pairwise --async printed (see adrank --help)\n");
    expect(seen).toHaveLength(1);
  });

  it("has its help, and answers a mistyped flag or command with the one meant", async () => {
    const help = await adrank(["get", "--help"]);
    expect(help.stdout).toMatch(/^adrank get <request id> \[--wait\] \[--json\]\n/);
    expect((await adrank(["--help"])).stdout).toContain("adrank get <request id>");
    expect(await adrank(["get", ID, "--wiat"])).toEqual({ code: 2, stdout: "", stderr: "adrank: unknown flag --wiat; did you mean --wait?\n" });
    expect((await adrank(["gte", ID])).stderr).toBe('adrank: unknown command "gte"; did you mean "get"?\n');
    expect(seen).toEqual([]);
  });
});

describe("adrank rank and pairwise --async", () => {
  it("submits with async: true, prints the id on stdout and how to fetch it on stderr, and exits 0", async () => {
    script = [accepted(status(0, 3))];
    const run = await adrank([...RANK, "--async"]);
    expect(run).toEqual({ code: 0, stdout: `${ID}\n`, stderr: `submitting 3 images…\nrequest accepted (3 assets); fetch the result with: adrank get ${ID} (add --wait to wait for it)\n` });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe("/api/v1/rank");
    expect(seen[0]!.body).toMatchObject({ async: true, audience: { name: "Runners" } });
    expect(seen[0]!.body!.webhook_url).toBeUndefined();
    // The SDK's own key, so a retry of a lost 202 is replayed rather than run again.
    expect(seen[0]!.headers["idempotency-key"]).toMatch(/^[0-9a-f-]{36}$/);

    script = [accepted(pairStatus(0))];
    const pair = await adrank([...PAIRWISE, "--async", "--json"]);
    expect(pair.code, pair.stderr).toBe(0);
    expect(JSON.parse(pair.stdout)).toEqual(pairStatus(0));
    expect(seen[1]).toMatchObject({ url: "/api/v1/pairwise", body: { async: true } });
  });

  it("sends --webhook-url and --idempotency-key, and says where the result will be POSTed", async () => {
    const hook = "https://hooks.example.com/adrank";
    script = [accepted(status(0, 3, { webhook: { url: hook, state: "pending", attempts: 0 } }))];
    const run = await adrank([...RANK, "--async", "--webhook-url", hook, "--idempotency-key", "order-42"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain(`; it will also be POSTed to ${hook}\n`);
    expect(seen[0]!.body).toMatchObject({ async: true, webhook_url: hook });
    expect(seen[0]!.headers["idempotency-key"]).toBe("order-42");
  });

  it("sends --idempotency-key as the header of a synchronous call too, and refuses a bad one before sending", async () => {
    script = [json(200, rankResult)];
    const run = await adrank([...RANK, "--idempotency-key", "nightly-2026-11-26"]);
    expect(run.code, run.stderr).toBe(0);
    expect(seen[0]!.headers["idempotency-key"]).toBe("nightly-2026-11-26");
    expect(seen[0]!.body!.async).toBeUndefined();

    const bad = await adrank([...PAIRWISE, "--idempotency-key", "two words"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/^adrank: Idempotency-Key must be visible ASCII characters only .+ \[Idempotency-Key\]$/m);
    expect(seen).toHaveLength(1);
  });

  it("with --wait, shows the id, then progress, then prints what the synchronous command prints", async () => {
    const table = await synchronousStdout(RANK, rankResult);
    script = [accepted(status(0, 3)), accepted(status(1, 3)), accepted(status(2, 3)), json(200, rankResult)];
    const run = await adrank([...RANK, "--async", "--wait"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr.split("\n")).toEqual([
      "ranking 3 images…",
      `request ${ID} accepted; waiting for it (Ctrl-C stops the wait, not the request: adrank get ${ID} fetches it later)`,
      "0 of 3 assets scored",
      "1 of 3 assets scored",
      "2 of 3 assets scored",
      "",
    ]);
    expect(run.stdout).toBe(table);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(["POST /api/v1/rank", ...Array(3).fill(`GET /api/v1/requests/${ID}`)]);

    const votes = await synchronousStdout(PAIRWISE, pairwiseResult);
    script = [accepted(pairStatus(0)), json(200, pairwiseResult)];
    const pair = await adrank([...PAIRWISE, "--async", "--wait"]);
    expect(pair.stderr).toContain("0 of 1 pair judged\n");
    expect(pair.stdout).toBe(votes);
  }, 20_000);

  it("exits 1 with the request's reason when the request it waits for fails", async () => {
    script = [accepted(status(0, 3)), json(200, failed)];
    const run = await adrank([...RANK, "--async", "--wait"]);
    expect(run.code).toBe(1);
    expect(run.stdout).toBe("");
    expect(run.stderr.trimEnd().split("\n").at(-1)).toBe(`adrank: request ${ID} failed: The scorer did not answer in time.`);
  });

  it("refuses --webhook-url or --wait without --async, and --html with nothing to report, before any request", async () => {
    const hook = await adrank([...RANK, "--webhook-url", "https://hooks.example.com/x"]);
    expect(hook).toEqual({ code: 2, stdout: "", stderr: "adrank: --webhook-url needs --async: a request without it answers with its result instead (see adrank --help)\n" });
    expect((await adrank([...PAIRWISE, "--webhook-url", "https://hooks.example.com/x"])).code).toBe(2);
    expect((await adrank([...RANK, "--wait"])).stderr).toBe("adrank: --wait goes with --async: without it the command waits for the result already (see adrank --help)\n");
    expect((await adrank([...RANK, "--async", "--html", "r.html"])).stderr).toBe("adrank: --html needs the result: with --async, add --wait (or run adrank get <id> later) (see adrank --help)\n");
    expect((await adrank([...RANK, "--async", "--webook-url", "https://x.example"])).stderr).toBe("adrank: unknown flag --webook-url; did you mean --webhook-url?\n");
    expect(seen).toEqual([]);
  });
});

describe("adrank rank on a terminal", () => {
  const env = () => ({ ADRANK_API_KEY: KEY, ADRANK_BASE_URL: baseUrl });

  it("polls a batch to show how many images are scored on one updating line, and prints the same stdout", async () => {
    const table = await synchronousStdout(RANK, rankResult);
    script = [accepted(status(0, 3)), accepted(status(2, 3)), json(200, rankResult)];
    const out = sink(false);
    const err = sink(true);
    await rankCommand(RANK.slice(1).map((a) => (a.endsWith(".png") ? join(dir, a) : a)), env(), out.stream, err.stream);
    expect(out.text()).toBe(table);
    expect(seen[0]!.body!.async).toBe(true);
    expect(seen.slice(1).map((s) => s.url)).toEqual([`/api/v1/requests/${ID}`, `/api/v1/requests/${ID}`]);
    // One line redrawn in place: carriage returns, no new lines, and the count in it.
    expect(err.text()).toContain("ranking 3 images");
    expect(err.text()).toContain("(2 of 3 assets scored)");
    expect(err.text()).not.toContain("\n");
    expect(err.text().endsWith("\r\x1b[K")).toBe(true);
  }, 20_000);

  it("keeps one synchronous call for a single image, and for a key given by hand", async () => {
    script = [json(200, rankResult), json(200, rankResult)];
    await rankCommand([images[0]!, "--audience-name", "Runners"], env(), sink(false).stream, sink(true).stream);
    await rankCommand([...images, "--audience-name", "Runners", "--idempotency-key", "k-1"], env(), sink(false).stream, sink(true).stream);
    expect(seen.map((s) => [s.url, s.body!.async])).toEqual([
      ["/api/v1/rank", undefined],
      ["/api/v1/rank", undefined],
    ]);
  });
});
