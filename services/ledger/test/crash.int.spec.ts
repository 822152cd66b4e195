import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { createLedgerClient, isLedgerUnavailable, type LedgerClient, type LedgerResult } from "@adrank/ledger-client";
import { balanceOf } from "@adrank/ledger-domain";
import { reconcile } from "../src/index.ts";
import { createHarness, eventually, NATS_URL, sleep, type Harness } from "./harness.ts";

const MAIN = fileURLToPath(new URL("../src/main.ts", import.meta.url));

type Sent =
  | { op: "reserve"; reservationId: string; keyId: string; units: number; outcome: Outcome; phase: Phase }
  | { op: "settle"; reservationId: string; unitsUsed: number; outcome: Outcome; phase: Phase };
/** ok / rejected: the ledger answered; unknown: it did not (the command may or may not have landed). */
type Outcome = "ok" | "rejected" | "unknown";
type Phase = "before" | "down" | "after";

describe("a ledger process stopped or killed mid-stream", () => {
  let h: Harness;
  let ledger: LedgerClient;
  let child: ChildProcess | null = null;
  /** Every process this file started, so none outlives a failed test. */
  const spawned: ChildProcess[] = [];
  let output = "";

  /** Spawns the ledger process and waits for its own "ledger started" line (not another replica's answer). */
  const start = async () => {
    const sep = h.tdb.connectionString.includes("?") ? "&" : "?";
    let own = "";
    const c = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        NATS_URL,
        DATABASE_URL: `${h.tdb.connectionString}${sep}options=${encodeURIComponent(`-c search_path=${h.tdb.schema}`)}`,
        ADRANK_NAMESPACE: h.topo.namespace,
        LOG_LEVEL: "info",
        LEDGER_SWEEP_INTERVAL_MS: "60000",
        // Many keys of one account carry the load, each within its own window; the account-wide
        // windows (180 units, 240 requests by default) would otherwise turn this crash test into a rate-limit count.
        LEDGER_ACCOUNT_RATE_LIMIT_SCORING: "1000000",
        LEDGER_ACCOUNT_REQUEST_LIMIT: "1000000",
        LEDGER_ACCOUNT_FETCH_LIMIT: "1000000",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child = c;
    spawned.push(c);
    const collect = (d: Buffer) => {
      own += d.toString();
      output += d.toString();
    };
    c.stdout!.on("data", collect);
    c.stderr!.on("data", collect);
    await eventually(async () => own.includes('"msg":"ledger started"') || c.exitCode !== null, 15_000, `the ledger process to start (output: ${output})`);
    if (c.exitCode !== null) throw new Error(`the ledger process exited at start: ${own}`);
  };

  const kill = async (signal: NodeJS.Signals, c = child) => {
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((resolve) => c.once("exit", resolve));
    c.kill(signal);
    await exited;
  };

  beforeAll(async () => {
    h = await createHarness();
    ledger = createLedgerClient(h.client, h.topo, { timeoutMs: 1_000 });
  });
  afterAll(async () => {
    await Promise.all(spawned.map((c) => kill("SIGKILL", c)));
    await h?.close();
  });

  it("loses no acknowledged command, applies none twice, and a retry after the restart is harmless", async () => {
    await start();
    const accountId = "acct-crash";
    expect((await ledger.grant({ accountId, grantId: "g1", credits: 100_000 })).ok).toBe(true);

    const sent: Sent[] = [];
    let phase: Phase = "before";
    let running = true;
    let inFlight = 0;
    const attempt = async <T>(call: () => Promise<LedgerResult<T>>): Promise<Outcome> => {
      inFlight++;
      try {
        return (await call()).ok ? "ok" : "rejected";
      } catch (err) {
        if (!isLedgerUnavailable(err)) throw err;
        await sleep(20);
        return "unknown";
      } finally {
        inFlight--;
      }
    };
    const worker = async (w: number) => {
      for (let i = 0; running; i++) {
        const reservationId = randomUUID();
        const units = 1 + (i % 3);
        const keyId = `k${w}-${i % 40}`;
        const p1 = phase;
        const reserved = await attempt(() => ledger.reserve({ accountId, keyId, reservationId, kind: "scoring", units }));
        sent.push({ op: "reserve", reservationId, keyId, units, outcome: reserved, phase: p1 });
        if (reserved !== "ok") continue;
        const unitsUsed = i % 2 ? units : units - 1;
        const p2 = phase;
        sent.push({ op: "settle", reservationId, unitsUsed, outcome: await attempt(() => ledger.settle({ accountId, reservationId, unitsUsed })), phase: p2 });
      }
    };
    const workers = Array.from({ length: 8 }, (_, w) => worker(w));

    await sleep(700);
    const inFlightAtKill = inFlight;
    await kill("SIGKILL");
    phase = "down";
    await sleep(300);
    await start();
    phase = "after";
    await sleep(700);
    running = false;
    await Promise.all(workers);

    if (process.env.LEDGER_TEST_VERBOSE) console.warn(inFlightAtKill, ["before", "down", "after"].map((p) => [p, ...(["ok", "rejected", "unknown"] as const).map((o) => sent.filter((s) => s.phase === p && s.outcome === o).length)]));
    const acked = (p: Phase) => sent.filter((s) => s.phase === p && s.outcome === "ok").length;
    expect(acked("before")).toBeGreaterThan(20);
    expect(acked("after")).toBeGreaterThan(20);
    // The kill hit commands in flight (their settles may still succeed through the client's retry).
    expect(inFlightAtKill).toBeGreaterThan(0);

    // Commands whose outcome the client never learned are retried with the same ids.
    for (const s of sent.filter((x) => x.outcome === "unknown")) {
      if (s.op === "reserve") {
        const r = await ledger.reserve({ accountId, keyId: s.keyId, reservationId: s.reservationId, kind: "scoring", units: s.units });
        if (!r.ok) expect(r.rejection).toMatchObject({ type: "DuplicateReservation", status: "open" });
        if (r.ok) s.outcome = "ok";
      } else {
        const r = await ledger.settle({ accountId, reservationId: s.reservationId, unitsUsed: s.unitsUsed });
        expect(r).toMatchObject({ ok: true });
        s.outcome = "ok";
      }
    }

    const { state, events } = await h.fold(accountId);
    const count = (type: string, id: string) => events.filter((e) => e.type === type && "reservationId" in e && e.reservationId === id).length;
    // Nothing applied twice.
    const keys = events.map((e) => `${e.type}:${"reservationId" in e ? e.reservationId : e.grantId}`);
    expect(new Set(keys).size).toBe(keys.length);
    // Every acknowledged command is in the stream exactly once, as acknowledged.
    for (const s of sent.filter((x) => x.outcome === "ok")) {
      if (s.op === "reserve") {
        expect(count("UsageReserved", s.reservationId)).toBe(1);
        expect(events.find((e) => e.type === "UsageReserved" && e.reservationId === s.reservationId)).toMatchObject({ units: s.units });
      } else {
        expect(count("UsageSettled", s.reservationId)).toBe(1);
        expect(events.find((e) => e.type === "UsageSettled" && e.reservationId === s.reservationId)).toMatchObject({ unitsUsed: s.unitsUsed });
      }
    }
    // And nothing is in the stream that was never sent.
    const sentIds = new Set(sent.map((s) => s.reservationId));
    expect(events.filter((e) => e.type !== "CreditsGranted" && !sentIds.has(e.reservationId))).toEqual([]);

    // The restarted ledger answers from the same facts, and the projection caught up with them.
    expect(await ledger.balance({ accountId })).toEqual({ ok: true, value: balanceOf(state) });
    await h.projectionCaughtUp(30_000);
    const report = await reconcile({ js: jetstream(h.client), jsm: await jetstreamManager(h.client), db: h.tdb.db, topo: h.topo, accountId });
    expect(report).toMatchObject({ behind: [], differences: [] });
    const projected = await h.tdb.db.selectFrom("ledger_events").select((eb) => eb.fn.countAll<number>().as("n")).where("account_id", "=", accountId).executeTakeFirstOrThrow();
    expect(Number(projected.n)).toBe(events.length);

    // Retrying commands acknowledged before the crash changes nothing.
    const before = sent.find((s) => s.phase === "before" && s.op === "settle" && s.outcome === "ok") as Extract<Sent, { op: "settle" }>;
    expect(await ledger.settle({ accountId, reservationId: before.reservationId, unitsUsed: before.unitsUsed })).toMatchObject({ ok: true, value: { alreadySettled: true } });
    expect(await ledger.reserve({ accountId, keyId: "k", reservationId: before.reservationId, kind: "scoring", units: 1 })).toMatchObject({
      ok: false,
      rejection: { type: "DuplicateReservation" },
    });
    expect(await ledger.grant({ accountId, grantId: "g1", credits: 100_000 })).toEqual({ ok: false, rejection: { type: "DuplicateGrant", grantId: "g1", credits: 100_000 } });
    expect((await h.events(accountId)).length).toBe(events.length);
    expect(await ledger.balance({ accountId })).toEqual({ ok: true, value: balanceOf(state) });
    await kill("SIGTERM");
  });
  it("on SIGTERM answers every request it took, appends nothing half-way and exits cleanly", async () => {
    await start();
    const accountId = "acct-term";
    await ledger.grant({ accountId, grantId: "g1", credits: 100_000 });
    const results: Array<{ reservationId: string; outcome: string }> = [];
    // Eight clients keep sending until nobody listens any more.
    const worker = async (w: number) => {
      for (let i = 0; ; i++) {
        const reservationId = randomUUID();
        const outcome = await ledger.reserve({ accountId, keyId: `k${w}-${i % 30}`, reservationId, kind: "scoring", units: 1 }).then(
          (r) => (r.ok ? "ok" : r.rejection.type),
          (err: unknown) => (isLedgerUnavailable(err) ? err.reason : String(err)),
        );
        results.push({ reservationId, outcome });
        if (outcome !== "ok") return;
      }
    };
    const workers = Array.from({ length: 8 }, (_, w) => worker(w));
    await sleep(300);
    const c = child!;
    const exited = new Promise<number | string | null>((resolve) => c.once("exit", (code, signal) => resolve(code ?? signal)));
    c.kill("SIGTERM");
    await Promise.all(workers);
    expect(await exited, output).toBe(0);
    // Requests it had taken were answered; later ones found nobody listening. None hung.
    expect(results.filter((r) => r.outcome !== "ok" && r.outcome !== "no_responders")).toEqual([]);
    expect(results.filter((r) => r.outcome === "ok").length).toBeGreaterThan(8);
    const okIds = results.filter((r) => r.outcome === "ok").map((r) => r.reservationId).sort();
    const reserved = (await h.events(accountId)).flatMap((e) => (e.event.type === "UsageReserved" ? [e.event.reservationId] : [])).sort();
    expect(reserved).toEqual(okIds);
  });
});
