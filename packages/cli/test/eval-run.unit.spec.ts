import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient, type RetryPolicy } from "@adrank/sdk";
import { evalResultOf } from "../src/eval/assemble-result.ts";
import type { EvalDataset, EvalGroupKey, OutcomeRow, PairRow } from "../src/eval/dataset.ts";
import { figuresTable } from "../src/eval/figures-table.ts";
import { chunked, planOf, type EvalPlan, type PlannedRequest } from "../src/eval/plan.ts";
import { runEval } from "../src/eval/run.ts";
import { requestKeyOf, type EvalSettings } from "../src/eval/run-settings.ts";
import { newState, readState, statePathOf, writeState, type EvalState } from "../src/eval/state.ts";

// The eval runner against a local server that speaks the API's wire format: it scores each
// creative by a rule the test chooses, bills like the API (one credit a scored creative or a
// completed panel), and keeps the answer of every Idempotency-Key, replaying it unbilled.

const KEY = "agk_test_eval";
const CLI = join(import.meta.dirname, "../src/main.ts");
const AD = join(import.meta.dirname, "../../../examples/ads/spring-sale.png");
const SIM = { generators: ["sim:sim-gen-a"], embedder: "sim:sim-embed", voters: ["sim:sim-voter"], simulated: true };

const uuidOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

const rankedAsset = (rank: number, id: string, score: number, raw: number) => ({
  rank,
  asset_url: "https://cdn.example.com/echo.png",
  asset_id: id,
  score,
  score_before_refine: raw,
  score_layer: "image-only",
  asset_type: "Social Media Post",
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

interface Body {
  assets?: Array<{ url: string; id: string }>;
  pairs?: Array<{ pair_id: string; a: { id: string; image_url: string }; b: { id: string; image_url: string } }>;
  outcomes?: Array<{ request_id: string; asset_id: string; metric: string; value: number }>;
  [k: string]: unknown;
}

interface Sent {
  path: string;
  key: string | undefined;
  body: Body;
  replayed: boolean;
}

/** The fake API's rules, per test. */
interface Rules {
  /** A creative's final score (1..5) and raw score; null makes it fail. */
  score: (id: string) => { score: number; raw: number } | null;
  /** A panel's winner for a pair id, or its unfinished status. */
  panel: (pairId: string) => "a" | "b" | "partial" | "error";
  /** Called before each POST; a returned function answers instead (faults). */
  fault?: (sent: Sent, n: number) => ((req: IncomingMessage, res: ServerResponse) => void) | null;
}

let server: Server;
let baseUrl: string;
let rules: Rules;
let sent: Sent[] = [];
let billed = 0;
let stored = new Map<string, unknown>();
let requestCount = 0;
let dir: string;

function answerOf(path: string, body: Body): unknown {
  const request_id = uuidOf(++requestCount);
  if (path === "/api/v1/rank") {
    const scored = body.assets!.map((a) => ({ a, s: rules.score(a.id) }));
    const ok = scored.filter((x) => x.s !== null).sort((x, y) => y.s!.score - x.s!.score);
    const failed = scored.filter((x) => x.s === null);
    billed += ok.length;
    return {
      request_id,
      ranked: ok.map((x, i) => rankedAsset(i + 1, x.a.id, x.s!.score, x.s!.raw)),
      errors: failed.map((x) => ({ asset_url: x.a.url, asset_id: x.a.id, error: "The image could not be decoded." })),
      summary: { goal: body.goal, asset_type: "Social Media Post", platform: null, audience: "Runners", assets_ranked: ok.length, assets_failed: failed.length, scoring_evaluations: ok.length, repetitions_per_evaluation: 3, generator_samples_per_evaluation: 6, close_pair_refinement: { enabled: true, pairs_evaluated: 0, results: [] }, credits_used: ok.length, credits_remaining: 100, models: SIM },
    };
  }
  if (path === "/api/v1/pairwise") {
    const pairs = body.pairs!.map((p) => {
      const outcome = rules.panel(p.pair_id);
      const votes = [1, 2, 3, 4, 5].map((n) => {
        const winnerId = outcome === "b" ? (n === 5 ? p.a.id : p.b.id) : n === 5 ? p.b.id : p.a.id;
        return { voterId: `voter-${n}`, order: n % 2 ? "ab" : "ba", winnerId, loserId: winnerId === p.a.id ? p.b.id : p.a.id, response: "A", model: "sim:sim-voter", simulated: true };
      });
      if (outcome === "partial" || outcome === "error") return { pairId: p.pair_id, aId: p.a.id, bId: p.b.id, status: outcome, votes: outcome === "error" ? [] : votes.slice(0, 2), votesTotal: 2, error: "voters timed out" };
      return { pairId: p.pair_id, aId: p.a.id, bId: p.b.id, status: "done", votes, winnerId: outcome === "a" ? p.a.id : p.b.id, votesFor: 4, votesTotal: 5, winRate: 0.8, consistency: 0.6 };
    });
    const completed = pairs.filter((p) => p.status === "done").length;
    billed += completed;
    return {
      request_id,
      pairs,
      summary: { goal: body.goal, platform: null, audience: "Runners", model: "sim:sim-voter", panel_size: 5, pairs_requested: pairs.length, pairs_completed: completed, pairs_failed: pairs.length - completed, valid_votes: completed * 5, pairwise_evaluations: completed, credits_used: completed, credits_remaining: 100, models: { ...SIM, generators: [], embedder: null } },
    };
  }
  if (path === "/api/v1/outcomes") {
    const outcomes = body.outcomes!.map((o) => ({ ...o, impressions: null, goal: "purchase-intent", score: 3, score_before_refine: 3, simulated: true, change: "created", recorded_at: "2026-11-27T10:00:00.000Z" }));
    return { created: outcomes.length, updated: 0, unchanged: 0, outcomes };
  }
  throw new Error(`unexpected ${path}`);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (c: Buffer) => (text += c.toString()));
    req.on("end", () => {
      const path = req.url ?? "";
      const key = req.headers["idempotency-key"] as string | undefined;
      const entry: Sent = { path, key, body: text ? (JSON.parse(text) as Body) : {}, replayed: false };
      const fault = rules.fault?.(entry, sent.length);
      sent.push(entry);
      if (fault) return fault(req, res);
      const replay = key !== undefined && stored.has(key);
      entry.replayed = replay;
      const answer = replay ? stored.get(key) : answerOf(path, entry.body);
      if (key !== undefined) stored.set(key, answer);
      res.writeHead(200, { "content-type": "application/json", ...(replay ? { "idempotent-replayed": "true" } : {}) }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(async () => {
  sent = [];
  billed = 0;
  stored = new Map();
  requestCount = 0;
  rules = { score: () => ({ score: 3, raw: 3 }), panel: () => "a" };
  dir = await mkdtemp(join(tmpdir(), "adrank-eval-run-"));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const group = (campaign: string | null, goal = "purchase-intent", audience: EvalGroupKey["audience"] = { name: "Runners" }): EvalGroupKey => ({ campaign, audience, goal });

/** Outcome rows of https images: `outcome` of row i given by the test. */
function outcomeRows(prefix: string, outcomes: number[], key: EvalGroupKey, firstLine = 2): OutcomeRow[] {
  return outcomes.map((outcome, i) => {
    const url = `https://cdn.example.com/${prefix}-${i + 1}.png`;
    return { line: firstLine + i, id: `${prefix}-${i + 1}`, image: url, source: { kind: "url", url }, outcome, copy: null, group: key };
  });
}

const outcomesDataset = (rows: OutcomeRow[]): EvalDataset => ({ path: "ads.csv", sha256: createHash("sha256").update(JSON.stringify(rows)).digest("hex"), format: "csv", kind: "outcomes", rows });

function pairRows(n: number, key: EvalGroupKey, winner: (i: number) => "a" | "b", firstLine = 2): PairRow[] {
  return Array.from({ length: n }, (_, i) => {
    const side = (s: string) => {
      const url = `https://cdn.example.com/p${firstLine + i}-${s}.png`;
      return { image: url, source: { kind: "url" as const, url } };
    };
    return { line: firstLine + i, a: side("a"), b: side("b"), winner: winner(i), group: key };
  });
}

const SETTINGS: EvalSettings = { base_url: "http://127.0.0.1:8080", goal: null, audience: { name: "Runners", description: null }, asset_type: null, platform: null, refine: true };

/** A stream standing in for stderr (never a terminal here); it keeps what was written. */
const sink = () => {
  const chunks: string[] = [];
  return { stream: { isTTY: false, write: (s: string) => chunks.push(s) > 0 } as unknown as NodeJS.WriteStream, text: () => chunks.join("") };
};

const NO_RETRY: Partial<RetryPolicy> = { maxRetries: 0 };

async function run(dataset: EvalDataset, state: EvalState | null = null, opts: { retry?: Partial<RetryPolicy>; recordMetric?: string } = {}) {
  const plan = planOf(dataset);
  const statePath = statePathOf(join(dir, "ads.eval.json"));
  const s = state ?? newState(dataset.sha256, { ...SETTINGS, base_url: baseUrl }, plan);
  const err = sink();
  const report = await runEval({ plan, state: s, statePath, recordMetric: opts.recordMetric ?? null }, { clientOf: (onRetry) => createClient({ apiKey: KEY, baseUrl, onRetry }), err: err.stream, retry: opts.retry ?? NO_RETRY });
  const result = evalResultOf(dataset, plan, report.finished, { base_url: baseUrl, refine: true, metric: "ctr", started_at: s.started_at, finished_at: new Date().toISOString() });
  return { plan, state: s, statePath, report, result, stderr: err.text() };
}

describe("planning: groups and requests", () => {
  it("deals a group's rows into as few requests as hold them, differing by one row at most", () => {
    expect(chunked([1, 2, 3, 4, 5], 2)).toEqual([[1, 4], [2, 5], [3]]);
    expect(chunked(Array.from({ length: 20 }, (_, i) => i), 20)).toHaveLength(1);
    expect(chunked(Array.from({ length: 21 }, (_, i) => i), 20).map((c) => c.length)).toEqual([11, 10]);
    expect(chunked(Array.from({ length: 45 }, (_, i) => i), 20).map((c) => c.length)).toEqual([15, 15, 15]);
  });

  it("ranks each (campaign, audience, goal) apart, at most 20 creatives a ranking, in the file's order of groups", () => {
    const spring = group("spring");
    const rows = [...outcomeRows("s", Array.from({ length: 25 }, (_, i) => i), spring), ...outcomeRows("f", [1, 2, 3], group("fall", "scroll-stopping")), ...outcomeRows("t", [4, 5], group("spring", "purchase-intent", { id: "aud_1" }))];
    const plan = planOf(outcomesDataset(rows));
    expect(plan.groups.map((g) => g.label)).toEqual(["spring / Runners / purchase-intent", "fall / Runners / scroll-stopping", "spring / aud_1 / purchase-intent"]);
    expect(plan.requests.map((r) => (r.kind === "rank" ? [r.index, r.group, r.rows.length] : r.kind))).toEqual([
      [0, 0, 13],
      [1, 0, 12],
      [2, 1, 3],
      [3, 2, 2],
    ]);
    // Dealt in file order: a file sorted by outcome does not put its best rows in one ranking.
    const ids = (i: number) => (plan.requests[i] as Extract<PlannedRequest, { kind: "rank" }>).rows.slice(0, 3).map((r) => r.id);
    expect(ids(0)).toEqual(["s-1", "s-3", "s-5"]);
    expect(ids(1)).toEqual(["s-2", "s-4", "s-6"]);
    // The same dataset, the same plan.
    expect(planOf(outcomesDataset(rows))).toEqual(plan);
  });

  it("sends labelled pairs ten to a request, per group", () => {
    const rows = [...pairRows(23, group("spring"), () => "a"), ...pairRows(4, group("fall"), () => "b", 40)];
    const dataset: EvalDataset = { path: "pairs.csv", sha256: "ab", format: "csv", kind: "pairs", rows };
    expect(planOf(dataset).requests.map((r) => (r.kind === "pairwise" ? [r.kind, r.group, r.rows.length] : r.kind))).toEqual([
      ["pairwise", 0, 8],
      ["pairwise", 0, 8],
      ["pairwise", 0, 7],
      ["pairwise", 1, 4],
    ]);
  });
});

describe("idempotency keys", () => {
  it("are the same for the same dataset, settings, run and request, and differ when any of them does", () => {
    const key = requestKeyOf("a".repeat(64), SETTINGS, "run-1", 2);
    expect(requestKeyOf("a".repeat(64), { ...SETTINGS }, "run-1", 2)).toBe(key);
    expect(key).toMatch(/^adrank-eval-[0-9a-f]{64}$/);
    expect(key.length).toBeLessThanOrEqual(255);
    const others = [requestKeyOf("b".repeat(64), SETTINGS, "run-1", 2), requestKeyOf("a".repeat(64), { ...SETTINGS, platform: "meta" }, "run-1", 2), requestKeyOf("a".repeat(64), SETTINGS, "run-2", 2), requestKeyOf("a".repeat(64), SETTINGS, "run-1", 3)];
    expect(new Set([key, ...others]).size).toBe(5);
  });
});

describe("the resume file", () => {
  const statePath = () => join(dir, "ads.eval.json.state.json");

  /** The plan of n one-row groups: n rank requests. */
  const planOfRequests = (n: number): EvalPlan => planOf(outcomesDataset(Array.from({ length: n }, (_, i) => outcomeRows(`c${i}`, [1], group(`c${i}`), 2 + i)[0]!)));
  const three = planOfRequests(3);

  it("is used again only for the same dataset, settings and plan, and says why not otherwise", async () => {
    const state = newState("sha-1", SETTINGS, three);
    await writeState(statePath(), state);
    expect(await readState(statePath(), "sha-1", { ...SETTINGS }, three)).toEqual({ state, note: null });
    expect((await readState(statePath(), "sha-2", SETTINGS, three)).note).toMatch(/another version of the dataset/);
    const other = await readState(statePath(), "sha-1", { ...SETTINGS, platform: "tiktok", refine: false }, three);
    expect(other).toEqual({ state: null, note: `ignoring ${statePath()}: it was run with other settings (platform, refine); starting afresh` });
    expect((await readState(statePath(), "sha-1", { ...SETTINGS, audience: { name: "Runners", description: "Trail" } }, three)).note).toMatch(/other settings \(audience\)/);
    expect((await readState(statePath(), "sha-1", SETTINGS, planOfRequests(4))).note).toMatch(/planned 3 requests, this run 4/);
    expect(await readState(join(dir, "none.json"), "sha-1", SETTINGS, three)).toEqual({ state: null, note: null });
    await writeFile(statePath(), "{ half a fi");
    expect((await readState(statePath(), "sha-1", SETTINGS, three)).note).toMatch(/not a state file/);
  });

  it("is replaced whole: no temporary file is left beside it", async () => {
    await writeState(statePath(), newState("sha-1", SETTINGS, planOfRequests(1)));
    await writeState(statePath(), newState("sha-1", SETTINGS, planOfRequests(2)));
    expect(await readdir(dir)).toEqual(["ads.eval.json.state.json"]);
    expect(JSON.parse(await readFile(statePath(), "utf8")).requests).toBe(2);
  });
});

describe("running a dataset of outcomes", () => {
  it("gets figures per group and pooled, leaves failed creatives out, and sums the credits", async () => {
    // Scores follow the outcomes in spring (rho 1) and run against them in fall (rho -1).
    const spring = outcomeRows("s", [0.1, 0.5, 0.2, 0.9, 0.4, 0.7, 0.3, 0.8, 0.6, 1.0, 0.05], group("spring"));
    const fall = outcomeRows("f", [5, 1, 4, 2, 3, 6, 8, 7, 9, 10, 11, 12], group("fall"), 20);
    const outcome = new Map([...spring, ...fall].map((r) => [r.id, r.outcome]));
    rules.score = (id) => {
      if (id === "s-11") return null;
      const o = outcome.get(id)!;
      return id.startsWith("s-") ? { score: 1 + 4 * o, raw: 1 + 4 * o } : { score: 5 - o / 3, raw: 5 - o / 3 };
    };
    const { result, stderr, statePath } = await run(outcomesDataset([...spring, ...fall]));

    expect(sent.map((s) => s.path)).toEqual(["/api/v1/rank", "/api/v1/rank"]);
    // Each creative goes as its row id; the group's goal and audience with it.
    expect(sent[0]!.body.assets!.map((a) => a.id)).toEqual(spring.map((r) => r.id));
    expect(sent[0]!.body).toMatchObject({ audience: { name: "Runners" }, goal: "purchase-intent", refine_close_pairs: true });
    expect(sent[0]!.body.assets![0]!.url).toBe("https://cdn.example.com/s-1.png");

    const [springGroup, fallGroup] = result.outcomes!.groups;
    expect(springGroup!.points).toHaveLength(10);
    expect(springGroup!.figures.spearman_rho!.value).toBeCloseTo(1, 10);
    expect(springGroup!.figures.pairwise_agreement!.value).toBe(1);
    expect(fallGroup!.figures.spearman_rho!.value).toBeCloseTo(-1, 10);
    expect(fallGroup!.figures.pairwise_agreement!.value).toBe(0);
    expect(result.outcomes!.pooled.n).toBe(22);
    expect(result.outcomes!.pooled.strata).toBe(2);
    expect(result.outcomes!.failed).toEqual([{ id: "s-11", image: "https://cdn.example.com/s-11.png", error: "The image could not be decoded." }]);
    expect(result.credits_used).toBe(22);
    expect(billed).toBe(22);
    expect(result.api).toEqual({ base_url: baseUrl, models: [SIM], simulated: true });
    expect(springGroup!.request_ids).toEqual([uuidOf(1)]);
    expect(springGroup!.points[0]).toMatchObject({ id: "s-1", image: "https://cdn.example.com/s-1.png", outcome: 0.1, score: 1.4, request_id: uuidOf(1) });

    // One progress line per request when stderr is no terminal.
    expect(stderr).toBe("request 1 of 2: ranking 11 creatives of spring / Runners / purchase-intent (0 creatives scored so far)…\nrequest 2 of 2: ranking 12 creatives of fall / Runners / purchase-intent (10 creatives scored so far)…\n");
    // The state holds both answers, without the images the API echoed.
    const state = JSON.parse(await readFile(statePath, "utf8")) as EvalState;
    expect(state.done.map((d) => d.request_id)).toEqual([uuidOf(1), uuidOf(2)]);
    expect(JSON.stringify(state)).not.toContain("cdn.example.com/echo.png");

    const table = figuresTable(result).join("\n");
    expect(table).toMatch(/^spring \/ Runners \/ purchase-intent\s+10\s+1\.00 \[1\.00, 1\.00\]\s+1\.00\s+1\.00 → 1\.00 \[1\.00, 1\.00\]$/m);
    expect(table).toMatch(/^fall \/ Runners \/ purchase-intent\s+12\s+-1\.00 \[-1\.00, -1\.00\]\s+-1\.00\s+0\.00 → 0\.00 \[0\.00, 0\.00\]$/m);
    expect(table).toMatch(/^pooled \(2 groups\)\s+22\s/m);
    expect(table).toContain("  https://cdn.example.com/s-11.png: The image could not be decoded.");
    expect(table).toContain("SIMULATED: these scores come from the offline sim model");
  });

  it("shows agreement of raw scores and after refinement apart", async () => {
    const rows = outcomeRows("s", [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], group("spring"));
    // Raw scores reverse the top two; refinement puts them right.
    rules.score = (id) => {
      const i = Number(id.slice(2));
      return { score: 1 + i * 0.4, raw: i === 9 ? 4.9 : i === 10 ? 4.8 : 1 + i * 0.4 };
    };
    const { result } = await run(outcomesDataset(rows));
    const figures = result.outcomes!.groups[0]!.figures;
    expect(figures.pairwise_agreement!.value).toBe(1);
    expect(figures.pairwise_agreement_raw!.value).toBeCloseTo(44 / 45, 4);
  });

  it("splits a group of more than 20 into rankings and says its scores come from several", async () => {
    const rows = outcomeRows("s", Array.from({ length: 24 }, (_, i) => i), group("spring"));
    rules.score = (id) => ({ score: 1 + Number(id.slice(2)) / 10, raw: 1 + Number(id.slice(2)) / 10 });
    const { result } = await run(outcomesDataset(rows));
    expect(sent.map((s) => s.body.assets!.length)).toEqual([12, 12]);
    expect(result.outcomes!.groups[0]!.request_ids).toEqual([uuidOf(1), uuidOf(2)]);
    expect(result.outcomes!.groups[0]!.points).toHaveLength(24);
    expect(figuresTable(result).join("\n")).toContain("1 group had more creatives than one ranking takes: spring / Runners / purchase-intent (2 rankings); their scores come from several rankings.");
  });

  it("shows a rate-limit wait on the progress line and goes on", async () => {
    rules.fault = (_s, n) => (n === 0 ? (_req, res) => res.writeHead(429, { "content-type": "application/json", "retry-after": "1" }).end('{"error":"Rate limit exceeded."}') : null);
    const { stderr, result } = await run(outcomesDataset(outcomeRows("s", [1, 2, 3], group("spring"))), null, { retry: { maxRetries: 2 } });
    expect(stderr).toContain("rate limited, waiting 1.0 s\n");
    expect(result.outcomes!.groups[0]!.points).toHaveLength(3);
    // The retry carried the same key as the refused attempt.
    expect(sent[0]!.key).toBe(sent[1]!.key);
  }, 10_000);
});

describe("resuming", () => {
  const threeGroups = () => outcomesDataset([...outcomeRows("a", [1, 2, 3], group("a")), ...outcomeRows("b", [1, 2, 3], group("b"), 10), ...outcomeRows("c", [1, 2, 3], group("c"), 20)]);

  it("skips the requests a stopped run finished, and replays the one it had in flight under the same key", async () => {
    const dataset = threeGroups();
    // The second request reaches the server (which runs and bills it), but its answer is lost.
    rules.fault = (s, n) =>
      n === 1
        ? (_req, res) => {
            stored.set(s.key!, answerOf(s.path, s.body));
            res.destroy();
          }
        : null;
    await expect(run(dataset)).rejects.toThrow(/Could not reach/);
    const statePath = statePathOf(join(dir, "ads.eval.json"));
    const stopped = JSON.parse(await readFile(statePath, "utf8")) as EvalState;
    expect(stopped.done.map((d) => d.index)).toEqual([0]);
    expect(billed).toBe(6);
    const inFlightKey = sent[1]!.key;

    rules.fault = undefined;
    sent = [];
    const { state } = await readState(statePath, dataset.sha256, { ...SETTINGS, base_url: baseUrl }, planOf(dataset));
    expect(state).not.toBeNull();
    const resumed = await run(dataset, state);
    // Request 1 is not sent again; request 2 is, with its key, and is answered from the store.
    expect(sent.map((s) => [s.key, s.replayed])).toEqual([
      [inFlightKey, true],
      [requestKeyOf(dataset.sha256, { ...SETTINGS, base_url: baseUrl }, stopped.run_id, 2), false],
    ]);
    expect(resumed.report.resumed).toBe(1);
    expect(billed).toBe(9);
    expect(resumed.result.credits_used).toBe(9);
    expect(resumed.result.outcomes!.groups.map((g) => g.points.length)).toEqual([3, 3, 3]);
  });

  it("sends new keys in a new run of the same data, so a second run is scored again, not replayed", async () => {
    const dataset = threeGroups();
    await run(dataset);
    const first = sent.map((s) => s.key);
    sent = [];
    await run(dataset);
    expect(sent.every((s) => !s.replayed)).toBe(true);
    expect(sent.map((s) => s.key).filter((k) => first.includes(k))).toEqual([]);
    expect(billed).toBe(18);
  });
});

describe("running labelled pairs", () => {
  it("reports how often a completed panel picks the labelled winner, leaving partial and failed panels out", async () => {
    const rows = [...pairRows(12, group("spring"), (i) => (i % 2 ? "a" : "b")), ...pairRows(3, group("fall"), () => "a", 40)];
    // The panel agrees with the label except on lines 2 and 3; line 4 is partial and line 41 fails.
    const label = new Map(rows.map((r) => [`line-${r.line}`, r.winner]));
    rules.panel = (pairId) => (pairId === "line-4" ? "partial" : pairId === "line-41" ? "error" : pairId === "line-2" || pairId === "line-3" ? (label.get(pairId) === "a" ? "b" : "a") : label.get(pairId)!);
    const dataset: EvalDataset = { path: "pairs.csv", sha256: "cd", format: "csv", kind: "pairs", rows };
    const { result, stderr } = await run(dataset);

    expect(sent.map((s) => [s.path, s.body.pairs!.length])).toEqual([
      ["/api/v1/pairwise", 6],
      ["/api/v1/pairwise", 6],
      ["/api/v1/pairwise", 3],
    ]);
    expect(sent[0]!.body.pairs![0]).toEqual({ pair_id: "line-2", a: { id: "line-2-a", image_url: "https://cdn.example.com/p2-a.png" }, b: { id: "line-2-b", image_url: "https://cdn.example.com/p2-b.png" } });
    const pairs = result.pairs!;
    expect(pairs.n).toBe(15);
    expect(pairs.completed).toBe(13);
    expect(pairs.agreement!.value).toBeCloseTo(11 / 13, 4);
    expect(pairs.groups.map((g) => [g.label, g.n, g.completed, g.agreement?.value])).toEqual([
      ["spring / Runners / purchase-intent", 12, 11, 0.8182],
      ["fall / Runners / purchase-intent", 3, 2, 1],
    ]);
    expect(pairs.items.find((i) => i.image_a.endsWith("p4-a.png"))).toMatchObject({ panel_winner: null, votes_a: 2, votes_b: 0 });
    expect(pairs.items.find((i) => i.image_a.endsWith("p5-a.png"))).toMatchObject({ label: "a", panel_winner: "a", votes_a: 4, votes_b: 1 });
    expect(result.outcomes).toBeNull();
    expect(result.credits_used).toBe(13);
    expect(stderr).toContain("request 3 of 3: 3 labelled pairs of fall / Runners / purchase-intent to the panel (11 panels completed so far)…");
    const table = figuresTable(result).join("\n");
    expect(table).toMatch(/^pooled \(2 groups\)\s+15\s+13\s+0\.85 \[/m);
    expect(table).toContain("2 pairs did not get a completed panel (partial or error) and are left out.");
    expect(table).toContain("SIMULATED: these votes come from the offline sim model");
  });
});

// Each run starts the real binary (a second or two): more time than a unit test's default.
describe("the adrank eval command", { timeout: 60_000 }, () => {
  const adrank = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [CLI, "eval", ...args], { cwd: dir, env: { PATH: process.env.PATH ?? "", ADRANK_API_KEY: KEY, ADRANK_BASE_URL: baseUrl }, timeout: 30_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });
  const csv = (rows: string[]) => writeFile(join(dir, "ads.csv"), `image,id,outcome,campaign\n${rows.join("\n")}\n`);
  const twelve = (campaign: string) => Array.from({ length: 12 }, (_, i) => `https://cdn.example.com/${campaign}-${i + 1}.png,${campaign}-${i + 1},${i / 10},${campaign}`);

  it("scores, writes the result beside where it runs, records the scored outcomes and removes its resume file", async () => {
    await copyFile(AD, join(dir, "local.png"));
    await csv([...twelve("spring"), "local.png,,0.05,spring"]);
    rules.score = (id) => (id === "spring-12" ? null : { score: id === "local.png" ? 1 : 1 + Number(id.split("-")[1]) / 4, raw: 1 + Number(id.split("-")[1] ?? 0) / 4 });
    const run = await adrank(["ads.csv", "--audience-name", "Runners", "--metric", "ctr", "--record-outcomes"]);
    expect(run.code, run.stderr).toBe(0);

    // A file image goes as a data URI under its file name; a URL as it is.
    const assets = sent[0]!.body.assets!;
    expect(assets.find((a) => a.id === "local.png")!.url).toMatch(/^data:image\/png;base64,iVBOR/);
    expect(assets.find((a) => a.id === "spring-1")!.url).toBe("https://cdn.example.com/spring-1.png");
    // Only the scored creatives' outcomes are recorded: the API knows no score of the failed one.
    const recorded = sent.find((s) => s.path === "/api/v1/outcomes")!.body.outcomes!;
    expect(recorded).toHaveLength(12);
    expect(recorded.find((o) => o.asset_id === "spring-12")).toBeUndefined();
    expect(recorded.find((o) => o.asset_id === "spring-3")).toEqual({ request_id: uuidOf(1), asset_id: "spring-3", metric: "ctr", value: 0.2 });

    const result = JSON.parse(await readFile(join(dir, "ads.eval.json"), "utf8"));
    expect(result.dataset).toMatchObject({ path: "ads.csv", rows: 13, metric: "ctr" });
    expect(result.outcomes.groups[0].points).toHaveLength(12);
    expect(result.outcomes.failed).toEqual([{ id: "spring-12", image: "https://cdn.example.com/spring-12.png", error: "The image could not be decoded." }]);
    await expect(stat(join(dir, "ads.eval.json.state.json"))).rejects.toThrow(/ENOENT/);
    expect(run.stdout).toMatch(/^spring \/ Runners \/ purchase-intent\s+12\s+0\.99 \[/m);
    expect(run.stdout).toContain("1 creative could not be scored and is left out of every figure:\n  https://cdn.example.com/spring-12.png: The image could not be decoded.");
    expect(run.stdout).toContain("12 credits used over 1 request\n12 outcomes recorded under metric \"ctr\" (see adrank calibration, or GET /api/v1/calibration)\nresult written to ads.eval.json\n");
  });

  it("keeps what a stopped run got, says how to resume, and resumes without paying for it again", async () => {
    await csv([...twelve("spring"), ...twelve("fall")]);
    rules.fault = (_s, n) => (n === 1 ? (_req, res) => res.writeHead(402, { "content-type": "application/json" }).end('{"error":"Insufficient credits."}') : null);
    const stopped = await adrank(["ads.csv", "--audience-name", "Runners"]);
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain("stopped after 1 of 2 requests; the answers so far are kept in ads.eval.json.state.json: run the same command again to resume\n");
    expect(stopped.stderr).toMatch(/^adrank: 402 /m);

    rules.fault = undefined;
    sent = [];
    const resumed = await adrank(["ads.csv", "--audience-name", "Runners"]);
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stderr).toMatch(/^resuming: 1 of 2 requests already done \(12 credits\), from ads\.eval\.json\.state\.json$/m);
    expect(sent.map((s) => s.body.assets![0]!.id)).toEqual(["fall-1"]);
    expect(resumed.stdout).toContain("24 credits used over 2 requests (12 of them by the 1 request the run it resumed had finished)");
    expect(billed).toBe(24);
  });

  it("does not resume from a run of other settings, or with --fresh", async () => {
    await csv(twelve("spring"));
    rules.fault = (_s, n) => (n === 0 ? (_req, res) => res.writeHead(402, { "content-type": "application/json" }).end('{"error":"Insufficient credits."}') : null);
    expect((await adrank(["ads.csv", "--audience-name", "Runners"])).code).toBe(1);
    rules.fault = undefined;
    const other = await adrank(["ads.csv", "--audience-name", "Runners", "--platform", "tiktok"]);
    expect(other.code, other.stderr).toBe(0);
    expect(other.stderr).toMatch(/^ignoring ads\.eval\.json\.state\.json: it was run with other settings \(platform\); starting afresh$/m);
    expect(sent.at(-1)!.body.platform).toBe("tiktok");
  });

  it("fails, after writing the result, when nothing could be scored", async () => {
    await csv(twelve("spring"));
    rules.score = () => null;
    const run = await adrank(["ads.csv", "--audience-name", "Runners", "--out", "none.json"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^adrank: nothing could be scored: every creative failed \(first: https:\/\/cdn\.example\.com\/spring-1\.png: The image could not be decoded\.\)$/m);
    expect(JSON.parse(await readFile(join(dir, "none.json"), "utf8")).outcomes.failed).toHaveLength(12);
  });

  it("refuses what cannot work before any request", async () => {
    await csv(twelve("spring"));
    await writeFile(join(dir, "pairs.csv"), "image_a,image_b,winner\nhttps://cdn.example.com/a.png,https://cdn.example.com/b.png,a\n");
    const cases: Array<[string[], RegExp]> = [
      [["ads.csv", "--audience-name", "Runners", "--metric", "CTR"], /--metric "CTR": 1 to 40 lowercase letters/],
      [["pairs.csv", "--audience-name", "Runners", "--record-outcomes"], /--record-outcomes needs outcome rows; pairs.csv holds labelled pairs/],
      [["ads.csv", "--audience-description", "Trail"], /--audience-description goes with --audience-name/],
      [["ads.csv", "other.csv", "--audience-name", "Runners"], /give one dataset, not 2/],
      [["ads.csv", "--audience-name", "Runners", "--out", "missing/r.json"], /--out missing\/r.json: the folder missing does not exist/],
      [["ads.csv", "--audience-name", "Runners", "--goal", "purchase-intnet"], /did you mean "purchase-intent"/],
    ];
    for (const [args, message] of cases) {
      const run = await adrank(args);
      expect(run.code, args.join(" ")).toBe(2);
      expect(run.stderr).toMatch(message);
    }
    expect(sent).toEqual([]);
  });
});
