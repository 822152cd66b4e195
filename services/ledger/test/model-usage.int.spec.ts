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
import type { LedgerEvent, UsageKind } from "@adrank/ledger-domain";
import { applyEvents, rebuildMirror, reconcile, type Ledger, type Projected } from "../src/index.ts";
import { mirrorStore } from "../src/mirror/store.ts";
import { createHarness, type Harness } from "./harness.ts";

// Cost accounting end to end: the gateway settles with the calls and tokens per model, the
// ledger records them on UsageSettled, the projection sums them per account, UTC day, model
// and kind, and the operator reads them with `npm run model-usage`.

const CLI = fileURLToPath(new URL("../src/admin/model-usage-cli.ts", import.meta.url));
const A = "acct-alpha";
const B = "acct-beta";
const EVER = { from: "2000-01-01", to: "2999-12-31" };
const use = (model: string, calls: number, inputTokens: number, outputTokens: number): ModelUsage => ({ model, calls, inputTokens, outputTokens });
const MINI = "openai:gpt-5-mini";
const EMBED = "openai:text-embedding-3-small";
const VOTER = "gemini:gemini-2.5-flash";

/** Runs the operator command against this test's schema and namespace. */
function operator(h: Harness, args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const url = h.tdb.connectionString;
  const databaseUrl = `${url}${url.includes("?") ? "&" : "?"}options=${encodeURIComponent(`-c search_path=${h.tdb.schema}`)}`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], { env: { ...process.env, DATABASE_URL: databaseUrl, ADRANK_NAMESPACE: h.topo.namespace }, stdio: ["ignore", "pipe", "pipe"] });
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
  const stream = () => h.topo.streams.ledger.name;
  const rows = () =>
    h.tdb.db
      .selectFrom("ledger_model_usage")
      .select(["account_id", sql<string>`to_char(day, 'YYYY-MM-DD')`.as("day"), "model", "kind", "calls", "input_tokens", "output_tokens"])
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
    ledger = await h.replica();
    client = createLedgerClient(h.client, h.topo, { timeoutMs: 5_000 });
    for (const accountId of [A, B]) expect((await client.grant({ accountId, grantId: "g1", credits: 100 })).ok).toBe(true);

    await reserveAndSettle(A, "a1", "scoring", 4, 3, [use(MINI, 6, 4_812, 310), use(EMBED, 6, 620, 0)]);
    // The gateway's reply was lost: it settles again with the same ids, units and usage.
    expect(await client.settle({ accountId: A, reservationId: "a1", unitsUsed: 3, modelUsage: [use(MINI, 6, 4_812, 310), use(EMBED, 6, 620, 0)] })).toMatchObject({
      ok: true,
      value: { creditsUsed: 3, alreadySettled: true },
    });
    await reserveAndSettle(A, "a2", "scoring", 2, 2, [use(MINI, 4, 3_000, 200)]);
    await reserveAndSettle(A, "a3", "pairwise", 1, 1, [use(VOTER, 5, 9_000, 5)]);
    await reserveAndSettle(A, "a4", "scoring", 1, 1); // a gateway that reports no usage
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
    { accountId: A, model: VOTER, kind: "pairwise", calls: 5, inputTokens: 9_000, outputTokens: 5 },
    { accountId: A, model: MINI, kind: "scoring", calls: 10, inputTokens: 7_812, outputTokens: 510 },
    { accountId: A, model: EMBED, kind: "scoring", calls: 6, inputTokens: 620, outputTokens: 0 },
  ];
  const beta = [{ accountId: B, model: MINI, kind: "scoring", calls: 4, inputTokens: 1_300, outputTokens: 30 }];

  it("records usage on the settlement only, once, and leaves credits to units", async () => {
    const settlements = async (accountId: string) => (await h.events(accountId)).map((e) => e.event).filter((e) => e.type === "UsageSettled");
    const a = await settlements(A);
    expect(a.map((e) => [e.reservationId, e.modelUsage ?? null])).toEqual([
      ["a1", [use(MINI, 6, 4_812, 310), use(EMBED, 6, 620, 0)]],
      ["a2", [use(MINI, 4, 3_000, 200)]],
      ["a3", [use(VOTER, 5, 9_000, 5)]],
      ["a4", null],
    ]);
    expect("modelUsage" in a[3]!).toBe(false);
    expect((await settlements(B)).map((e) => e.modelUsage)).toEqual([[use(MINI, 2, 1_000, 0)], [use(MINI, 2, 300, 30)]]);
    expect(await client.balance({ accountId: A })).toEqual({ ok: true, value: { granted: 100, used: 7, reserved: 0, available: 93 } });
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
    expect(lines[0]).toMatch(new RegExp(`^model usage in ${stream()}, UTC days \\d{4}-\\d{2}-\\d{2} to \\d{4}-\\d{2}-\\d{2}, account ${A} \\(settled requests\\)$`));
    expect(lines.slice(1).map((l) => l.split(/\s{2,}/))).toEqual([
      ["account", "model", "kind", "calls", "input tokens", "output tokens"],
      [A, VOTER, "pairwise", "5", "9000", "5"],
      [A, MINI, "scoring", "10", "7812", "510"],
      [A, EMBED, "scoring", "6", "620", "0"],
    ]);

    const all = await operator(h, ["--json"]);
    expect(all.code).toBe(0);
    expect(JSON.parse(all.stdout)).toMatchObject({ stream: stream(), accountId: null, rows: [...alpha, ...beta] });

    const before = await operator(h, ["--from", "2001-01-01", "--to", "2001-01-31"]);
    expect(before).toMatchObject({ code: 0 });
    expect(before.stdout).toContain("no model usage recorded");
    expect(await operator(h, ["--from", "2026-02-30"])).toMatchObject({ code: 2, stderr: expect.stringContaining("--from and --to must be days") });
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
    { seq: 7, accountId: A, event: settledAt("r2", "scoring", T + 90_000, [use(MINI, 6, 200, 20), use(EMBED, 6, 50, 0)]) }, // the 23rd
    { seq: 8, accountId: A, event: settledAt("r3", "scoring", T + 95_000) }, // written before model usage existed
    { seq: 9, accountId: A, event: settledAt("r4", "scoring", T + 99_000, [use(MINI, 1, 1, 1)]) },
  ];
  let inOrder: TestDatabase;
  let shuffled: TestDatabase;
  const table = (t: TestDatabase) =>
    t.db
      .selectFrom("ledger_model_usage")
      .select(["account_id", sql<string>`to_char(day, 'YYYY-MM-DD')`.as("day"), "model", "kind", "calls", "input_tokens", "output_tokens"])
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

  it("sums per UTC day of settlement, and projects settlements without usage as before", async () => {
    expect(await applyEvents(inOrder.db, STREAM, history)).toBe(history.length);
    expect(await table(inOrder)).toEqual([
      { account_id: A, day: "2026-11-22", model: MINI, kind: "scoring", calls: 6, input_tokens: 100, output_tokens: 10 },
      { account_id: A, day: "2026-11-23", model: MINI, kind: "scoring", calls: 7, input_tokens: 201, output_tokens: 21 },
      { account_id: A, day: "2026-11-23", model: EMBED, kind: "scoring", calls: 6, input_tokens: 50, output_tokens: 0 },
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
