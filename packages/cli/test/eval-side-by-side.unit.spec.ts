import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFile, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { RankAudiencesRequest, RankAudiencesResponse, RankRequest, RankResponse } from "@adrank/contracts";
import { createClient, type RetryPolicy } from "@adrank/sdk";
import { evalResultOf } from "../src/eval/assemble-result.ts";
import type { EvalDataset, EvalGroupKey, OutcomeRow } from "../src/eval/dataset.ts";
import { planOf, type PlannedRequest } from "../src/eval/plan.ts";
import { runEval } from "../src/eval/run.ts";
import { requestKeyOf, type EvalSettings } from "../src/eval/run-settings.ts";
import { newState, readState, statePathOf, writeState, type EvalState } from "../src/eval/state.ts";

// Groups that differ only by audience over the same creatives go to POST /api/v1/rank/audiences
// together. The fake API below holds both rank operations to the contract: a body that does
// not parse is answered 422, as the API answers it, and every answer it gives parses with the
// response schema. It scores a creative by the audience it is ranked for and its image, never
// by its id, as a model would.

const KEY = "agk_test_eval_audiences";
const CLI = join(import.meta.dirname, "../src/main.ts");
const AD = join(import.meta.dirname, "../../../examples/ads/spring-sale.png");
const SIM = { generators: ["sim:sim-gen-a"], embedder: "sim:sim-embed", voters: ["sim:sim-voter"], simulated: true };
const uuidOf = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

interface Asset {
  url: string;
  id?: string;
  copy_context?: Record<string, string>;
}
type Score = { score: number; raw: number } | null;

interface Sent {
  path: string;
  key: string | undefined;
  body: Record<string, unknown> & { assets?: Asset[]; audiences?: Array<{ name?: string; audience_id?: string }> };
  replayed: boolean;
}

let server: Server;
let baseUrl: string;
/** A creative's scores for an audience (by name, or saved id); null makes it fail. */
let scoreOf: (audience: string, asset: Asset) => Score;
/** Called before each POST; a returned function answers instead (faults). */
let fault: ((sent: Sent, n: number) => ((res: ServerResponse) => void) | null) | undefined;
let sent: Sent[] = [];
let billed = 0;
let stored = new Map<string, unknown>();
let requestCount = 0;
let dir: string;

const rankedAsset = (rank: number, asset: Asset, s: NonNullable<Score>) => ({
  rank,
  asset_url: "https://cdn.example.com/echo.png",
  asset_id: asset.id ?? null,
  score: s.score,
  score_before_refine: s.raw,
  score_layer: asset.copy_context ? "full-ad-package" : "image-only",
  asset_type: "Social Media Post",
  copy_context_included: asset.copy_context !== undefined,
  image_only_score: s.score,
  copy_lift: 0,
  rationale: "Because",
  product_read: "",
  confidence: "medium",
  panel_outcome: null,
  confidence_details: { entropy: 0.4, top_margin: 0.2, sample_std_dev: 0.1, repetition_count: 3, generator_sample_count: 6 },
  details: { probabilities: [0.1, 0.1, 0.2, 0.3, 0.3], similarities: [0.1, 0.2, 0.3, 0.4, 0.5], repetitionCount: 3, generatorSampleCount: 6, repetitionScores: [s.raw, s.raw, s.raw], repetitionScoreRange: 0 },
});

/** One audience's ranking of the assets, billed one credit a scored creative: what POST /api/v1/rank answers, without its request_id. */
function rankingFor(audience: string, assets: Asset[], goal: string) {
  const scored = assets.map((a, i) => ({ a, i, s: scoreOf(audience, a) }));
  const ok = scored.filter((x) => x.s !== null).sort((x, y) => y.s!.score - x.s!.score);
  const failed = scored.filter((x) => x.s === null);
  billed += ok.length;
  return {
    scored,
    ranked: ok.map((x, r) => rankedAsset(r + 1, x.a, x.s!)),
    errors: failed.map((x) => ({ asset_url: x.a.url, asset_id: x.a.id ?? null, error: "The image could not be decoded." })),
    summary: { goal, asset_type: "Social Media Post", platform: null, audience, assets_ranked: ok.length, assets_failed: failed.length, scoring_evaluations: ok.length, repetitions_per_evaluation: 3, generator_samples_per_evaluation: 6, close_pair_refinement: { enabled: true, pairs_evaluated: 0, results: [] }, credits_used: ok.length, credits_remaining: 100, models: SIM },
  };
}

const audienceName = (a: { name?: string; audience_id?: string }) => a.name ?? a.audience_id!;
const audienceIdOf = (a: object) => ("audience_id" in a ? (a.audience_id as string) : null);

function rankAnswer(body: unknown): unknown {
  const request = RankRequest.parse(body);
  const audience = request.audience?.name ?? request.audience_id!;
  const { ranked, errors, summary } = rankingFor(audience, request.assets as Asset[], request.goal);
  return RankResponse.parse({ request_id: uuidOf(++requestCount), ranked, errors, summary });
}

function rankAudiencesAnswer(body: unknown): unknown {
  const request = RankAudiencesRequest.parse(body);
  const names = request.audiences.map(audienceName);
  const rankings = names.map((name) => rankingFor(name, request.assets as Asset[], request.goal));
  const credits = rankings.reduce((n, r) => n + r.summary.credits_used, 0);
  const comparison = request.assets.map((asset, i) => {
    const scores = rankings.map((r, j) => {
      const s = r.scored[i]!.s;
      return { audience: names[j]!, score: s?.score ?? null, score_before_refine: s?.raw ?? null, rank: s ? r.ranked.findIndex((x) => x.asset_id === (asset.id ?? null)) + 1 : null };
    });
    const finals = scores.filter((s) => s.score !== null).map((s) => s.score!);
    return { asset_index: i, asset_id: asset.id ?? null, asset_url: asset.url, scores, spread: finals.length > 1 ? Math.max(...finals) - Math.min(...finals) : null, best_audience: null, worst_audience: null };
  });
  const sensitivity = names.flatMap((a, i) => names.slice(i + 1).map((b) => ({ audience_a: a, audience_b: b, assets_compared: request.assets.length, rank_correlation: null, largest_score_change: null, persona_made_no_difference: false })));
  return RankAudiencesResponse.parse({
    request_id: uuidOf(++requestCount),
    by_audience: rankings.map((r, j) => ({ audience: names[j], audience_id: audienceIdOf(request.audiences[j]!), ranked: r.ranked, errors: r.errors, summary: r.summary })),
    comparison,
    reversals: [],
    audience_sensitivity: sensitivity,
    summary: {
      goal: request.goal,
      asset_type: "Social Media Post",
      platform: null,
      audiences: names,
      assets_ranked: rankings.reduce((n, r) => n + r.ranked.length, 0),
      assets_failed: rankings.reduce((n, r) => n + r.errors.length, 0),
      scoring_evaluations: credits,
      repetitions_per_evaluation: 3,
      generator_samples_per_evaluation: 6,
      close_pairs_refined: 0,
      credits_used: credits,
      credits_remaining: 100,
      models: SIM,
      warnings: [],
    },
  });
}

function outcomesAnswer(body: { outcomes: Array<Record<string, unknown>> }): unknown {
  const outcomes = body.outcomes.map((o) => ({ ...o, impressions: null, goal: "purchase-intent", score: 3, score_before_refine: 3, simulated: true, change: "created", recorded_at: "2026-11-27T10:00:00.000Z" }));
  return { created: outcomes.length, updated: 0, unchanged: 0, outcomes };
}

/** The contract's check of a body, as the API's 422 words it; null when it passes. */
function refusal(path: string, body: unknown): { error: string; field: string | null } | null {
  const schema = path === "/api/v1/rank" ? RankRequest : path === "/api/v1/rank/audiences" ? RankAudiencesRequest : null;
  const parsed = schema?.safeParse(body);
  if (!parsed || parsed.success) return null;
  const issue = parsed.error.issues[0]!;
  return { error: `${issue.path.join(".")} ${issue.message}`, field: issue.path.join(".") || null };
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (c: Buffer) => (text += c.toString()));
    req.on("end", () => {
      const path = req.url ?? "";
      const key = req.headers["idempotency-key"] as string | undefined;
      const entry: Sent = { path, key, body: text ? JSON.parse(text) : {}, replayed: false };
      const faulty = fault?.(entry, sent.length);
      sent.push(entry);
      if (faulty) return faulty(res);
      const refused = refusal(path, entry.body);
      if (refused) return res.writeHead(422, { "content-type": "application/json" }).end(JSON.stringify(refused));
      const replay = key !== undefined && stored.has(key);
      entry.replayed = replay;
      try {
        const answer = replay ? stored.get(key) : answerOf(path, entry.body);
        if (key !== undefined) stored.set(key, answer);
        res.writeHead(200, { "content-type": "application/json", ...(replay ? { "idempotent-replayed": "true" } : {}) }).end(JSON.stringify(answer));
      } catch (err) {
        // A fake that cannot build a valid answer is a broken test: say why, loudly.
        res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: `fake API: ${String(err)}` }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

function answerOf(path: string, body: unknown): unknown {
  if (path === "/api/v1/rank") return rankAnswer(body);
  if (path === "/api/v1/rank/audiences") return rankAudiencesAnswer(body);
  if (path === "/api/v1/outcomes") return outcomesAnswer(body as { outcomes: Array<Record<string, unknown>> });
  throw new Error(`unexpected ${path}`);
}

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

beforeEach(async () => {
  sent = [];
  billed = 0;
  stored = new Map();
  requestCount = 0;
  fault = undefined;
  scoreOf = () => ({ score: 3, raw: 3 });
  dir = await mkdtemp(join(tmpdir(), "adrank-eval-audiences-"));
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const SETTINGS: EvalSettings = { base_url: "http://127.0.0.1:8080", goal: null, audience: null, asset_type: null, platform: null, refine: true };

const group = (audience: string, campaign: string | null = "spring", goal = "purchase-intent"): EvalGroupKey => ({ campaign, audience: { name: audience }, goal });

/** A creative: an https image, with copy or without. */
interface Creative {
  url: string;
  copy: Record<string, string> | null;
}
const creative = (n: number, copy: Record<string, string> | null = null): Creative => ({ url: `https://cdn.example.com/c${n}.png`, copy });
const sixCreatives = () => [1, 2, 3, 4, 5, 6].map((n) => creative(n));
/** The creative number of an asset (c3.png → 3). */
const numberOf = (asset: { url: string }) => Number(/c(\d+)\.png$/.exec(asset.url)![1]);

let nextLine = 2;
/** One row per creative for one audience group; ids like "hikers-c3", the audience's own, as a file of one row per (image, audience) gives them. */
function rowsFor(key: EvalGroupKey, creatives: Creative[], outcome: (n: number) => number): OutcomeRow[] {
  const name = "name" in key.audience ? key.audience.name : key.audience.id;
  return creatives.map((c) => {
    const n = numberOf(c);
    const suffix = c.copy ? `-${Object.values(c.copy).join("-")}` : "";
    return { line: nextLine++, id: `${key.campaign}-${name.toLowerCase()}-c${n}${suffix}`, image: c.url, source: { kind: "url", url: c.url }, outcome: outcome(n), copy: c.copy, group: key };
  });
}

const outcomesDataset = (rows: OutcomeRow[]): EvalDataset => ({ path: "ads.csv", sha256: createHash("sha256").update(JSON.stringify(rows)).digest("hex"), format: "csv", kind: "outcomes", rows });

const sink = () => {
  const chunks: string[] = [];
  return { stream: { isTTY: false, write: (s: string) => chunks.push(s) > 0 } as unknown as NodeJS.WriteStream, text: () => chunks.join("") };
};

const NO_RETRY: Partial<RetryPolicy> = { maxRetries: 0 };

async function run(dataset: EvalDataset, state: EvalState | null = null) {
  const plan = planOf(dataset);
  const settings = { ...SETTINGS, base_url: baseUrl };
  const statePath = statePathOf(join(dir, "ads.eval.json"));
  const s = state ?? newState(dataset.sha256, settings, plan);
  const err = sink();
  const report = await runEval({ plan, state: s, statePath, recordMetric: null }, { clientOf: (onRetry) => createClient({ apiKey: KEY, baseUrl, onRetry }), err: err.stream, retry: NO_RETRY });
  const result = evalResultOf(dataset, plan, report.finished, { base_url: baseUrl, refine: true, metric: "ctr", started_at: s.started_at, finished_at: new Date().toISOString() });
  return { plan, settings, state: s, statePath, report, result, stderr: err.text() };
}

/** Creative n's outcome for Cyclists (1 to 6), an order of their own. */
const CYCLISTS = [0, 3, 1, 2, 6, 4, 5];
/** Scores (1 to 5) that rise with the creative's number for Runners, fall with it for Hikers, and follow CYCLISTS for Cyclists (then rise). */
const scoreFor = (audience: string, n: number): number => (audience === "Runners" ? 1 + n / 4 : audience === "Hikers" ? 5 - n / 4 : 1 + (CYCLISTS[n] ?? n) / 4);
const byAudience = (audience: string, asset: Asset): Score => ({ score: scoreFor(audience, numberOf(asset)), raw: scoreFor(audience, numberOf(asset)) });
/** A group's points as [id, score], in file order. */
const pointsOf = (g: { points: Array<{ id: string; score: number }> }) => g.points.map((p) => [p.id, p.score]);
/** What an audience's own ranking gives its rows of these creatives. */
const ownScores = (campaign: string, audience: string, numbers: number[]) => numbers.map((n) => [`${campaign}-${audience.toLowerCase()}-c${n}`, scoreFor(audience, n)]);

describe("groups that differ only by audience, over the same creatives", () => {
  beforeEach(() => {
    nextLine = 2;
  });

  it("are ranked side by side in one request, each audience's figures from its own ranking, each row under its own id", async () => {
    // One row per (creative, audience), interleaved; every audience's outcomes agree with its own scores.
    const creatives = sixCreatives();
    const rows = creatives.flatMap((c) => [...rowsFor(group("Runners"), [c], (n) => n), ...rowsFor(group("Hikers"), [c], (n) => 7 - n), ...rowsFor(group("Cyclists"), [c], (n) => CYCLISTS[n]!)]);
    scoreOf = byAudience;
    const { result, stderr, statePath } = await run(outcomesDataset(rows));

    expect(sent.map((s) => s.path)).toEqual(["/api/v1/rank/audiences"]);
    const body = sent[0]!.body;
    expect(body.audiences).toEqual([{ name: "Runners" }, { name: "Hikers" }, { name: "Cyclists" }]);
    expect(body).toMatchObject({ goal: "purchase-intent", refine_close_pairs: true });
    expect(body.assets!.map((a) => a.url)).toEqual(creatives.map((c) => c.url));

    const groups = result.outcomes!.groups;
    expect(groups.map((g) => g.label)).toEqual(["spring / Runners / purchase-intent", "spring / Hikers / purchase-intent", "spring / Cyclists / purchase-intent"]);
    // Each audience's rows carry the scores of its own ranking: the three rankings differ for every creative.
    const numbers = [1, 2, 3, 4, 5, 6];
    expect(groups.map(pointsOf)).toEqual(["Runners", "Hikers", "Cyclists"].map((a) => ownScores("spring", a, numbers)));
    for (const g of groups) expect(g.request_ids).toEqual([uuidOf(1)]);
    expect(groups[1]!.points.find((p) => p.image.endsWith("/c2.png"))).toMatchObject({ id: "spring-hikers-c2", outcome: 5, score: 4.5, request_id: uuidOf(1) });
    // Every audience's scores follow its own outcomes: every pair within an audience is ordered right.
    expect(result.outcomes!.pooled.n).toBe(18);
    expect(result.outcomes!.pooled.pairwise_agreement!.value).toBe(1);

    // Billed per creative and audience; the run's credits are the request's, counted once.
    expect(billed).toBe(18);
    expect(result.credits_used).toBe(18);
    expect(result.requests).toBe(1);
    expect(stderr).toBe("request 1 of 1: ranking 6 creatives for 3 audiences side by side (18 evaluations) of spring / purchase-intent: Runners, Hikers, Cyclists (0 creatives scored so far)…\n");
    const state = JSON.parse(await readFile(statePath, "utf8")) as EvalState;
    expect(state.done).toEqual([expect.objectContaining({ index: 0, kind: "rank-audiences", request_id: uuidOf(1), credits_used: 18 })]);
  });

  it("ranks an audience whose creatives differ, or a campaign of its own, by plain rank requests", async () => {
    const six = sixCreatives();
    const rows = [
      ...rowsFor(group("Runners"), six, (n) => n),
      // One creative of six is another image: Cyclists go alone.
      ...rowsFor(group("Cyclists"), [...six.slice(0, 5), creative(7)], (n) => n),
      ...rowsFor(group("Hikers"), [...six].reverse(), (n) => 7 - n),
      // The same images, one with other copy: other creatives.
      ...rowsFor(group("Walkers"), [...six.slice(0, 5), creative(6, { adHeadline: "Run" })], (n) => n),
      // The same creatives in another campaign: another comparison.
      ...rowsFor(group("Runners", "fall"), six, (n) => n),
    ];
    scoreOf = byAudience;
    const { result, plan } = await run(outcomesDataset(rows));

    expect(sent.map((s) => [s.path, s.body.audiences?.map(audienceName) ?? (s.body.audience as { name: string }).name])).toEqual([
      ["/api/v1/rank/audiences", ["Runners", "Hikers"]],
      ["/api/v1/rank", "Cyclists"],
      ["/api/v1/rank", "Walkers"],
      ["/api/v1/rank", "Runners"],
    ]);
    expect(sent[3]!.body.assets!.map((a) => a.id)).toEqual(six.map((c) => `fall-runners-c${numberOf(c)}`));
    expect(sent[2]!.body.assets![5]).toEqual({ url: "https://cdn.example.com/c6.png", id: "spring-walkers-c6-Run", copy_context: { adHeadline: "Run" } });
    expect(plan.requests.map((r) => r.kind)).toEqual(["rank-audiences", "rank", "rank", "rank"]);
    // Hikers listed their creatives the other way round: matched by image, their own rows, their own scores.
    const hikers = result.outcomes!.groups.find((g) => g.label === "spring / Hikers / purchase-intent")!;
    expect(pointsOf(hikers)).toEqual(ownScores("spring", "Hikers", [6, 5, 4, 3, 2, 1]));
    expect(result.outcomes!.groups.map((g) => [g.label, g.points.length, g.request_ids])).toEqual([
      ["spring / Runners / purchase-intent", 6, [uuidOf(1)]],
      ["spring / Cyclists / purchase-intent", 6, [uuidOf(2)]],
      ["spring / Hikers / purchase-intent", 6, [uuidOf(1)]],
      ["spring / Walkers / purchase-intent", 6, [uuidOf(3)]],
      ["fall / Runners / purchase-intent", 6, [uuidOf(4)]],
    ]);
    expect(result.credits_used).toBe(30);
  });

  it("reports an audience's failed creatives under its own rows", async () => {
    const rows = [...rowsFor(group("Runners"), sixCreatives(), (n) => n), ...rowsFor(group("Hikers"), sixCreatives(), (n) => n)];
    scoreOf = (audience, asset) => (audience === "Hikers" && numberOf(asset) === 4 ? null : byAudience(audience, asset));
    const { result } = await run(outcomesDataset(rows));
    expect(result.outcomes!.failed).toEqual([{ id: "spring-hikers-c4", image: "https://cdn.example.com/c4.png", error: "The image could not be decoded." }]);
    expect(result.outcomes!.groups.map((g) => g.points.length)).toEqual([6, 5]);
    expect(result.credits_used).toBe(11);
  });

  it("resumes without sending a finished side-by-side request again, and replays the one in flight under its key", async () => {
    const fallCreatives = [7, 8, 9, 10].map((n) => creative(n));
    const rows = [
      ...rowsFor(group("Runners"), sixCreatives(), (n) => n),
      ...rowsFor(group("Hikers"), sixCreatives(), (n) => 7 - n),
      ...rowsFor(group("Cyclists"), sixCreatives(), (n) => CYCLISTS[n]!),
      ...rowsFor(group("Runners", "fall"), fallCreatives, (n) => n),
      ...rowsFor(group("Hikers", "fall"), fallCreatives, (n) => 11 - n),
    ];
    const dataset = outcomesDataset(rows);
    scoreOf = byAudience;
    // The second request reaches the server (which runs and bills it), but its answer is lost.
    fault = (s, n) =>
      n === 1
        ? (res) => {
            stored.set(s.key!, answerOf(s.path, s.body));
            res.destroy();
          }
        : null;
    await expect(run(dataset)).rejects.toThrow(/Could not reach/);
    const statePath = statePathOf(join(dir, "ads.eval.json"));
    const stopped = JSON.parse(await readFile(statePath, "utf8")) as EvalState;
    expect(stopped.done.map((d) => [d.index, d.kind])).toEqual([[0, "rank-audiences"]]);
    expect(billed).toBe(18 + 8);
    const inFlightKey = sent[1]!.key;

    fault = undefined;
    sent = [];
    const settings = { ...SETTINGS, base_url: baseUrl };
    const { state, note } = await readState(statePath, dataset.sha256, settings, planOf(dataset));
    expect(note).toBeNull();
    const resumed = await run(dataset, state);
    // The finished request is not sent again; the one in flight is, under its key, and is answered from the store.
    expect(sent.map((s) => [s.path, s.key, s.replayed])).toEqual([["/api/v1/rank/audiences", inFlightKey, true]]);
    expect(inFlightKey).toBe(requestKeyOf(dataset.sha256, settings, stopped.run_id, 1));
    expect(resumed.report.resumed).toBe(1);
    expect(billed).toBe(26);
    expect(resumed.result.credits_used).toBe(26);
    expect(resumed.result.outcomes!.groups.map(pointsOf)).toEqual([
      ...["Runners", "Hikers", "Cyclists"].map((a) => ownScores("spring", a, [1, 2, 3, 4, 5, 6])),
      ...["Runners", "Hikers"].map((a) => ownScores("fall", a, [7, 8, 9, 10])),
    ]);
    expect(resumed.result.outcomes!.groups.map((g) => g.request_ids)).toEqual([[uuidOf(1)], [uuidOf(1)], [uuidOf(1)], [uuidOf(2)], [uuidOf(2)]]);
  });
});

describe("planning side by side", () => {
  beforeEach(() => {
    nextLine = 2;
  });
  const sideBySide = (r: PlannedRequest) => r as Extract<PlannedRequest, { kind: "rank-audiences" }>;
  const many = (n: number) => Array.from({ length: n }, (_, i) => creative(i + 1));

  it("deals more than 20 creatives into rankings that hold the same creatives for every audience", () => {
    const creatives = many(25);
    // Hikers list them in another order: the rankings still pair each creative with itself.
    const rows = [...rowsFor(group("Runners"), creatives, (n) => n), ...rowsFor(group("Hikers"), [...creatives].reverse(), (n) => n)];
    const plan = planOf(outcomesDataset(rows));
    expect(plan.requests.map((r) => r.kind)).toEqual(["rank-audiences", "rank-audiences"]);
    const requests = plan.requests.map(sideBySide);
    expect(requests.map((r) => r.audiences.map((a) => [a.group, a.rows.length]))).toEqual([
      [
        [0, 13],
        [1, 13],
      ],
      [
        [0, 12],
        [1, 12],
      ],
    ]);
    for (const r of requests) expect(r.audiences[1]!.rows.map((row) => row.image)).toEqual(r.audiences[0]!.rows.map((row) => row.image));
    // Dealt in the first audience's file order, as a lone group's rows are.
    expect(requests[0]!.audiences[0]!.rows.slice(0, 3).map((row) => numberOf({ url: row.image }))).toEqual([1, 3, 5]);
    expect(new Set(requests.flatMap((r) => r.audiences[1]!.rows.map((row) => row.id))).size).toBe(25);
  });

  it("puts at most five audiences in a request, dealt evenly, and keeps names the API would take for one apart", () => {
    const six = sixCreatives();
    const seven = ["A", "B", "C", "D", "E", "F", "G"].flatMap((name) => rowsFor(group(name), six, (n) => n));
    expect(planOf(outcomesDataset(seven)).requests.map((r) => sideBySide(r).audiences.map((a) => a.group))).toEqual([
      [0, 2, 4, 6],
      [1, 3, 5],
    ]);

    nextLine = 2;
    // "runners" is "Runners" to the API (names are unique without regard to case), so it is ranked alone.
    const clash = [...rowsFor(group("Runners"), six, (n) => n), ...rowsFor(group("runners"), six, (n) => n), ...rowsFor(group("Hikers"), six, (n) => n)];
    expect(planOf(outcomesDataset(clash)).requests.map((r) => (r.kind === "rank-audiences" ? r.audiences.map((a) => a.group) : [r.kind, r.group]))).toEqual([
      [0, 2],
      ["rank", 1],
    ]);
  });

  it("ranks each audience alone when asked to (--record-outcomes), and does not resume a run planned the other way", async () => {
    const rows = [...rowsFor(group("Runners"), sixCreatives(), (n) => n), ...rowsFor(group("Hikers"), sixCreatives(), (n) => n)];
    const dataset = outcomesDataset(rows);
    const alone = planOf(dataset, { sideBySide: false });
    expect(alone.requests.map((r) => r.kind)).toEqual(["rank", "rank"]);

    const statePath = join(dir, "ads.eval.json.state.json");
    await writeState(statePath, newState(dataset.sha256, SETTINGS, alone));
    const other = await readState(statePath, dataset.sha256, SETTINGS, planOf(dataset));
    expect(other.state).toBeNull();
    expect(other.note).toMatch(/it planned 2 requests, this run 1 \(--record-outcomes ranks each audience alone; without it, audiences of the same creatives go side by side\)/);
    expect((await readState(statePath, dataset.sha256, SETTINGS, alone)).state).not.toBeNull();
  });

  it("resumes a file written before side-by-side requests only where the plan has none", async () => {
    const rows = [...rowsFor(group("Runners"), sixCreatives(), (n) => n), ...rowsFor(group("Hikers"), sixCreatives(), (n) => n)];
    const dataset = outcomesDataset(rows);
    const statePath = join(dir, "ads.eval.json.state.json");
    const { plan_sha256: _, ...older } = newState(dataset.sha256, SETTINGS, planOf(dataset, { sideBySide: false }));
    await writeFile(statePath, JSON.stringify(older));
    expect((await readState(statePath, dataset.sha256, SETTINGS, planOf(dataset, { sideBySide: false }))).state).toMatchObject({ run_id: older.run_id });
    // Two requests either way, but request 0 is now another request: its answer cannot stand for it.
    const sideBySidePlan = planOf(outcomesDataset([...rows, ...rowsFor(group("Cyclists", "fall"), [creative(9)], (n) => n)]));
    expect(sideBySidePlan.requests).toHaveLength(2);
    expect((await readState(statePath, dataset.sha256, SETTINGS, sideBySidePlan)).state).toBeNull();
  });
});

describe("adrank eval with several audiences", { timeout: 60_000 }, () => {
  const TEN = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
  const adrank = (args: string[]) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [CLI, "eval", ...args], { cwd: dir, env: { PATH: process.env.PATH ?? "", ADRANK_API_KEY: KEY, ADRANK_BASE_URL: baseUrl }, timeout: 30_000 }, (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });

  /** Three audiences over ten creatives (enough for figures): a local image under two headlines (two creatives), and eight URLs. */
  async function threeAudiencesCsv(): Promise<void> {
    await copyFile(AD, join(dir, "local.png"));
    const creatives = [
      ["local.png", "Run"],
      ["local.png", "Walk"],
      ...[3, 4, 5, 6, 7, 8, 9, 10].map((n) => [`https://cdn.example.com/c${n}.png`, "Go"]),
    ];
    const lines = ["Runners", "Hikers", "Cyclists"].flatMap((audience) => creatives.map(([image, headline], i) => `${image},${audience.toLowerCase()}-${i + 1},${audience === "Hikers" ? 10 - i : i},${audience},${headline}`));
    await writeFile(join(dir, "ads.csv"), `image,id,outcome,audience,headline\n${lines.join("\n")}\n`);
  }

  it("reads the file and sends its audiences side by side in one request", async () => {
    await threeAudiencesCsv();
    scoreOf = (audience, asset) => {
      const i = asset.url.startsWith("data:") ? (asset.copy_context!.adHeadline === "Run" ? 0 : 1) : numberOf(asset) - 1;
      const score = audience === "Hikers" ? 5 - i / 4 : 1 + i / 4;
      return { score, raw: score };
    };
    const run = await adrank(["ads.csv"]);
    expect(run.code, run.stderr).toBe(0);

    expect(sent.map((s) => s.path)).toEqual(["/api/v1/rank/audiences"]);
    const assets = sent[0]!.body.assets!;
    expect(assets.map((a) => a.id)).toEqual(TEN.map((i) => `runners-${i}`));
    expect(assets[0]!.url).toMatch(/^data:image\/png;base64,/);
    expect(assets.slice(0, 2).map((a) => a.copy_context)).toEqual([{ adHeadline: "Run" }, { adHeadline: "Walk" }]);

    const result = JSON.parse(await readFile(join(dir, "ads.eval.json"), "utf8"));
    expect(result.outcomes.groups.map((g: { audience: string; points: Array<{ id: string }> }) => [g.audience, g.points.map((p) => p.id)])).toEqual(
      ["Runners", "Hikers", "Cyclists"].map((a) => [a, TEN.map((i) => `${a.toLowerCase()}-${i}`)]),
    );
    // Hikers' scores fall where Runners' rise, and so do their outcomes: both agree with their own.
    expect(run.stdout).toMatch(/^Runners \/ purchase-intent\s+10\s+1\.00 \[/m);
    expect(run.stdout).toMatch(/^Hikers \/ purchase-intent\s+10\s+1\.00 \[/m);
    expect(run.stdout).toContain("30 credits used over 1 request\n");
  });

  it("ranks each audience alone with --record-outcomes, whose outcomes POST /api/v1/outcomes takes against rank requests only", async () => {
    await threeAudiencesCsv();
    const run = await adrank(["ads.csv", "--record-outcomes", "--metric", "ctr"]);
    expect(run.code, run.stderr).toBe(0);
    expect(sent.map((s) => s.path)).toEqual(["/api/v1/rank", "/api/v1/outcomes", "/api/v1/rank", "/api/v1/outcomes", "/api/v1/rank", "/api/v1/outcomes"]);
    expect(sent[2]!.body.assets!.map((a) => a.id)).toEqual(TEN.map((i) => `hikers-${i}`));
    expect(run.stdout).toContain("30 outcomes recorded under metric \"ctr\"");
  });
});
