import { describe, expect, it } from "vitest";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import {
  CALIBRATION_MIN_OUTCOMES,
  CALIBRATION_RESAMPLES,
  CalibrationQuery,
  CalibrationResponse,
  ErrorResponse,
  GOALS,
  MetricName,
  parseWith,
  RankResponse,
  RecordOutcomesRequest,
  RecordOutcomesResponse,
} from "@adrank/contracts";
import { buildOpenApiDocument } from "../src/index.ts";

// What the document says about outcomes and calibration (issue 19): the Evaluation tag and
// its rules, getCalibration's query parameters, examples whose figures hang together, and
// samples that record outcomes for the reader's own ranking.

type Example = { summary: string; description?: string; value: unknown };
type Media = { schema: unknown; examples: Record<string, Example> };
type Parameter = { name: string; in: string; required: boolean; description: string; schema: Record<string, unknown>; example?: unknown };
type Operation = {
  operationId: string;
  tags: string[];
  description: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { description: string; content?: Record<string, Media> }>;
  "x-codeSamples": Array<{ label: string; source: string }>;
};
type Doc = { tags: Array<{ name: string; description: string }>; info: { description: string }; paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } };

const doc = buildOpenApiDocument() as unknown as Doc;
const recordOutcomes = doc.paths["/api/v1/outcomes"]!.post!;
const getCalibration = doc.paths["/api/v1/calibration"]!.get!;
const examples = (op: Operation, status: string) => Object.entries(op.responses[status]!.content!["application/json"]!.examples).map(([key, e]) => ({ key, ...e }));
const sample = (op: Operation, label: string) => op["x-codeSamples"].find((s) => s.label === label)!.source;
const requestExamples = Object.values(recordOutcomes.requestBody!.content["application/json"]!.examples).map((e) => RecordOutcomesRequest.parse(e.value));

describe("the Evaluation tag", () => {
  const tag = doc.tags.find((t) => t.name === "Evaluation");

  it("holds both operations", () => {
    expect(recordOutcomes.tags).toEqual(["Evaluation"]);
    expect(getCalibration.tags).toEqual(["Evaluation"]);
  });

  it("explains outcomes, their semantics, the statistics, the sim caveat and the price", () => {
    const text = tag!.description;
    for (const fact of [
      "request_id", "asset_id", "metric", "higher must mean better", "impressions",
      "`404`", "`422`", "upsert", "`unchanged`", "atomic", "none is recorded", "30-day retention",
      "Spearman", "midranks", "Kendall's tau-b", "ties", "Pairwise agreement", "*from the same ranking*", "counts half", "0.5 is chance", "before close-pair refinement",
      "95 % bootstrap", `${CALIBRATION_RESAMPLES.toLocaleString("en")} resamples`, "within each ranking", `Below ${CALIBRATION_MIN_OUTCOMES} outcomes`, "`enough_data` is false",
      "`n_simulated`", "measure the harness, not a model", "real providers", "cost no credits",
    ]) {
      expect(text, fact).toContain(fact);
    }
  });

  it("is introduced in the guide's Measuring fidelity section", () => {
    const guide = doc.info.description;
    const start = guide.indexOf("## Measuring fidelity\n");
    expect(start).toBeGreaterThan(0);
    const section = guide.slice(start, guide.indexOf("\n## ", start + 1));
    for (const fact of ["POST /api/v1/outcomes", "GET /api/v1/calibration", "0.5 is chance", "interval", `Below ${CALIBRATION_MIN_OUTCOMES} outcomes`, "`n_simulated`", "real providers", "adrank outcomes", "adrank calibration"]) {
      expect(section, fact).toContain(fact);
    }
  });
});

describe("getCalibration's query parameters", () => {
  const parameters = getCalibration.parameters!;
  const ajv = new Ajv2020({ strict: false });
  addFormats.default(ajv);

  it("are CalibrationQuery's fields, optional, described, in the query", () => {
    expect(parameters.map((p) => p.name)).toEqual(Object.keys(CalibrationQuery.shape));
    for (const p of parameters) expect(p, p.name).toMatchObject({ in: "query", required: false, description: expect.stringMatching(/\.$/) });
    expect(parameters.find((p) => p.name === "goal")!.schema.enum).toEqual([...GOALS]);
  });

  it("document a metric name exactly as the API checks it", () => {
    const documented = ajv.compile(parameters.find((p) => p.name === "metric")!.schema);
    for (const name of ["ctr", "conversion_rate", "m", "a".repeat(40), "CTR", "ctr ", "1ctr", "_ctr", "conversion-rate", "", "a".repeat(41)]) {
      expect(documented(name), JSON.stringify(name)).toBe(MetricName.safeParse(name).success);
    }
    // The example is one the docs page's Test request may send.
    expect(MetricName.safeParse(parameters.find((p) => p.name === "metric")!.example).success).toBe(true);
  });

  it("answer 422 on a bad or unknown parameter, naming it, in the service's words", () => {
    const refusals = examples(getCalibration, "422");
    expect(refusals.map((e) => (e.value as { field: string }).field).sort()).toEqual(["goal", "metrics"]);
    const direct = parseWith(CalibrationQuery, { goal: "clicks" });
    expect(!direct.ok && direct.error.body).toEqual(refusals.find((e) => e.key === "unknownGoal")!.value);
  });
});

describe("the calibration examples", () => {
  const bodies = examples(getCalibration, "200").map((e) => ({ key: e.key, body: CalibrationResponse.parse(e.value) }));
  const groups = bodies.flatMap(({ key, body }) => body.metrics.flatMap((m) => [m.pooled, ...m.goals].map((g) => ({ key: `${key} ${m.metric} ${g.goal ?? "pooled"}`, g }))));

  it("state the minimum and the resamples the service uses", () => {
    for (const { body } of bodies) expect(body).toMatchObject({ min_outcomes: CALIBRATION_MIN_OUTCOMES, resamples: CALIBRATION_RESAMPLES });
  });

  it("give figures exactly when there is enough data, each inside its interval and its range", () => {
    for (const { key, g } of groups) {
      expect(g.enough_data, key).toBe(g.n_outcomes >= CALIBRATION_MIN_OUTCOMES && g.n_pairs > 0);
      const figures = [g.spearman_rho, g.kendall_tau_b, g.pairwise_agreement, g.pairwise_agreement_raw];
      for (const [i, f] of figures.entries()) {
        if (!g.enough_data) {
          expect(f, `${key} figure ${i}`).toBeNull();
          continue;
        }
        expect(f, `${key} figure ${i}`).not.toBeNull();
        expect(f!.ci_low).toBeLessThanOrEqual(f!.value);
        expect(f!.value).toBeLessThanOrEqual(f!.ci_high);
        expect(f!.ci_low).toBeGreaterThanOrEqual(i < 2 ? -1 : 0);
        expect(f!.ci_high).toBeLessThanOrEqual(1);
      }
      expect(g.n_simulated, key).toBeLessThanOrEqual(g.n_outcomes);
      expect(g.n_requests, key).toBeLessThanOrEqual(g.n_outcomes);
    }
  });

  it("pool each metric's goals: the counts add up, goals and metrics in name order", () => {
    for (const { key, body } of bodies) {
      const names = body.metrics.map((m) => m.metric);
      expect(names, key).toEqual([...names].sort());
      for (const { pooled, goals } of body.metrics) {
        expect(pooled.goal, key).toBeNull();
        expect(goals.map((g) => g.goal), key).toEqual(goals.map((g) => g.goal).sort());
        for (const count of ["n_outcomes", "n_requests", "n_pairs", "n_simulated"] as const) expect(pooled[count], `${key} ${count}`).toBe(goals.reduce((sum, g) => sum + g[count], 0));
        const impressions = goals.map((g) => g.impressions).filter((n) => n !== null);
        expect(pooled.impressions, key).toBe(impressions.length === 0 ? null : impressions.reduce((a, b) => a + b, 0));
      }
    }
  });

  it("show an account with too few outcomes, one with none, and sim-scored outcomes", () => {
    expect(bodies.some(({ body }) => body.metrics.length > 0 && body.metrics.every((m) => !m.pooled.enough_data))).toBe(true);
    expect(bodies.some(({ body }) => body.metrics.length === 0)).toBe(true);
    const simulated = groups.filter(({ g }) => g.n_simulated > 0 && g.enough_data);
    expect(simulated).not.toEqual([]);
    const described = examples(getCalibration, "200").find((e) => CalibrationResponse.parse(e.value).metrics.some((m) => m.pooled.n_simulated > 0))!;
    expect(described.description).toMatch(/harness.*not that a model predicts/);
  });

  it("show the two outcomes of the recordOutcomes example as not enough data", () => {
    const [first] = requestExamples;
    const notEnough = bodies.find(({ body }) => body.metrics.length > 0 && !body.metrics[0]!.pooled.enough_data)!.body.metrics[0]!;
    expect(notEnough.metric).toBe(first!.outcomes[0]!.metric);
    expect(notEnough.pooled).toMatchObject({ n_outcomes: first!.outcomes.length, n_requests: 1, impressions: first!.outcomes.reduce((sum, o) => sum + (o.impressions ?? 0), 0) });
  });
});

describe("the recordOutcomes examples", () => {
  const answers = examples(recordOutcomes, "200").map((e) => ({ key: e.key, body: RecordOutcomesResponse.parse(e.value) }));
  const rankings = examples(doc.paths["/api/v1/rank"]!.post!, "200").map((e) => RankResponse.parse(e.value));

  it("name ranked assets of the rank examples' rankings, and the scores those gave them", () => {
    for (const batch of requestExamples) {
      for (const o of batch.outcomes) {
        const ranking = rankings.find((r) => r.request_id === o.request_id);
        expect(ranking?.ranked.map((a) => a.asset_id), `${o.request_id} ${o.asset_id}`).toContain(o.asset_id);
      }
    }
    for (const { key, body } of answers) {
      for (const o of body.outcomes) {
        const ranking = rankings.find((r) => r.request_id === o.request_id)!;
        const asset = ranking.ranked.find((a) => a.asset_id === o.asset_id)!;
        expect(o, key).toMatchObject({ goal: ranking.summary.goal, score: asset.score, score_before_refine: asset.score_before_refine, simulated: ranking.summary.models!.simulated });
      }
    }
  });

  it("count each change, and answer the first request example in the order it was sent", () => {
    for (const { key, body } of answers) {
      for (const change of ["created", "updated", "unchanged"] as const) expect(body[change], `${key} ${change}`).toBe(body.outcomes.filter((o) => o.change === change).length);
    }
    const created = answers.find((a) => a.key === "created")!.body;
    expect(created.outcomes.map(({ request_id, asset_id, metric, value, impressions }) => ({ request_id, asset_id, metric, value, impressions: impressions ?? undefined }))).toEqual(
      requestExamples[0]!.outcomes.map((o) => ({ ...o, impressions: o.impressions })),
    );
    // Sent again: unchanged, and recorded_at is when it was first written.
    const unchanged = answers.find((a) => a.key === "unchanged")!.body;
    expect(unchanged.outcomes.map((o) => o.recorded_at)).toEqual(created.outcomes.map((o) => o.recorded_at));
  });

  it("show the 404 and the 422s on the offending outcome's field (the whole batch for the row quota)", () => {
    for (const status of ["404", "422"]) {
      for (const e of examples(recordOutcomes, status)) {
        const body = ErrorResponse.parse(e.value);
        expect(body.field, `${status} ${e.key}`).toMatch(e.key === "rowQuota" ? /^outcomes$/ : /^outcomes\[\d+\]\.[a-z_]+$/);
        expect(body.error, `${status} ${e.key}`).toMatch(/\.$/);
      }
    }
    expect(examples(recordOutcomes, "404").map((e) => (e.value as { field: string }).field)).toEqual(["outcomes[0].request_id"]);
    expect(recordOutcomes.responses["404"]!.description).toMatch(/another account/);
  });
});

describe("the outcome samples", () => {
  const exampleId = requestExamples[0]!.outcomes[0]!.request_id;
  const readerId = "0b6c7f9e-4f3a-4d2b-9c1e-2a7d5e8f0a13";

  it("record outcomes for the reader's ranking, from $REQUEST_ID, in every sample", () => {
    expect(sample(recordOutcomes, "curl")).toContain('"request_id": "$REQUEST_ID"');
    expect(sample(recordOutcomes, "TypeScript SDK")).toContain("request_id: process.env.REQUEST_ID!");
    for (const label of ["curl", "TypeScript SDK", "CLI"]) expect(sample(recordOutcomes, label), label).not.toContain(exampleId);
  });

  it("write the first example as the CLI's CSV, with the reader's id, and run adrank outcomes on it", () => {
    // bash runs the sample as pasted, with an `adrank` that prints its arguments and the file.
    const fakeAdrank = 'adrank() { printf "%s\\n" "$*"; cat "$2"; }';
    const dir = mkdtempSync(join(tmpdir(), "adrank-outcomes-sample-"));
    let out: string;
    try {
      out = execFileSync("bash", ["-euo", "pipefail", "-c", `${fakeAdrank}\n${sample(recordOutcomes, "CLI")}`], { cwd: dir, env: { PATH: process.env.PATH ?? "", REQUEST_ID: readerId }, encoding: "utf8" });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const [args, header, ...rows] = out.trimEnd().split("\n");
    const first = requestExamples[0]!;
    expect(args).toBe(`outcomes outcomes.csv --metric ${first.outcomes[0]!.metric}`);
    const columns = header!.split(",");
    const parsed = rows.map((row) => Object.fromEntries(row.split(",").map((cell, i) => [columns[i], cell])));
    expect(parsed).toEqual(first.outcomes.map((o) => ({ request_id: readerId, asset_id: o.asset_id, value: String(o.value), impressions: String(o.impressions) })));
  });

  it("ask for calibration of the metric the outcome samples record", () => {
    const metric = requestExamples[0]!.outcomes[0]!.metric;
    expect(sample(getCalibration, "curl")).toContain(`/api/v1/calibration?metric=${metric}"`);
    expect(sample(getCalibration, "CLI")).toBe(`adrank calibration \\\n  --metric ${metric}`);
    expect(sample(getCalibration, "TypeScript SDK")).toContain("adrank.calibration.get(");
  });
});

