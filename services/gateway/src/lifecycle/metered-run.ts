import { startDeadline } from "@adrank/runtime";
import type { Caller } from "../auth/authenticator.ts";
import { ClientLeftError } from "../errors/api-errors.ts";
import { reserveUsage, settleUsage, type MeteringLedger, type SettleOutcome, type SettlementOutbox } from "./metering.ts";
import { UnfinishedWork, type Operation, type Settlement, type UnfinishedUsage, type WorkLogger } from "./operation.ts";

export interface MeteringDeps {
  ledger: MeteringLedger;
  /** One ledger round trip (LEDGER_TIMEOUT_MS). */
  ledgerTimeoutMs: number;
  /** Where a settle the ledger did not confirm in time is kept until it is. */
  outbox: SettlementOutbox;
  /** Tells the workers to drop a run's queued jobs and stop its running ones before their next model call. */
  cancelRun(runId: string): void;
  now(): number;
}

/** One attempt at a request, as the lifecycle's modes hand it to the metered run. */
export interface Attempt {
  requestId: string;
  /** The id the attempt's jobs travel under: the request id, or a fresh one for a takeover. */
  runId: string;
  /** The authenticated key: its account pays, its window counts. */
  caller: Caller;
  /** The most units the request can use: what is reserved before any work. */
  units: number;
  /** Image URLs it makes us fetch (the account's fetch window). */
  fetches: number;
  /** Epoch ms the attempt started: its limit counts from here. */
  receivedAt: number;
  /** Fires when a plain request's client disconnects (never for a durable request: its work outlives the connection). */
  clientGone: AbortSignal;
  /** The ledger reservation; the request id unless a takeover had to reserve under another. */
  reservationId: string;
  /** Reserved already (an asynchronous request reserves before its 202; a takeover before it runs). */
  alreadyReserved?: { windowRemaining: number };
  /** Settle 0 whatever is used: a takeover rerunning work that was billed before its answer was lost. */
  free?: boolean;
  onProgress(done: number): void;
  traceparent: string | null;
  log: WorkLogger;
}

export interface MeteredAnswer {
  body: unknown;
  /** Units left in the key's current window (X-RateLimit-Remaining). */
  rateLimitRemaining: number;
}

/**
 * Time kept back from the request limit for settlement and the response, so the whole
 * request ends within its limit even when some work never answers and the settlement needs
 * a second attempt: two ledger round trips and a little, at most a tenth.
 */
export function settleMarginMs(timeoutMs: number, ledgerTimeoutMs: number): number {
  return Math.min(Math.floor(timeoutMs / 10), 2 * ledgerTimeoutMs + 500);
}

/**
 * Every operation in one shape: reserve the most it can use (402/429 before any work), run
 * it until its work deadline or until the client leaves, settle exactly what it used, answer.
 * Settlement runs however the work ends: work that throws `UnfinishedWork` pays what it says
 * it used; any other failure pays 0, because the caller gets an error and no results. The
 * model calls made are recorded either way. When a plain request's client left, the work
 * reports what it had set going (operations bill it by DispatchTally) and the run ends with
 * ClientLeftError, which says what was billed.
 */
export async function runMetered<Plan>(deps: MeteringDeps, operation: Operation<Plan>, plan: Plan, attempt: Attempt): Promise<MeteredAnswer> {
  const { log } = attempt;
  const admitted = operation.admit ? await operation.admit(plan) : plan;
  const reservation =
    attempt.alreadyReserved ??
    (await reserveUsage(deps.ledger, { kind: operation.kind, accountId: attempt.caller.accountId, keyId: attempt.caller.keyId, reservationId: attempt.reservationId, units: attempt.units, fetches: attempt.fetches }, log));

  const limitAt = attempt.receivedAt + operation.timeoutMs;
  const workDeadline = limitAt - settleMarginMs(operation.timeoutMs, deps.ledgerTimeoutMs);
  const deadline = startDeadline(workDeadline - deps.now());
  const stop = AbortSignal.any([deadline.signal, attempt.clientGone]);
  // A run that ends early (the client left, the work deadline passed, the work failed) cancels
  // its jobs: nobody will read their results, and every model call they make is paid for by us.
  let cancelled = false;
  const cancelRun = () => {
    if (!cancelled) deps.cancelRun(attempt.runId);
    cancelled = true;
  };
  stop.addEventListener("abort", cancelRun, { once: true });
  const stoppedBy = () => (attempt.clientGone.aborted ? "client" : deadline.signal.aborted ? "deadline" : null);
  const settle = (used: UnfinishedUsage) =>
    settleUsage(
      deps.ledger,
      {
        accountId: attempt.caller.accountId,
        reservationId: attempt.reservationId,
        requestId: attempt.requestId,
        unitsUsed: attempt.free ? 0 : used.unitsUsed,
        ...(used.modelUsage.length > 0 ? { modelUsage: used.modelUsage } : {}),
      },
      log,
      { limitAt, ledgerTimeoutMs: deps.ledgerTimeoutMs, now: deps.now },
      deps.outbox,
    );
  const logMetered = (unitsUsed: number, settled: SettleOutcome) =>
    log.info(
      { kind: operation.kind, reserved: attempt.units, used: unitsUsed, settlement: settled.status, clientGone: attempt.clientGone.aborted, deadlineReached: deadline.signal.aborted },
      `${operation.kind} request metered`,
    );

  try {
    let done: Awaited<ReturnType<Operation<Plan>["run"]>>;
    try {
      done = await operation.run(admitted, {
        requestId: attempt.requestId,
        runId: attempt.runId,
        caller: attempt.caller,
        workDeadline,
        stop,
        stoppedBy,
        onProgress: attempt.onProgress,
        traceparent: attempt.traceparent,
        log,
      });
    } catch (err) {
      cancelRun();
      const used: UnfinishedUsage = err instanceof UnfinishedWork ? err.used : { unitsUsed: 0, modelUsage: [] };
      const settled = await settle(used);
      logMetered(used.unitsUsed, settled);
      const cause = err instanceof UnfinishedWork ? err.cause : err;
      if (attempt.clientGone.aborted) throw new ClientLeftError(operation.kind, settlementOf(settled), { cause });
      throw cause;
    }
    const settled = await settle(done);
    logMetered(done.unitsUsed, settled);
    // No answer for a client that is gone: the request is stored with what it was billed.
    if (attempt.clientGone.aborted) throw new ClientLeftError(operation.kind, settlementOf(settled));
    return { body: done.answer(settlementOf(settled)), rateLimitRemaining: (settled.status === "confirmed" ? settled.windowRemaining : null) ?? reservation.windowRemaining };
  } finally {
    stop.removeEventListener("abort", cancelRun);
    deadline.clear();
  }
}

/**
 * What the answer reports: the ledger's figures, or, while its confirmation is pending, the
 * units used and what they cost (one credit each), with the balance unknown. Never 0 for work
 * that was charged: the outbox makes sure the charge happens.
 */
function settlementOf(settled: SettleOutcome): Settlement {
  return settled.status === "confirmed"
    ? { units: settled.unitsUsed, creditsUsed: settled.creditsUsed, creditsRemaining: settled.balance, status: "confirmed" }
    : { units: settled.unitsUsed, creditsUsed: settled.unitsUsed, creditsRemaining: null, status: "pending" };
}
