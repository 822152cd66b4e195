import type { ModelUsage } from "@adrank/bus-contracts";
import type { UsageKind } from "@adrank/contracts";
import { isLedgerUnavailable, type LedgerClient, type Rejection } from "@adrank/ledger-client";
import { InsufficientCreditsError, MeteringUnavailableError, RateLimitedError } from "../errors/api-errors.ts";

/** The part of the ledger client metering uses. */
export type MeteringLedger = Pick<LedgerClient, "reserve" | "settle">;

export interface MeteringLogger {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface Reservation {
  /** Scoring evaluations and pairwise panels have separate rate windows. */
  kind: UsageKind;
  accountId: string;
  keyId: string;
  reservationId: string;
  units: number;
  /** Image URLs the request makes us fetch: counted in the account's fetch window (0 for none). */
  fetches: number;
}

/**
 * Reserves the most units a request can use (evaluations, or panels) before any work. Refusals become the typed
 * errors of 402 and 429; a ledger that does not answer becomes MeteringUnavailableError
 * (no work is done and nothing is charged).
 */
export async function reserveUsage(ledger: MeteringLedger, r: Reservation, log: MeteringLogger): Promise<{ balance: number; windowRemaining: number }> {
  let reply: Awaited<ReturnType<MeteringLedger["reserve"]>>;
  try {
    reply = await ledger.reserve(r);
  } catch (err) {
    if (isLedgerUnavailable(err)) {
      // Sent but unanswered: the ledger may have made it.
      if (err.reason === "timeout" || err.reason === "connection") releaseUnansweredReservation(ledger, r, log);
      throw new MeteringUnavailableError({ cause: err });
    }
    throw err;
  }
  if (reply.ok) return reply.value;
  throw refusalOf(reply.rejection, r.kind);
}

/** A ledger refusal of a reservation as the typed error of its status (402, 429; anything else is our bug: 500). */
export function refusalOf(rejection: Rejection, kind: UsageKind): Error {
  switch (rejection.type) {
    case "InsufficientCredits":
      return new InsufficientCreditsError(rejection.available, rejection.required, kind);
    case "RateLimited":
      return new RateLimitedError(rejection.retryAfter, rejection.resetAt, rejection.remaining, kind, rejection.limit, rejection.window);
    default:
      // Any other refusal is our bug (a duplicate reservation id, bad units): a 500 that charged nothing.
      return new Error(`ledger refused the reservation: ${JSON.stringify(rejection)}`);
  }
}

/** How a settle ended for the answer: confirmed by the ledger, or recorded durably and still on its way. */
export type SettleOutcome =
  | {
      status: "confirmed";
      unitsUsed: number;
      /** What the ledger charged: 0 when it refused the settle (the reservation had closed; nothing was charged). */
      creditsUsed: number;
      /** Available credits after; null when the ledger refused the settle. */
      balance: number | null;
      /** Units left in the key's window; null when the ledger refused the settle. */
      windowRemaining: number | null;
    }
  | { status: "pending"; unitsUsed: number };

/** A settle to apply later, with who it is for. */
export interface SettleOrder {
  accountId: string;
  reservationId: string;
  /** The request whose stored answer reports it. */
  requestId: string;
  unitsUsed: number;
  modelUsage?: ModelUsage[];
}

/**
 * Where a settle the ledger has not confirmed is kept until it is (Postgres: the gateway's
 * relay applies it and brings the stored answer up to date; see settlement-relay.ts).
 */
export interface SettlementOutbox {
  record(order: SettleOrder): Promise<void>;
  /** The ledger answered after all, while the request was still waiting. */
  finish(reservationId: string, end: { state: "applied"; creditsUsed: number; balance: number } | { state: "refused"; reason: string }): Promise<void>;
}

export interface SettleRetry {
  /** Epoch ms: the request's own limit. The last attempt starts early enough to end by it. */
  limitAt: number;
  /** One ledger round trip. The last attempt starts two round trips before the limit: one for it, one for the answer to reach the caller. */
  ledgerTimeoutMs: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const FIRST_BACKOFF_MS = 200;
const MAX_BACKOFF_MS = 1_000;
/** Long enough for a NATS reconnect after a blip; short enough that a ledger outage does not hold every answer to the request limit. */
export const CONFIRM_WINDOW_MS = 15_000;
/** With no outbox to record in, how long this process keeps asking on its own: the ledger's default reservation TTL. */
const UNRECORDED_RETRY_MS = 300_000;
const UNRECORDED_BACKOFF_MS = 5_000;

/**
 * Settles what the request used. The first attempt that goes unanswered records the settle in
 * the outbox before anything else, so it is applied whatever happens to this process; then it
 * keeps asking until the ledger confirms (a lost reply's repeat carries the same reservation
 * id, and the ledger answers it with the first settlement's outcome) or its time is up: at most
 * CONFIRM_WINDOW_MS, and never past the request's limit. Then the answer says "pending" with
 * the units used, and the outbox's relay finishes the job. Never throws.
 */
export async function settleUsage(ledger: MeteringLedger, r: SettleOrder, log: MeteringLogger, retry: SettleRetry, outbox: SettlementOutbox): Promise<SettleOutcome> {
  const now = retry.now ?? Date.now;
  const giveUpAt = Math.min(retry.limitAt - 2 * retry.ledgerTimeoutMs, now() + CONFIRM_WINDOW_MS);
  const sleep = retry.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const settle = { accountId: r.accountId, reservationId: r.reservationId, unitsUsed: r.unitsUsed, ...(r.modelUsage ? { modelUsage: r.modelUsage } : {}) };
  let recorded: Promise<boolean> | null = null;
  for (let attempt = 1, backoff = FIRST_BACKOFF_MS; ; attempt++, backoff = Math.min(backoff * 2, MAX_BACKOFF_MS)) {
    try {
      const reply = await ledger.settle(settle);
      if (reply.ok) {
        if (recorded && (await recorded)) void outbox.finish(r.reservationId, { state: "applied", creditsUsed: reply.value.creditsUsed, balance: reply.value.balance }).catch(() => undefined);
        return { status: "confirmed", unitsUsed: r.unitsUsed, creditsUsed: reply.value.creditsUsed, balance: reply.value.balance, windowRemaining: reply.value.windowRemaining };
      }
      // The reservation had closed (expired or unknown): nothing was or will be charged. Our bug: logged loudly.
      log.error({ reservationId: r.reservationId, unitsUsed: r.unitsUsed, rejection: reply.rejection, attempt }, "ledger refused the settlement: nothing was charged");
      if (recorded && (await recorded)) void outbox.finish(r.reservationId, { state: "refused", reason: JSON.stringify(reply.rejection) }).catch(() => undefined);
      return { status: "confirmed", unitsUsed: r.unitsUsed, creditsUsed: 0, balance: null, windowRemaining: null };
    } catch (err) {
      // Unanswered, or answered with something we could not read: it may have been applied.
      recorded ??= outbox.record(r).then(
        () => true,
        (e: unknown) => {
          log.error({ err: e, reservationId: r.reservationId }, "could not record the unconfirmed settlement; this process keeps asking the ledger on its own");
          return false;
        },
      );
      if (now() + backoff > giveUpAt) {
        const durable = await recorded;
        log.warn({ err, reservationId: r.reservationId, unitsUsed: r.unitsUsed, attempt, durable }, "settlement not confirmed in time; the answer says it is pending");
        if (!durable) keepSettling(ledger, settle, log, now, sleep);
        return { status: "pending", unitsUsed: r.unitsUsed };
      }
      log.warn({ reason: isLedgerUnavailable(err) ? err.reason : "unexpected", reservationId: r.reservationId, attempt, retryInMs: backoff }, "settlement not confirmed yet; asking the ledger again");
      await sleep(backoff);
    }
  }
}

/** The last resort when Postgres could not take the settle either: ask the ledger from here until the reservation would expire. */
function keepSettling(ledger: MeteringLedger, settle: Omit<SettleOrder, "requestId">, log: MeteringLogger, now: () => number, sleep: (ms: number) => Promise<void>): void {
  const until = now() + UNRECORDED_RETRY_MS;
  void (async () => {
    while (now() < until) {
      await sleep(UNRECORDED_BACKOFF_MS);
      try {
        const reply = await ledger.settle(settle);
        if (!reply.ok) log.error({ reservationId: settle.reservationId, rejection: reply.rejection }, "ledger refused a settlement retried in the background: nothing was charged");
        return;
      } catch {
        // Still unreachable: try again.
      }
    }
    log.error({ reservationId: settle.reservationId, unitsUsed: settle.unitsUsed }, "gave up on an unrecorded settlement: its reservation expires and charges nothing");
  })();
}

/**
 * After a reservation whose answer never came back: it may have been made, so release it at
 * once (settle 0) rather than hold the caller's credits and window until it expires. An
 * unknown reservation is refused harmlessly; a failure leaves it to expiry.
 */
export function releaseUnansweredReservation(ledger: MeteringLedger, r: { accountId: string; reservationId: string }, log: MeteringLogger): void {
  ledger.settle({ ...r, unitsUsed: 0 }).then(
    (reply) => {
      if (reply.ok) log.warn({ reservationId: r.reservationId }, "released a reservation whose answer was lost");
    },
    (err: unknown) => log.warn({ err, reservationId: r.reservationId }, "could not release a reservation whose answer was lost; it will expire"),
  );
}
