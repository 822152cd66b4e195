import { describe, expect, it } from "vitest";
import type { ModelUsage, ReserveRequest, SettleRequest } from "@adrank/bus-contracts";
import type { MeteringLedger, SettleOrder } from "../../src/lifecycle/metering.ts";
import { runMetered, type Attempt } from "../../src/lifecycle/metered-run.ts";
import { UnfinishedWork, type Operation, type Settlement } from "../../src/lifecycle/operation.ts";
import { LedgerUnavailableError } from "@adrank/ledger-client";
import { ClientLeftError, InsufficientCreditsError, VotersUnavailableError } from "../../src/errors/api-errors.ts";

// The lifecycle's metered run with a fake ledger and a made-up third operation: what is
// reserved, what is settled however the work ends, and what the answer is told.

const quiet = { debug() {}, info() {}, warn() {}, error() {}, child: () => quiet };
const usage: ModelUsage = { model: "sim:test", calls: 2, inputTokens: 10, outputTokens: 4 };

function fakeLedger(opts: { balance?: number } = {}) {
  const reserved: ReserveRequest[] = [];
  const settled: SettleRequest[] = [];
  const ledger: MeteringLedger = {
    reserve: async (r) => {
      reserved.push(r);
      if ((opts.balance ?? 100) < r.units) return { ok: false, rejection: { type: "InsufficientCredits", available: opts.balance ?? 0, required: r.units } };
      return { ok: true, value: { reservationId: r.reservationId, balance: (opts.balance ?? 100) - r.units, windowRemaining: 60 - r.units } };
    },
    settle: async (s) => {
      settled.push(s);
      return { ok: true, value: { reservationId: s.reservationId, creditsUsed: s.unitsUsed, balance: 100 - s.unitsUsed, windowRemaining: 60 - s.unitsUsed, alreadySettled: false } };
    },
  };
  return { ledger, reserved, settled };
}

const attempt = (over: Partial<Attempt> = {}): Attempt => ({
  requestId: "req-1",
  runId: "req-1",
  caller: { accountId: "acct_1", keyId: "key_1" },
  units: 3,
  fetches: 2,
  receivedAt: Date.now(),
  clientGone: new AbortController().signal,
  reservationId: "req-1",
  onProgress: () => undefined,
  traceparent: null,
  log: quiet,
  ...over,
});

/** A third operation in a few lines: echo counts, using `used` units of the 3 reserved, or failing as told. */
function echoOperation(behaviour: { used?: number; fail?: Error; unfinished?: number; admit?: Error }): Operation<{ word: string }> & { seen: Settlement[] } {
  const seen: Settlement[] = [];
  return {
    name: "rank",
    kind: "scoring",
    timeoutMs: 10_000,
    seen,
    prepare: async () => ({ plan: { word: "hi" }, units: 3, fetches: 2, total: 1, async: false, webhookUrl: undefined }),
    ...(behaviour.admit ? { admit: () => Promise.reject(behaviour.admit) } : {}),
    async run(plan, ctx) {
      expect(ctx.workDeadline).toBeLessThan(Date.now() + 10_000);
      if (behaviour.fail) throw behaviour.unfinished !== undefined ? new UnfinishedWork(behaviour.fail, { unitsUsed: behaviour.unfinished, modelUsage: [usage] }) : behaviour.fail;
      return {
        unitsUsed: behaviour.used ?? 3,
        modelUsage: [usage],
        answer: (settlement) => {
          seen.push(settlement);
          return { said: plan.word, billed: settlement.units };
        },
      };
    },
  };
}

/** An outbox that keeps the settles it was given. */
const outbox = () => {
  const recorded: SettleOrder[] = [];
  return { recorded, record: async (o: SettleOrder) => void recorded.push(o), finish: async () => undefined };
};
const deps = (ledger: MeteringLedger, box = outbox(), cancelled: string[] = []) => ({ ledger, ledgerTimeoutMs: 500, now: Date.now, outbox: box, cancelRun: (runId: string) => void cancelled.push(runId) });

describe("runMetered", () => {
  it("reserves the most the request can use, settles what it used with its model calls, and answers from the ledger's figures", async () => {
    const { ledger, reserved, settled } = fakeLedger();
    const op = echoOperation({ used: 2 });
    const answer = await runMetered(deps(ledger), op, { word: "hi" }, attempt());
    expect(reserved).toEqual([{ kind: "scoring", accountId: "acct_1", keyId: "key_1", reservationId: "req-1", units: 3, fetches: 2 }]);
    expect(settled).toEqual([{ accountId: "acct_1", reservationId: "req-1", unitsUsed: 2, modelUsage: [usage] }]);
    expect(op.seen).toEqual([{ units: 2, creditsUsed: 2, creditsRemaining: 98, status: "confirmed" }]);
    expect(answer).toEqual({ body: { said: "hi", billed: 2 }, rateLimitRemaining: 58 });
  });

  it("reports the units and credits used as pending, never 0, when the ledger does not confirm the settlement in time", async () => {
    const ledger: MeteringLedger = {
      reserve: async (r) => ({ ok: true, value: { reservationId: r.reservationId, balance: 97, windowRemaining: 57 } }),
      settle: () => Promise.reject(new LedgerUnavailableError("timeout", "ledger.settle", "the ledger did not answer in time")),
    };
    const box = outbox();
    const op = { ...echoOperation({ used: 2 }), timeoutMs: 2_500 };
    const answer = await runMetered(deps(ledger, box), op, { word: "hi" }, attempt());
    expect(op.seen).toEqual([{ units: 2, creditsUsed: 2, creditsRemaining: null, status: "pending" }]);
    expect(box.recorded).toEqual([{ accountId: "acct_1", reservationId: "req-1", requestId: "req-1", unitsUsed: 2, modelUsage: [usage] }]);
    // The window figure is the reservation's, the last one the ledger confirmed.
    expect(answer.rateLimitRemaining).toBe(57);
  });

  it("settles what unfinished work says it used, and passes its cause on", async () => {
    const { ledger, settled } = fakeLedger();
    const cause = new Error("client left");
    await expect(runMetered(deps(ledger), echoOperation({ fail: cause, unfinished: 1 }), { word: "hi" }, attempt())).rejects.toBe(cause);
    expect(settled).toEqual([{ accountId: "acct_1", reservationId: "req-1", unitsUsed: 1, modelUsage: [usage] }]);
  });

  it("settles 0 when the work fails for any other reason", async () => {
    const { ledger, settled } = fakeLedger();
    const cause = new Error("bug");
    await expect(runMetered(deps(ledger), echoOperation({ fail: cause }), { word: "hi" }, attempt())).rejects.toBe(cause);
    expect(settled).toEqual([{ accountId: "acct_1", reservationId: "req-1", unitsUsed: 0 }]);
  });

  it("settles 0 for a free attempt (a takeover of work billed before its answer was lost)", async () => {
    const { ledger, settled } = fakeLedger();
    await runMetered(deps(ledger), echoOperation({ used: 3 }), { word: "hi" }, attempt({ free: true, alreadyReserved: { windowRemaining: 9 } }));
    expect(settled.map((s) => s.unitsUsed)).toEqual([0]);
  });

  it("reserves nothing when admission fails, and nothing more when the request was reserved already", async () => {
    const refused = fakeLedger();
    await expect(runMetered(deps(refused.ledger), echoOperation({ admit: new VotersUnavailableError() }), { word: "hi" }, attempt())).rejects.toBeInstanceOf(VotersUnavailableError);
    expect(refused.reserved).toEqual([]);
    expect(refused.settled).toEqual([]);

    const already = fakeLedger();
    await runMetered(deps(already.ledger), echoOperation({ used: 1 }), { word: "hi" }, attempt({ alreadyReserved: { windowRemaining: 9 } }));
    expect(already.reserved).toEqual([]);
    expect(already.settled).toHaveLength(1);
  });

  it("refuses before any work when the account cannot cover the reservation", async () => {
    const { ledger, settled } = fakeLedger({ balance: 2 });
    const op = echoOperation({ used: 1 });
    await expect(runMetered(deps(ledger), op, { word: "hi" }, attempt())).rejects.toBeInstanceOf(InsufficientCreditsError);
    expect(settled).toEqual([]);
    expect(op.seen).toEqual([]);
  });

  it("cancels the run's jobs when the work fails, and not when it finishes", async () => {
    const { ledger } = fakeLedger();
    const cancelled: string[] = [];
    await runMetered(deps(ledger, outbox(), cancelled), echoOperation({ used: 1 }), { word: "hi" }, attempt());
    expect(cancelled).toEqual([]);
    await expect(runMetered(deps(ledger, outbox(), cancelled), echoOperation({ fail: new Error("bug") }), { word: "hi" }, attempt({ runId: "run-2" }))).rejects.toThrow("bug");
    expect(cancelled).toEqual(["run-2"]);
  });

  it("cancels the run when its client leaves, bills what the work had set going and says so instead of answering", async () => {
    const { ledger, settled } = fakeLedger();
    const cancelled: string[] = [];
    const gone = new AbortController();
    const op: Operation<{ word: string }> = {
      ...echoOperation({}),
      async run(_plan, ctx) {
        gone.abort(new Error("client disconnected"));
        expect(ctx.stoppedBy()).toBe("client");
        throw new UnfinishedWork(new Error("stopped"), { unitsUsed: 2, modelUsage: [usage] });
      },
    };
    const failure = runMetered(deps(ledger, outbox(), cancelled), op, { word: "hi" }, attempt({ runId: "run-3", clientGone: gone.signal }));
    await expect(failure).rejects.toBeInstanceOf(ClientLeftError);
    await expect(failure).rejects.toThrow("The client disconnected before the answer was sent. The work it had set going was billed: 2 scoring evaluations that had succeeded or been dispatched to the models when it left (2 credits).");
    expect(settled.map((s) => s.unitsUsed)).toEqual([2]);
    expect(cancelled).toEqual(["run-3"]);
  });
});
