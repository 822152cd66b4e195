import { startDeadline } from "@adrank/runtime";
import type { Caller } from "../auth/authenticator.ts";
import { reserveUsage, settleUsage, type MeteringLedger, type SettledUsage } from "./metering.ts";
import { UnfinishedWork, type Operation, type Settlement, type UnfinishedUsage, type WorkLogger } from "./operation.ts";

export interface MeteringDeps {
  ledger: MeteringLedger;
  /** One ledger round trip (LEDGER_TIMEOUT_MS). */
  ledgerTimeoutMs: number;
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
 * it used (rank: a client that left pays for what succeeded); any other failure pays 0,
 * because the caller gets an error and no results. The model calls made are recorded either way.
 */
export async function runMetered<Plan>(deps: MeteringDeps, operation: Operation<Plan>, plan: Plan, attempt: Attempt): Promise<MeteredAnswer> {
  const { log } = attempt;
  const admitted = operation.admit ? await operation.admit(plan) : plan;
  const reservation =
    attempt.alreadyReserved ??
    (await reserveUsage(deps.ledger, { kind: operation.kind, accountId: attempt.caller.accountId, keyId: attempt.caller.keyId, reservationId: attempt.reservationId, units: attempt.units }, log));

  const limitAt = attempt.receivedAt + operation.timeoutMs;
  const workDeadline = limitAt - settleMarginMs(operation.timeoutMs, deps.ledgerTimeoutMs);
  const deadline = startDeadline(workDeadline - deps.now());
  const stop = AbortSignal.any([deadline.signal, attempt.clientGone]);
  const stoppedBy = () => (attempt.clientGone.aborted ? "client" : deadline.signal.aborted ? "deadline" : null);
  const settle = (used: UnfinishedUsage) =>
    settleUsage(
      deps.ledger,
      { accountId: attempt.caller.accountId, reservationId: attempt.reservationId, unitsUsed: attempt.free ? 0 : used.unitsUsed, ...(used.modelUsage.length > 0 ? { modelUsage: used.modelUsage } : {}) },
      log,
      { limitAt, ledgerTimeoutMs: deps.ledgerTimeoutMs, now: deps.now },
    );
  const logMetered = (unitsUsed: number, settled: SettledUsage | null) =>
    log.info(
      { kind: operation.kind, reserved: attempt.units, used: unitsUsed, settled: settled !== null, clientGone: attempt.clientGone.aborted, deadlineReached: deadline.signal.aborted },
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
      const used: UnfinishedUsage = err instanceof UnfinishedWork ? err.used : { unitsUsed: 0, modelUsage: [] };
      logMetered(used.unitsUsed, await settle(used));
      throw err instanceof UnfinishedWork ? err.cause : err;
    }
    const settled = await settle(done);
    logMetered(done.unitsUsed, settled);
    return { body: done.answer(settlementOf(settled, done.unitsUsed)), rateLimitRemaining: settled?.windowRemaining ?? reservation.windowRemaining };
  } finally {
    deadline.clear();
  }
}

/** What the answer reports: the ledger's figures, or, unconfirmed, the units used, nothing charged and no balance. */
function settlementOf(settled: SettledUsage | null, unitsUsed: number): Settlement {
  return settled
    ? { units: settled.unitsUsed, creditsUsed: settled.creditsUsed, creditsRemaining: settled.balance, confirmed: true }
    : { units: unitsUsed, creditsUsed: 0, creditsRemaining: null, confirmed: false };
}
