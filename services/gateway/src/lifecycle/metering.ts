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

export interface SettledUsage {
  unitsUsed: number;
  creditsUsed: number;
  balance: number;
  windowRemaining: number;
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
const CONFIRM_WINDOW_MS = 15_000;

/**
 * Settles what the request used, and keeps asking until the ledger confirms it or time runs
 * out. A settle whose reply was lost may still have been applied; the repeat carries the
 * same reservation id, so the ledger answers it with the first settlement's outcome and the
 * response reports what was really charged. Never throws: an unconfirmed settlement is
 * logged, returns null, and the open reservation expires in the ledger, which charges nothing.
 * It keeps asking for at most CONFIRM_WINDOW_MS, and never past the request's limit.
 */
export async function settleUsage(
  ledger: MeteringLedger,
  r: { accountId: string; reservationId: string; unitsUsed: number; modelUsage?: ModelUsage[] },
  log: MeteringLogger,
  retry: SettleRetry,
): Promise<SettledUsage | null> {
  const now = retry.now ?? Date.now;
  const giveUpAt = Math.min(retry.limitAt - 2 * retry.ledgerTimeoutMs, now() + CONFIRM_WINDOW_MS);
  const sleep = retry.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  for (let attempt = 1, backoff = FIRST_BACKOFF_MS; ; attempt++, backoff = Math.min(backoff * 2, MAX_BACKOFF_MS)) {
    try {
      const reply = await ledger.settle(r);
      if (reply.ok) return { unitsUsed: r.unitsUsed, creditsUsed: reply.value.creditsUsed, balance: reply.value.balance, windowRemaining: reply.value.windowRemaining };
      log.error({ reservationId: r.reservationId, unitsUsed: r.unitsUsed, rejection: reply.rejection, attempt }, "ledger refused the settlement; the reservation will expire");
      return null;
    } catch (err) {
      if (!isLedgerUnavailable(err) || now() + backoff > giveUpAt) {
        log.error({ err, reservationId: r.reservationId, unitsUsed: r.unitsUsed, attempt }, "settlement not confirmed; the reservation will expire unless an attempt got through");
        return null;
      }
      log.warn({ reason: err.reason, reservationId: r.reservationId, attempt, retryInMs: backoff }, "settlement not confirmed yet; asking the ledger again");
      await sleep(backoff);
    }
  }
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
