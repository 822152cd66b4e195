import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { CALIBRATION_HELP, calibrationCommand } from "../src/commands/calibration.ts";
import { OUTCOMES_HELP, outcomesCommand } from "../src/commands/outcomes.ts";
import { errorLine } from "../src/error-line.ts";

// `adrank outcomes` and `adrank calibration` against a local server speaking the API's wire
// format: each test scripts the answers and reads back what was sent. The commands run in
// process as main.ts runs them (stdout, stderr, the error line and exit code); the real binary
// runs once per command, for its wiring.

const CLI = join(import.meta.dirname, "../src/main.ts");
const KEY = "agk_test_outcomes";
const RANKING = "5d0f6c2e-8a4b-4f1e-b3c7-92e1a6d40b58";
const OTHER = "c81a3e07-2f6d-4b9a-a5e4-7d30f1b96c22";

type Body = { outcomes: Array<Record<string, unknown>> };
type Handler = (req: IncomingMessage, res: ServerResponse, body: Body | null) => void;
interface Seen {
  method: string;
  url: string;
  body: Body | null;
}

let server: Server;
let baseUrl: string;
let script: Handler[] = [];
let seen: Seen[] = [];
let dir: string;

const json =
  (status: number, body: unknown): Handler =>
  (_req, res) => {
    res.writeHead(status, { "content-type": "application/json", "x-request-id": "9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d" }).end(JSON.stringify(body));
  };

/** recordOutcomes' answer to the batch it was sent, each outcome with `change` and a sim flag. */
const recorded =
  (change: (i: number) => "created" | "updated" | "unchanged" = () => "created", simulated = false): Handler =>
  (req, res, body) => {
    const outcomes = body!.outcomes.map((o, i) => ({ ...o, impressions: o.impressions ?? null, goal: "click-through-rate", score: 3.1 + i / 100, score_before_refine: 3.1, simulated, change: change(i), recorded_at: "2026-11-27T10:00:00.000Z" }));
    const count = (c: string) => outcomes.filter((o) => o.change === c).length;
    json(200, { created: count("created"), updated: count("updated"), unchanged: count("unchanged"), outcomes })(req, res, body);
  };

const COMMANDS = { outcomes: outcomesCommand, calibration: calibrationCommand };

/** A stream standing in for stdout or stderr; it keeps what was written. */
const sink = () => {
  const chunks: string[] = [];
  const stream = { isTTY: false, write: (s: string) => chunks.push(s) > 0 } as unknown as NodeJS.WriteStream;
  return { stream, text: () => chunks.join("") };
};

/** `adrank <command> …` in process, as main.ts runs it: what it printed and its exit code. */
async function adrank([name, ...args]: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const out = sink();
  const err = sink();
  const env = { ADRANK_API_KEY: KEY, ADRANK_BASE_URL: baseUrl, NO_COLOR: "1" };
  try {
    await COMMANDS[name as keyof typeof COMMANDS](args, env, out.stream, err.stream);
    return { code: 0, stdout: out.text(), stderr: err.text() };
  } catch (e) {
    const { line, code } = errorLine(e, baseUrl);
    return { code, stdout: out.text(), stderr: `${err.text()}${line}\n` };
  }
}

/** The real binary. */
const adrankBinary = (args: string[]) =>
  new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(process.execPath, [CLI, ...args], { cwd: dir, env: { PATH: process.env.PATH ?? "", ADRANK_API_KEY: KEY, ADRANK_BASE_URL: baseUrl, NO_COLOR: "1" }, timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });

/** Writes a file into the test's folder; its path, as the commands' messages name it. */
const file = async (name: string, text: string) => {
  await writeFile(join(dir, name), text);
  return join(dir, name);
};

beforeAll(async () => {
  server = createServer((req, res) => {
    let text = "";
    req.on("data", (c) => (text += c));
    req.on("end", () => {
      const body = text ? (JSON.parse(text) as Body) : null;
      seen.push({ method: req.method!, url: req.url!, body });
      const next = script.shift();
      if (!next) return json(500, { error: "no scripted answer" })(req, res, body);
      next(req, res, body);
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  dir = await mkdtemp(join(tmpdir(), "adrank-cli-outcomes-"));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await rm(dir, { recursive: true, force: true });
});

beforeEach(() => {
  script = [];
  seen = [];
});

describe("adrank outcomes", () => {
  it("records a CSV's rows with --metric, as numbers, and prints what changed", async () => {
    const csv = await file("ctr.csv", `request_id,asset_id,value,impressions,campaign\n${RANKING},sunrise-run.png,0.0184,48210,spring\n${RANKING},studio-shoe.png, 0.0121 ,,spring\n`);
    script = [recorded()];
    const run = await adrank(["outcomes", csv, "--metric", "ctr"]);
    expect(run, run.stderr).toMatchObject({ code: 0, stdout: "2 created, 0 updated, 0 unchanged\n" });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(["POST /api/v1/outcomes"]);
    // A column it does not read (campaign) is left out; an empty impressions cell is absent.
    expect(seen[0]!.body).toEqual({
      outcomes: [
        { request_id: RANKING, asset_id: "sunrise-run.png", metric: "ctr", value: 0.0184, impressions: 48210 },
        { request_id: RANKING, asset_id: "studio-shoe.png", metric: "ctr", value: 0.0121 },
      ],
    });
  });

  it("reads JSON Lines with a metric per row and an outcome column, and counts updates and repeats", async () => {
    const jsonl = await file(
      "mixed.jsonl",
      [
        { request_id: RANKING, asset_id: "a.png", metric: "ctr", outcome: 0.02 },
        { request_id: RANKING, asset_id: "a.png", metric: "conversion_rate", outcome: 0.004, impressions: 1000 },
        { request_id: OTHER, asset_id: "mountain-banner", metric: "ctr", outcome: 0.011 },
      ]
        .map((o) => JSON.stringify(o))
        .join("\n"),
    );
    script = [recorded((i) => (["updated", "unchanged", "created"] as const)[i]!)];
    const run = await adrank(["outcomes", jsonl]);
    expect(run.stdout, run.stderr).toBe("1 created, 1 updated, 1 unchanged\n");
    expect(seen[0]!.body!.outcomes.map((o) => [o.metric, o.value])).toEqual([["ctr", 0.02], ["conversion_rate", 0.004], ["ctr", 0.011]]);
  });

  it("sends a large file in batches of 500 and adds up their answers; --json prints them as one answer", async () => {
    const rows = Array.from({ length: 1201 }, (_, i) => `${RANKING},ad-${i}.png,${(i / 10000).toFixed(4)}`);
    const big = await file("big.csv", `request_id,asset_id,value\n${rows.join("\n")}\n`);
    script = [recorded(), recorded(() => "unchanged"), recorded()];
    const run = await adrank(["outcomes", big, "--metric", "ctr"]);
    expect(run.stdout, run.stderr).toBe("701 created, 0 updated, 500 unchanged\n");
    expect(seen.map((s) => s.body!.outcomes.length)).toEqual([500, 500, 201]);
    expect(seen[2]!.body!.outcomes[200]).toMatchObject({ asset_id: "ad-1200.png", value: 0.12 });
    expect(run.stderr).toContain("recorded 1000 of 1201 outcomes");

    script = [recorded(), recorded(), recorded()];
    const asJson = JSON.parse((await adrank(["outcomes", big, "--metric", "ctr", "--json"])).stdout) as { created: number; outcomes: Array<{ asset_id: string }> };
    expect(asJson.created).toBe(1201);
    expect(asJson.outcomes.map((o) => o.asset_id)).toEqual(Array.from({ length: 1201 }, (_, i) => `ad-${i}.png`));
  });

  it("warns when the outcomes belong to rankings the sim model scored", async () => {
    const csv = await file("sim.csv", `request_id,asset_id,metric,value\n${RANKING},a.png,ctr,0.5\n`);
    script = [recorded(() => "created", true)];
    const run = await adrank(["outcomes", csv]);
    expect(run.stdout.split("\n")).toEqual(["1 created, 0 updated, 0 unchanged", "SIMULATED: 1 of 1 outcome belong to rankings scored by the offline sim model; calibration over them measures the harness, not a model.", ""]);
  });

  it.each([
    ["a value that is no number", `request_id,asset_id,value\n${RANKING},a.png,0.02\n${RANKING},b.png,1.8%\n`, ["--metric", "ctr"], 'adrank: bad.csv:3: value "1.8%" is not a number'],
    ["an empty value", `request_id,asset_id,value\n${RANKING},a.png,\n`, ["--metric", "ctr"], "adrank: bad.csv:2: value is empty"],
    ["a request id that is no uuid", `request_id,asset_id,value\n5d0f6c2e,a.png,0.02\n`, ["--metric", "ctr"], "adrank: bad.csv:2: request_id is not a valid uuid."],
    ["impressions that are no whole number", `request_id,asset_id,value,impressions\n${RANKING},a.png,0.02,12.5\n`, ["--metric", "ctr"], "adrank: bad.csv:2: impressions must be an integer."],
    ["no metric anywhere", `request_id,asset_id,value\n${RANKING},a.png,0.02\n`, [], "adrank: bad.csv:2: no metric: add a metric column or pass --metric (e.g. --metric ctr)"],
    ["a metric cell that is no metric name", `request_id,asset_id,metric,value\n${RANKING},a.png,CTR,0.02\n`, [], 'adrank: bad.csv:2: metric "CTR" is not a metric name: use 1 to 40 lowercase letters, digits or underscores, starting with a letter (e.g. ctr, conversion_rate)'],
    ["the same outcome twice", `request_id,asset_id,value\n${RANKING},a.png,0.02\n${RANKING},b.png,0.03\n${RANKING},a.png,0.04\n`, ["--metric", "ctr"], "adrank: bad.csv:4: repeats line 2 (the same request_id, asset_id and metric); keep one of them"],
    ["both value and outcome", `request_id,asset_id,value,outcome\n${RANKING},a.png,0.02,0.03\n`, ["--metric", "ctr"], "adrank: bad.csv:2: give value or outcome, not both"],
    ["a misspelt column", `request_id,asset_id,value,impresions\n${RANKING},a.png,0.02,100\n`, ["--metric", "ctr"], 'adrank: bad.csv has a column "impresions"; did you mean "impressions"?'],
    ["no asset_id column", `request_id,asset,value\n${RANKING},a.png,0.02\n`, ["--metric", "ctr"], 'adrank: bad.csv has no asset_id column; is "asset" meant to be asset_id?'],
    ["a --metric that is no metric name", `request_id,asset_id,value\n${RANKING},a.png,0.02\n`, ["--metric", "click rate"], 'adrank: --metric "click rate" is not a metric name: use 1 to 40 lowercase letters, digits or underscores, starting with a letter (e.g. ctr, conversion_rate)'],
  ])("refuses %s before sending anything, naming the file and line", async (_what, text, flags, line) => {
    const bad = await file("bad.csv", text);
    const run = await adrank(["outcomes", bad, ...flags]);
    expect(run).toEqual({ code: 2, stdout: "", stderr: `${line.replace("bad.csv", bad)}\n` });
    expect(seen).toEqual([]);
  });

  it("names the file's line of an outcome the API refuses, and which rows earlier batches recorded", async () => {
    const rows = Array.from({ length: 503 }, (_, i) => `${RANKING},ad-${i}.png,0.01`);
    const big = await file("refused.csv", `request_id,asset_id,value\n${rows.join("\n")}\n`);
    script = [recorded(), json(422, { error: 'Asset "ad-502.png" was not ranked in request 5d0f6c2e-8a4b-4f1e-b3c7-92e1a6d40b58.', field: "outcomes[2].asset_id" })];
    const run = await adrank(["outcomes", big, "--metric", "ctr"]);
    expect(run.code).toBe(1);
    expect(run.stderr.trimEnd().split("\n").at(-1)).toBe(
      `adrank: ${big}:504: 422 Unprocessable Entity: Asset "ad-502.png" was not ranked in request 5d0f6c2e-8a4b-4f1e-b3c7-92e1a6d40b58. [outcomes[2].asset_id] (request id 9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d) 500 rows before line 502 were recorded; the command can be run again once this is fixed, as recording a row twice changes nothing.`,
    );

    const small = await file("unknown.csv", `request_id,asset_id,value\n${RANKING},a.png,0.01\n${OTHER},b.png,0.02\n`);
    script = [json(404, { error: `No request with id "${OTHER}" exists for this account. Results are kept for 30 days.`, field: "outcomes[1].request_id" })];
    const missing = await adrank(["outcomes", small, "--metric", "ctr"]);
    expect(missing).toMatchObject({ code: 1, stdout: "" });
    expect(missing.stderr).toBe(`adrank: ${small}:3: 404 Not Found: No request with id "${OTHER}" exists for this account. Results are kept for 30 days. [outcomes[1].request_id] (request id 9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d)\n`);
  });

  it("asks for a file, and checks the key before reading it", async () => {
    expect(await adrank(["outcomes"])).toMatchObject({ code: 2, stderr: "adrank: give the CSV or JSON Lines file of outcomes (see adrank --help)\n" });
    const nowhere = join(dir, "nowhere.csv");
    expect(await adrank(["outcomes", nowhere, "--metric", "ctr"])).toMatchObject({ code: 2, stderr: `adrank: no such file: ${nowhere} (see adrank --help)\n` });
    expect(seen).toEqual([]);
  });
});

const group = (goal: string | null, n: number, requests: number, figures: boolean, simulated = 0) => ({
  goal,
  n_outcomes: n,
  n_requests: requests,
  n_pairs: n * 3,
  n_simulated: simulated,
  impressions: null,
  enough_data: figures,
  spearman_rho: figures ? { value: 0.41, ci_low: 0.22, ci_high: 0.574 } : null,
  kendall_tau_b: figures ? { value: 0.29, ci_low: 0.15, ci_high: 0.41 } : null,
  pairwise_agreement: figures ? { value: 0.64, ci_low: 0.57, ci_high: 0.71 } : null,
  pairwise_agreement_raw: figures ? { value: 0.615, ci_low: 0.55, ci_high: 0.69 } : null,
});

describe("adrank calibration", () => {
  it("prints a table per metric: a row per goal, all goals, not enough data where it is so", async () => {
    script = [
      json(200, {
        min_outcomes: 10,
        resamples: 1000,
        metrics: [
          { metric: "conversion_rate", pooled: group(null, 4, 1, false), goals: [group("purchase-intent", 4, 1, false)] },
          { metric: "ctr", pooled: group(null, 53, 7, true), goals: [group("click-through-rate", 46, 6, true), group("scroll-stopping", 7, 1, false)] },
        ],
      }),
    ];
    const run = await adrank(["calibration"]);
    expect(run.code, run.stderr).toBe(0);
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(["GET /api/v1/calibration"]);
    expect(run.stdout).toBe(
      [
        "conversion_rate: 4 outcomes of 1 ranking",
        "goal             n  requests  rho [95 % CI]  tau-b  agreement final / raw",
        "---------------  -  --------  -------------  -----  ---------------------",
        "purchase-intent  4  1         not enough data (4 of 10)",
        "",
        "ctr: 53 outcomes of 7 rankings",
        "goal                n   requests  rho [95 % CI]      tau-b  agreement final / raw",
        "------------------  --  --------  -----------------  -----  ---------------------",
        "click-through-rate  46  6         0.41 [0.22, 0.57]  0.29   0.64 / 0.61",
        "scroll-stopping     7   1         not enough data (7 of 10)",
        "all goals           53  7         0.41 [0.22, 0.57]  0.29   0.64 / 0.61",
        "",
        "rho: 95 % interval from 1000 bootstrap resamples within each ranking. Agreement 0.50 is chance. Figures need 10 outcomes.",
        "",
      ].join("\n"),
    );
  });

  it("says when the outcomes are sim-scored, and when there is nothing to show", async () => {
    script = [json(200, { min_outcomes: 10, resamples: 1000, metrics: [{ metric: "ctr", pooled: group(null, 36, 3, true, 36), goals: [group("purchase-intent", 36, 3, true, 36)] }] })];
    const sim = await adrank(["calibration", "--metric", "ctr", "--goal", "purchase-intent"]);
    expect(seen[0]!.url).toBe("/api/v1/calibration?metric=ctr&goal=purchase-intent");
    expect(sim.stdout).toContain("SIMULATED: 36 of these 36 outcomes belong to rankings scored by the offline sim model: their figures measure the harness, not a model.\n");

    script = [json(200, { min_outcomes: 10, resamples: 1000, metrics: [] }), json(200, { min_outcomes: 10, resamples: 1000, metrics: [] })];
    expect((await adrank(["calibration"])).stdout).toBe("no outcomes recorded yet: adrank outcomes <file> records them\n");
    expect((await adrank(["calibration", "--goal", "open-rate"])).stdout).toBe("no outcomes recorded for goal open-rate: adrank outcomes <file> records them\n");
  });

  it("prints the reliability table of P>next under a metric's figures, and says when no pair counts yet", async () => {
    const bin = (low: number, n: number, mean: number | null, observed: number | null, ci: [number, number] | null) => ({ p_low: low, p_high: Math.round((low + 0.1) * 10) / 10, n_pairs: n, mean_p: mean, observed, ci_low: ci?.[0] ?? null, ci_high: ci?.[1] ?? null });
    const reliability = [bin(0.5, 8, 0.553, 0.5, [0.2152, 0.7848]), bin(0.6, 6, 0.648, 0.667, [0.3, 0.903]), bin(0.7, 0, null, null, null), bin(0.8, 5, 0.846, 0.8, [0.376, 0.964]), bin(0.9, 4, 0.957, 1, [0.51, 1])];
    const ctr = { metric: "ctr", pooled: { ...group(null, 46, 6, true), reliability }, goals: [{ ...group("click-through-rate", 30, 4, true), reliability }, { ...group("scroll-stopping", 16, 2, true), reliability }] };
    script = [json(200, { min_outcomes: 10, resamples: 1000, metrics: [ctr] })];
    const lines = (await adrank(["calibration"])).stdout.split("\n");
    const from = lines.indexOf("all goals           46  6         0.41 [0.22, 0.57]  0.29   0.64 / 0.61");
    expect(lines.slice(from + 1, from + 11)).toEqual([
      "",
      "reliability of P>next, all goals: 23 neighbouring pairs",
      "P>next    pairs  mean p  observed  95 % interval",
      "--------  -----  ------  --------  -------------",
      "50–60 %   8      55 %    50 %      22–78 %",
      "60–70 %   6      65 %    67 %      30–90 %",
      "70–80 %   0      –       –         –",
      "80–90 %   5      85 %    80 %      38–96 %",
      "90–100 %  4      96 %    100 %     51–100 %",
      "",
    ]);

    // Rankings answered before P>next existed count for nothing: one line, not a table of dashes.
    const none = reliability.map((b) => ({ ...b, n_pairs: 0, mean_p: null, observed: null, ci_low: null, ci_high: null }));
    script = [json(200, { min_outcomes: 10, resamples: 1000, metrics: [{ metric: "ctr", pooled: { ...group(null, 46, 6, true), reliability: none }, goals: [{ ...group("click-through-rate", 46, 6, true), reliability: none }] }] })];
    expect((await adrank(["calibration"])).stdout).toContain("\n\nreliability of P>next, click-through-rate: no pairs yet (only outcomes of rankings answered with P>next count)\n");
  });

  it("prints no reliability table for a server older than it", async () => {
    script = [json(200, { min_outcomes: 10, resamples: 1000, metrics: [{ metric: "ctr", pooled: group(null, 46, 6, true), goals: [group("click-through-rate", 46, 6, true)] }] })];
    const run = await adrank(["calibration"]);
    expect(run.stdout).not.toContain("reliability");
    expect(run.stdout.split("\n").slice(0, 5)).toEqual([
      "ctr: 46 outcomes of 6 rankings",
      "goal                n   requests  rho [95 % CI]      tau-b  agreement final / raw",
      "------------------  --  --------  -----------------  -----  ---------------------",
      "click-through-rate  46  6         0.41 [0.22, 0.57]  0.29   0.64 / 0.61",
      "",
    ]);
  });

  it("prints the API's answer with --json", async () => {
    const answer = { min_outcomes: 10, resamples: 1000, metrics: [{ metric: "ctr", pooled: group(null, 2, 1, false), goals: [group("click-through-rate", 2, 1, false)] }] };
    script = [json(200, answer)];
    expect(JSON.parse((await adrank(["calibration", "--json"])).stdout)).toEqual(answer);
  });

  it("refuses an unknown goal or a bad metric name before asking", async () => {
    expect(await adrank(["calibration", "--goal", "click-through"])).toMatchObject({ code: 2, stderr: 'adrank: unknown goal "click-through"; did you mean "click-through-rate"?\n' });
    expect(await adrank(["calibration", "--metric", "CTR"])).toMatchObject({ code: 2 });
    expect(await adrank(["calibration", "ctr"])).toMatchObject({ code: 2, stderr: 'adrank: unexpected argument "ctr" (see adrank --help)\n' });
    expect(seen).toEqual([]);
  });
});

describe("the adrank binary", () => {
  it("runs outcomes and calibration, and lists them in its help", async () => {
    const csv = await file("wired.csv", `request_id,asset_id,value\n${RANKING},a.png,0.02\n`);
    script = [recorded(), json(200, { min_outcomes: 10, resamples: 1000, metrics: [] })];
    expect(await adrankBinary(["outcomes", csv, "--metric", "ctr"])).toEqual({ code: 0, stdout: "1 created, 0 updated, 0 unchanged\n", stderr: "" });
    expect(await adrankBinary(["calibration", "--metric", "ctr"])).toEqual({ code: 0, stdout: "no outcomes recorded for metric ctr: adrank outcomes <file> records them\n", stderr: "" });
    expect(seen.map((s) => `${s.method} ${s.url}`)).toEqual(["POST /api/v1/outcomes", "GET /api/v1/calibration?metric=ctr"]);
    const help = await adrankBinary(["--help"]);
    expect(help.stdout).toContain(OUTCOMES_HELP);
    expect(help.stdout).toContain(CALIBRATION_HELP);
    expect((await adrankBinary(["outcomes", "--help"])).stdout).toBe(`${OUTCOMES_HELP}\n`);
  }, 60_000);
});
