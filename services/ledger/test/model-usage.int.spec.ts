import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { sql } from "kysely";
import type { ModelUsage } from "@adrank/bus-contracts";
import { usageRepository } from "@adrank/db/repositories";
import { createLedgerClient, type LedgerClient } from "@adrank/ledger-client";
import { decodeJson, encodeJson } from "@adrank/messaging";
import { createTestDatabase, type TestDatabase } from "@adrank/db/testing";
import { DEFAULT_PRICE_TABLE, type LedgerEvent, type UsageKind } from "@adrank/ledger-domain";
import { createMetrics } from "@adrank/telemetry";
import { writeFile, mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { applyEvents, rebuildMirror, reconcile, type Ledger, type Projected } from "../src/index.ts";
import { modelSpendMetrics } from "../src/model-spend-metrics.ts";
import { mirrorStore } from "../src/mirror/store.ts";
import { createHarness, type Harness } from "./harness.ts";

// Cost accounting end to end: the gateway settles with the calls and tokens per model (cached
// and cache-write input tokens among them), the ledger records them on UsageSettled, the
// projection sums them per account, UTC day, model and kind, and the operator reads them,
// priced, with `npm run model-usage`.

const CLI = fileURLToPath(new URL("../src/admin/model-usage-cli.ts", import.meta.url));
const A = "acct-alpha";
const B = "acct-beta";
const EVER = { from: "2000-01-01", to: "2999-12-31" };
const use = (model: string, calls: number, inputTokens: number, outputTokens: number, cachedInputTokens?: number, cacheWriteInputTokens?: number): ModelUsage => ({
  model,
  calls,
  inputTokens,
  outputTokens,
  ...(cachedInputTokens === undefined ? {} : { cachedInputTokens }),
  ...(cacheWriteInputTokens === undefined ? {} : { cacheWriteInputTokens }),
});
const MINI = "openai:gpt-5-mini";
const EMBED = "openai:text-embedding-3-small";
const VOTER = "gemini:gemini-2.5-flash";
const SONNET = "anthropic:claude-sonnet-4-6";

/** Runs the operator command against this test's schema and namespace. */
function operator(h: Harness, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const url = h.tdb.connectionString;
  const databaseUrl = `${url}${url.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${h.tdb.schema}`)}`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, ADRANK_MODEL_PRICES_FILE: "", DATABASE_URL: databaseUrl, ADRANK_NAMESPACE: h.topo.namespace, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

describe("model usage settled over real NATS, projected into real Postgres, read by the operator", () => {
  let h: Harness;
  let ledger: Ledger;
  let client: LedgerClient;
  const metrics = createMetrics("ledger-test");
  const stream = () => h.topo.streams.ledger.name;
  const rows = () =>
    h.tdb.db
      .selectFrom("ledger_model_usage")
      .select(["account_id", sql<string>`to_char(day, 'YYYY-MM-DD')`.as("day"), "model", "kind", "calls", "input_tokens", "output_tokens", "cached_input_tokens", "cache_write_input_tokens"])
      .where("stream", "=", stream())
      .orderBy("account_id")
      .orderBy("day")
      .orderBy("model")
      .orderBy("kind")
      .execute();
  const reconcileNow = async () => reconcile({ js: jetstream(h.client), jsm: await jetstreamManager(h.client), db: h.tdb.db, topo: h.topo });

  async function reserveAndSettle(accountId: string, reservationId: string, kind: UsageKind, units: number, unitsUsed: number, modelUsage?: ModelUsage[]) {
    expect((await client.reserve({ accountId, keyId: "k1", reservationId, kind, units })).ok).toBe(true);
    const settled = await client.settle({ accountId, reservationId, unitsUsed, ...(modelUsage ? { modelUsage } : {}) });
    expect(settled).toMatchObject({ ok: true, value: { creditsUsed: unitsUsed, alreadySettled: false } });
  }

  beforeAll(async () => {
    h = await createHarness();
    ledger = await h.replica({ onSettled: modelSpendMetrics(metrics, DEFAULT_PRICE_TABLE) });
    client = createLedgerClient(h.client, h.topo, { timeoutMs: 5_000 });
    for (const accountId of [A, B]) expect((await client.grant({ accountId, grantId: "g1", credits: 100 })).ok).toBe(true);

    await reserveAndSettle(A, "a1", "scoring", 4, 3, [use(MINI, 6, 4_812, 310), use(EMBED, 6, 620, 0)]);
    // The gateway's reply was lost: it settles again with the same ids, units and usage.
    expect(await client.settle({ accountId: A, reservationId: "a1", unitsUsed: 3, modelUsage: [use(MINI, 6, 4_812, 310), use(EMBED, 6, 620, 0)] })).toMatchObject({
      ok: true,
      value: { creditsUsed: 3, alreadySettled: true },
    });
    await reserveAndSettle(A, "a2", "scoring", 2, 2, [use(MINI, 4, 3_000, 200, 2_000)]);
    await reserveAndSettle(A, "a3", "pairwise", 1, 1, [use(VOTER, 5, 9_000, 5)]);
    await reserveAndSettle(A, "a4", "scoring", 1, 1); // a gateway that reports no usage
    // Anthropic: most of the prompt read from the cache, part of it written to it.
    await reserveAndSettle(A, "a5", "scoring", 1, 1, [use(SONNET, 3, 6_000, 90, 4_000, 1_500)]);
    // Every evaluation failed: nothing is charged, but the model was called.
    await reserveAndSettle(B, "b1", "scoring", 2, 0, [use(MINI, 2, 1_000, 0)]);
    // The same model twice in one settle is summed, not refused.
    await reserveAndSettle(B, "b2", "scoring", 1, 1, [use(MINI, 1, 100, 10), use(MINI, 1, 200, 20)]);
    await h.projectionCaughtUp();
  });
  afterAll(async () => {
    await h?.close();
  });

  const alpha = [
    { accountId: A, model: SONNET, kind: "scoring", calls: 3, inputTokens: 6_000, outputTokens: 90, cachedInputTokens: 4_000, cacheWriteInputTokens: 1_500 },
    { accountId: A, model: VOTER, kind: "pairwise", calls: 5, inputTokens: 9_000, outputTokens: 5, cachedInputTokens: 0, cacheWriteInputTokens: 0 },
    { accountId: A, model: MINI, kind: "scoring", calls: 10, inputTokens: 7_812, outputTokens: 510, cachedInputTokens: 2_000, cacheWriteInputTokens: 0 },
    { accountId: A, model: EMBED, kind: "scoring", calls: 6, inputTokens: 620, outputTokens: 0, cachedInputTokens: 0, cacheWriteInputTokens: 0 },
  ];
  const beta = [{ accountId: B, model: MINI, kind: "scoring", calls: 4, inputTokens: 1_300, outputTokens: 30, cachedInputTokens: 0, cacheWriteInputTokens: 0 }];

  it("records usage on the settlement only, once, and leaves credits to units", async () => {
    const settlements = async (accountId: string) => (await h.events(accountId)).map((e) => e.event).filter((e) => e.type === "UsageSettled");
    const a = await settlements(A);
    expect(a.map((e) => [e.reservationId, e.modelUsage ?? null])).toEqual([
      ["a1", [use(MINI, 6, 4_812, 310), use(EMBED, 6, 620, 0)]],
      ["a2", [use(MINI, 4, 3_000, 200, 2_000)]],
      ["a3", [use(VOTER, 5, 9_000, 5)]],
      ["a4", null],
      ["a5", [use(SONNET, 3, 6_000, 90, 4_000, 1_500)]],
    ]);
    expect("modelUsage" in a[3]!).toBe(false);
    expect((await settlements(B)).map((e) => e.modelUsage)).toEqual([[use(MINI, 2, 1_000, 0)], [use(MINI, 2, 300, 30)]]);
    expect(await client.balance({ accountId: A })).toEqual({ ok: true, value: { granted: 100, used: 8, reserved: 0, available: 92 } });
    expect(await client.balance({ accountId: B })).toEqual({ ok: true, value: { granted: 100, used: 1, reserved: 0, available: 99 } });
  });

  it("projects the totals per account, model and kind, and keeps two accounts apart", async () => {
    const usage = usageRepository(h.tdb.db, stream());
    expect(await usage.modelSpend({ ...EVER, accountId: A })).toEqual(alpha);
    expect(await usage.modelSpend({ ...EVER, accountId: B })).toEqual(beta);
    expect(await usage.modelSpend(EVER)).toEqual([...alpha, ...beta]);
  });

  it("prints the same totals through the operator command, for one account or all of them", async () => {
    const one = await operator(h, ["--account", A]);
    expect(one).toMatchObject({ code: 0, stderr: "" });
    const lines = one.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(
      new RegExp(`^model usage in ${stream()}, UTC days \\d{4}-\\d{2}-\\d{2} to \\d{4}-\\d{2}-\\d{2}, account ${A} \\(settled requests; prices: default table read \\d{4}-\\d{2}-\\d{2}\\)$`),
    );
    // Spend at the default prices, per million tokens: Sonnet 4.6 $3 input, $0.30 cached, $3.75
    // cache writes, $15 output (500 uncached, 4,000 cached, 1,500 written, 90 out: $0.009675);
    // Gemini 2.5 Flash $0.30 / $2.50 ($0.0027125, printed rounded half up); gpt-5-mini $0.25,
    // $0.025 cached, $2 output ($0.001453 + $0.00005 + $0.00102); text-embedding-3-small $0.02.
    expect(lines.slice(1).map((l) => l.split(/\s{2,}/))).toEqual([
      ["account", "model", "kind", "calls", "uncached input", "cached input", "cache writes", "output", "spend USD"],
      [A, SONNET, "scoring", "3", "500", "4000", "1500", "90", "0.009675"],
      [A, VOTER, "pairwise", "5", "9000", "0", "0", "5", "0.002713"],
      [A, MINI, "scoring", "10", "5812", "2000", "0", "510", "0.002523"],
      [A, EMBED, "scoring", "6", "620", "0", "0", "0", "0.000012"],
      ["total", "24", "15932", "6000", "1500", "605", "0.014923"],
    ]);

    const all = await operator(h, ["--json"]);
    expect(all.code).toBe(0);
    expect(JSON.parse(all.stdout)).toMatchObject({
      stream: stream(),
      accountId: null,
      by: "model",
      rows: [...alpha, ...beta],
      total: { calls: 28, inputTokens: 24_732, uncachedInputTokens: 17_232, cachedInputTokens: 6_000, cacheWriteInputTokens: 1_500, outputTokens: 635, spendUsd: 0.0153079, unpricedModels: [] },
    });
    expect(JSON.parse(all.stdout).rows.map((r: { spendUsd: number }) => r.spendUsd)).toEqual([0.009675, 0.0027125, 0.002523, 0.0000124, 0.000385]);

    const before = await operator(h, ["--from", "2001-01-01", "--to", "2001-01-31"]);
    expect(before).toMatchObject({ code: 0 });
    expect(before.stdout).toContain("no model usage recorded");
    expect(await operator(h, ["--from", "2026-02-30"])).toMatchObject({ code: 2, stderr: expect.stringContaining("--from and --to must be days") });
  });

  it("totals per account and per day", async () => {
    const table = (stdout: string) => stdout.trimEnd().split("\n").slice(1).map((l) => l.split(/\s{2,}/));
    const byAccount = await operator(h, ["--by", "account"]);
    expect(byAccount).toMatchObject({ code: 0, stderr: "" });
    expect(table(byAccount.stdout)).toEqual([
      ["account", "calls", "uncached input", "cached input", "cache writes", "output", "spend USD"],
      [A, "24", "15932", "6000", "1500", "605", "0.014923"],
      [B, "4", "1300", "0", "0", "30", "0.000385"],
      ["total", "28", "17232", "6000", "1500", "635", "0.015308"],
    ]);
    const byDay = await operator(h, ["--by", "day", "--account", B, "--json"]);
    expect(byDay.code).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    expect(JSON.parse(byDay.stdout)).toMatchObject({ by: "day", accountId: B, rows: [{ day: today, calls: 4, inputTokens: 1_300, uncachedInputTokens: 1_300, outputTokens: 30, spendUsd: 0.000385 }] });
    expect(await operator(h, ["--by", "week"])).toMatchObject({ code: 2, stderr: expect.stringContaining("--by must be one of model, account, day") });
  });

  it("prints one request's settlements with their spend", async () => {
    const one = await operator(h, ["--request", "a5"]);
    expect(one).toMatchObject({ code: 0, stderr: "" });
    const lines = one.stdout.trimEnd().split("\n");
    expect(lines[0]).toBe(`model usage of request a5 in ${stream()}`);
    expect(lines[1]).toMatch(new RegExp(`^settlement a5: account ${A}, scoring, 1 credits, \\d{4}-\\d{2}-\\d{2}T`));
    expect(lines.slice(2).map((l) => l.split(/\s{2,}/))).toEqual([
      ["model", "calls", "uncached input", "cached input", "cache writes", "output", "spend USD"],
      [SONNET, "3", "500", "4000", "1500", "90", "0.009675"],
      ["total spend USD 0.009675"],
    ]);
    const json = await operator(h, ["--request", "a1", "--json"]);
    expect(JSON.parse(json.stdout)).toMatchObject({
      requestId: "a1",
      settlements: [{ reservationId: "a1", accountId: A, unitsUsed: 3, modelUsage: [use(MINI, 6, 4_812, 310), use(EMBED, 6, 620, 0)] }],
      total: { calls: 12, inputTokens: 5_432, outputTokens: 310, spendUsd: 0.0018354 },
    });
    expect((await operator(h, ["--request", "nobody"])).stdout).toContain("no settlement of this request in the mirror");
    expect(await operator(h, ["--request", "a1", "--by", "day"])).toMatchObject({ code: 2, stderr: expect.stringContaining("--request takes no") });
  });

  it("prices with the operator's file, marks models without a price, and refuses a malformed file naming the field", async () => {
    const dir = await mkdtemp(join(tmpdir(), "prices-"));
    const only = join(dir, "only-mini.json");
    await writeFile(only, JSON.stringify({ replaceDefaults: true, models: { [MINI]: { input: 1, output: 1 } } }));
    const priced = await operator(h, ["--account", A, "--by", "account", "--prices", only]);
    expect(priced).toMatchObject({ code: 0, stderr: "" });
    const lines = priced.stdout.trimEnd().split("\n");
    expect(lines[0]).toContain(`prices: file ${only}`);
    // gpt-5-mini alone: 5,812 + 2,000 (cached at the input price) + 510 tokens at $1 per million.
    expect(lines.slice(2).map((l) => l.split(/\s{2,}/))).toEqual([
      [A, "24", "15932", "6000", "1500", "605", "0.008322*"],
      ["total", "24", "15932", "6000", "1500", "605", "0.008322*"],
      [`* without the models that have no price: ${SONNET}, ${VOTER}, ${EMBED} (add them with --prices or ADRANK_MODEL_PRICES_FILE)`],
    ]);
    // The variable is read when --prices is not given; a model without a price is null in JSON, never 0.
    const byModel = JSON.parse((await operator(h, ["--account", A, "--json"], { ADRANK_MODEL_PRICES_FILE: only })).stdout);
    expect(byModel.rows.map((r: { model: string; spendUsd: number | null }) => [r.model, r.spendUsd])).toEqual([
      [SONNET, null],
      [VOTER, null],
      [MINI, 0.008322],
      [EMBED, null],
    ]);

    const bad = join(dir, "bad.json");
    await writeFile(bad, JSON.stringify({ models: { [MINI]: { input: "cheap", output: 1 } } }));
    const refused = await operator(h, ["--prices", bad]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`model prices file ${bad}: models["${MINI}"].input:`);
    expect(await operator(h, ["--prices", join(dir, "missing.json")])).toMatchObject({ code: 2, stderr: expect.stringContaining("missing.json") });
  });

  it("counts tokens and spend per model in the metrics, once per settlement however often it is repeated", async () => {
    const [, text] = await metrics.render();
    const sample = (name: string, labels: string) => Number(new RegExp(`^${name}\\{${labels},service="ledger-test"\\} (\\S+)$`, "m").exec(text)?.[1]);
    expect(sample("adrank_model_tokens_total", `model="${MINI}",kind="uncached_input"`)).toBe(5_812 + 1_300);
    expect(sample("adrank_model_tokens_total", `model="${MINI}",kind="cached_input"`)).toBe(2_000);
    expect(sample("adrank_model_tokens_total", `model="${SONNET}",kind="cache_write_input"`)).toBe(1_500);
    expect(sample("adrank_model_tokens_total", `model="${SONNET}",kind="output"`)).toBe(90);
    expect(sample("adrank_model_spend_usd_total", `model="${SONNET}"`)).toBeCloseTo(0.009675, 12);
    expect(sample("adrank_model_spend_usd_total", `model="${MINI}"`)).toBeCloseTo(0.002523 + 0.000385, 12);
    expect(text).not.toMatch(/adrank_model_[a-z_]+\{[^}]*account/);
    // a1..a3, a5, b1, b2 reported usage; a4 did not, and a1's repeat was not counted.
    expect(text).toMatch(/^adrank_model_spend_per_request_usd_count\{service="ledger-test"\} 6$/m);
  });

  it("answers malformed model usage with bad_request and leaves the reservation open", async () => {
    const C = "acct-gamma";
    expect((await client.grant({ accountId: C, grantId: "g1", credits: 5 })).ok).toBe(true);
    expect((await client.reserve({ accountId: C, keyId: "k1", reservationId: "c1", kind: "scoring", units: 1 })).ok).toBe(true);
    const raw = async (modelUsage: unknown) =>
      decodeJson((await h.client.request(h.topo.ledgerRpc.settle, encodeJson({ accountId: C, reservationId: "c1", unitsUsed: 1, modelUsage }), { timeout: 5_000 })).data);
    const seventeen = Array.from({ length: 17 }, (_, i) => use(`sim:m${i}`, 1, 1, 1));
    for (const bad of [seventeen, [use("no-provider", 1, 1, 1)], [use(MINI, 1.5, 1, 1)], "lots"]) {
      expect(await raw(bad)).toMatchObject({ ok: false, error: { code: "bad_request" } });
    }
    expect((await h.events(C)).map((e) => e.event.type)).toEqual(["CreditsGranted", "UsageReserved"]);
    expect(await client.settle({ accountId: C, reservationId: "c1", unitsUsed: 1 })).toMatchObject({ ok: true, value: { alreadySettled: false } });
    await h.projectionCaughtUp();
    expect(await usageRepository(h.tdb.db, stream()).modelSpend({ ...EVER, accountId: C })).toEqual([]);
  });

  it("is checked by reconcile against the stream, which names a tampered total", async () => {
    expect(await reconcileNow()).toMatchObject({ differences: [], behind: [] });
    const where = { account: B, model: MINI };
    const [row] = (await rows()).filter((r) => r.account_id === where.account && r.model === where.model);
    await h.tdb.db.updateTable("ledger_model_usage").set({ input_tokens: 1 }).where("stream", "=", stream()).where("account_id", "=", B).execute();
    try {
      expect((await reconcileNow()).differences).toEqual([{ accountId: B, field: `model usage ${row!.day} scoring ${MINI} input_tokens`, stream: 1_300, projection: 1 }]);
    } finally {
      await h.tdb.db.updateTable("ledger_model_usage").set({ input_tokens: 1_300 }).where("stream", "=", stream()).where("account_id", "=", B).execute();
    }
  });

  it("gives the same totals when events are delivered again and when the mirror is rebuilt from the stream", async () => {
    const before = await rows();
    // Every event of the stream once more, as a redelivery would bring them: nothing is new.
    const again = [
      ...(await h.events(A)).map((e) => ({ ...e, accountId: A })),
      ...(await h.events(B)).map((e) => ({ ...e, accountId: B })),
    ];
    expect(await applyEvents(h.tdb.db, stream(), again)).toBe(0);
    expect(await rows()).toEqual(before);

    // Replay: the stream is the truth; the mirror is cleared and projected again from its first event.
    await ledger.stop();
    await rebuildMirror({ db: h.tdb.db, js: jetstream(h.client), jsm: await jetstreamManager(h.client), topo: h.topo }, { force: true });
    expect(await rows()).toEqual([]);
    ledger = await h.replica();
    await h.projectionCaughtUp();
    expect(await rows()).toEqual(before);
    expect(await usageRepository(h.tdb.db, stream()).modelSpend(EVER)).toEqual([...alpha, ...beta]);
    expect(await reconcileNow()).toMatchObject({ differences: [], behind: [] });
  });
});

describe("projection of model usage into real Postgres", () => {
  const STREAM = "LEDGER";
  const T = Date.UTC(2026, 10, 22, 23, 59, 0);
  const settledAt = (reservationId: string, kind: UsageKind, at: number, modelUsage?: ModelUsage[]): LedgerEvent => ({
    type: "UsageSettled",
    reservationId,
    keyId: "k1",
    kind,
    unitsReserved: 2,
    unitsUsed: 1,
    reservedAt: T,
    ...(modelUsage ? { modelUsage } : {}),
    at,
  });
  const history: Projected[] = [
    { seq: 1, accountId: A, event: { type: "CreditsGranted", grantId: "g1", credits: 50, at: T - 1 } },
    ...["r1", "r2", "r3", "r4"].map((reservationId, i): Projected => ({ seq: 2 + i, accountId: A, event: { type: "UsageReserved", reservationId, keyId: "k1", kind: "scoring", units: 2, at: T } })),
    { seq: 6, accountId: A, event: settledAt("r1", "scoring", T + 30_000, [use(MINI, 6, 100, 10)]) }, // the 22nd
    { seq: 7, accountId: A, event: settledAt("r2", "scoring", T + 90_000, [use(MINI, 6, 200, 20, 150, 30), use(EMBED, 6, 50, 0)]) }, // the 23rd
    { seq: 8, accountId: A, event: settledAt("r3", "scoring", T + 95_000) }, // written before model usage existed
    { seq: 9, accountId: A, event: settledAt("r4", "scoring", T + 99_000, [use(MINI, 1, 1, 1, 1)]) },
  ];
  let inOrder: TestDatabase;
  let shuffled: TestDatabase;
  const table = (t: TestDatabase) =>
    t.db
      .selectFrom("ledger_model_usage")
      .select(["account_id", sql<string>`to_char(day, 'YYYY-MM-DD')`.as("day"), "model", "kind", "calls", "input_tokens", "output_tokens", "cached_input_tokens", "cache_write_input_tokens"])
      .orderBy("account_id")
      .orderBy("day")
      .orderBy("model")
      .orderBy("kind")
      .execute();
  beforeAll(async () => {
    [inOrder, shuffled] = await Promise.all([createTestDatabase("ledgermodels"), createTestDatabase("ledgermodels")]);
    for (const t of [inOrder, shuffled]) await mirrorStore(t.db, STREAM).claim(new Date(T));
  });
  afterAll(async () => {
    await Promise.all([inOrder?.destroy(), shuffled?.destroy()]);
  });

  it("sums per UTC day of settlement, cache counts included, and projects settlements without usage as before", async () => {
    expect(await applyEvents(inOrder.db, STREAM, history)).toBe(history.length);
    expect(await table(inOrder)).toEqual([
      { account_id: A, day: "2026-11-22", model: MINI, kind: "scoring", calls: 6, input_tokens: 100, output_tokens: 10, cached_input_tokens: 0, cache_write_input_tokens: 0 },
      { account_id: A, day: "2026-11-23", model: MINI, kind: "scoring", calls: 7, input_tokens: 201, output_tokens: 21, cached_input_tokens: 151, cache_write_input_tokens: 30 },
      { account_id: A, day: "2026-11-23", model: EMBED, kind: "scoring", calls: 6, input_tokens: 50, output_tokens: 0, cached_input_tokens: 0, cache_write_input_tokens: 0 },
    ]);
    const settled = await inOrder.db.selectFrom("ledger_reservations").select(["reservation_id", "status"]).where("status", "=", "settled").orderBy("reservation_id").execute();
    expect(settled.map((r) => r.reservation_id)).toEqual(["r1", "r2", "r3", "r4"]);
  });

  it("ends with the same totals when replicas apply events out of order, in overlapping batches", async () => {
    const reversed = [...history].reverse();
    await applyEvents(shuffled.db, STREAM, reversed.slice(0, 3));
    await applyEvents(shuffled.db, STREAM, reversed.slice(2, 6));
    await applyEvents(shuffled.db, STREAM, reversed.slice(5));
    expect(await table(shuffled)).toEqual(await table(inOrder));
  });
});
