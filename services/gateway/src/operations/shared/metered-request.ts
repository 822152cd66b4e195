import type { ModelUsage } from "@adrank/bus-contracts";
import type { UsageKind } from "@adrank/contracts";
import { startDeadline } from "@adrank/runtime";
import { reserveUsage, settleUsage, type MeteringLedger, type MeteringLogger, type SettledUsage } from "./metering.ts";

export interface MeteredDeps {
  ledger: MeteringLedger;
  /** The request's limit, counted from its arrival (RANK_TIMEOUT_MS, PAIRWISE_TIMEOUT_MS). */
  timeoutMs: number;
  /** One ledger round trip (LEDGER_TIMEOUT_MS). */
  ledgerTimeoutMs: number;
  now(): number;
}

export interface MeteredCall {
  requestId: string;
  /** The authenticated key: its account pays, its window counts. */
  caller: { accountId: string; keyId: string };
  kind: UsageKind;
  /** The most units the request can use: what is reserved before any work. */
  units: number;
  /** Epoch ms when the request arrived. */
  receivedAt: number;
  /** Fires when the client disconnects before the response (never, for a durable request: its work outlives the connection). */
  clientGone: AbortSignal;
  /** The ledger reservation; the request id unless a takeover had to reserve under another. */
  reservationId?: string;
  /** Reserved already (an asynchronous request reserves before its 202; a takeover before it runs). */
  alreadyReserved?: { windowRemaining: number };
  /** Settle 0 whatever is used: a takeover rerunning work that was billed before its answer was lost. */
  free?: boolean;
  log: MeteringLogger & { info(obj: object, msg?: string): void };
}

/** What the work gets: when to stop, and why it stopped. */
export interface MeteredWork {
  /** Epoch ms by which the work must end (settlement keeps the rest): what workers are told. */
  workDeadline: number;
  /** Fires at the work deadline or when the client leaves. */
  stop: AbortSignal;
  /** Why `stop` fired; `null` while it has not. */
  stoppedBy(): "client" | "deadline" | null;
}

/** What finished work hands back: the units it used, and how to answer once they are settled. */
export interface FinishedWork<T> {
  unitsUsed: number;
  /** What the work cost in model calls and tokens, per model: recorded with the settlement. */
  modelUsage: ModelUsage[];
  /** Builds the answer from the settlement (null: it could not be confirmed, nothing was charged). */
  respond(settled: SettledUsage | null, unitsUsed: number): T;
}

export interface MeteredResult<T> {
  body: T;
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

/** What work that did not finish used anyway: the units to charge and the model calls made. */
export interface UnfinishedUsage {
  unitsUsed: number;
  modelUsage: ModelUsage[];
}

/**
 * Every metered operation in one shape: reserve the most it can use (402/429 before any
 * work), do the work until the work deadline or until the client leaves, settle exactly
 * what it used, answer. Settlement runs however the work ends. When the work throws,
 * `unfinished()` says what was used anyway (the client left: what succeeded; our own
 * failure: 0, because the caller gets a 500 and no results).
 */
export async function runMetered<T>(
  deps: MeteredDeps,
  call: MeteredCall,
  work: (ctx: MeteredWork) => Promise<FinishedWork<T>>,
  unfinished: () => UnfinishedUsage,
): Promise<MeteredResult<T>> {
  const { log } = call;
  const reservationId = call.reservationId ?? call.requestId;
  const reservation =
    call.alreadyReserved ?? (await reserveUsage(deps.ledger, { kind: call.kind, accountId: call.caller.accountId, keyId: call.caller.keyId, reservationId, units: call.units }, log));

  const workDeadline = call.receivedAt + deps.timeoutMs - settleMarginMs(deps.timeoutMs, deps.ledgerTimeoutMs);
  const deadline = startDeadline(workDeadline - deps.now());
  const stop = AbortSignal.any([deadline.signal, call.clientGone]);
  const stoppedBy = () => (call.clientGone.aborted ? "client" : deadline.signal.aborted ? "deadline" : null);
  const settle = (unitsUsed: number, modelUsage: ModelUsage[]) =>
    settleUsage(deps.ledger, { accountId: call.caller.accountId, reservationId, unitsUsed: call.free ? 0 : unitsUsed, ...(modelUsage.length > 0 ? { modelUsage } : {}) }, log, {
      limitAt: call.receivedAt + deps.timeoutMs,
      ledgerTimeoutMs: deps.ledgerTimeoutMs,
      now: deps.now,
    });

  let finished = false;
  let unitsUsed = 0;
  let settled: SettledUsage | null = null;
  try {
    const done = await work({ workDeadline, stop, stoppedBy });
    finished = true;
    unitsUsed = done.unitsUsed;
    settled = await settle(unitsUsed, done.modelUsage);
    return { body: done.respond(settled, unitsUsed), rateLimitRemaining: settled?.windowRemaining ?? reservation.windowRemaining };
  } finally {
    if (!finished) {
      const used = unfinished();
      unitsUsed = used.unitsUsed;
      settled = await settle(unitsUsed, used.modelUsage);
    }
    log.info({ kind: call.kind, reserved: call.units, used: unitsUsed, settled: settled !== null, clientGone: call.clientGone.aborted, deadlineReached: deadline.signal.aborted }, `${call.kind} request metered`);
    deadline.clear();
  }
}
