import { isLedgerUnavailable, type LedgerClient } from "@adrank/ledger-client";
import { InsufficientCreditsError, MeteringUnavailableError, RateLimitedError } from "../errors/api-errors.ts";

/** The part of the ledger client metering uses. */
export type MeteringLedger = Pick<LedgerClient, "reserve" | "settle">;

export interface MeteringLogger {
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface Reservation {
  /** Scoring evaluations and pairwise panels have separate rate windows. */
  kind: "scoring" | "pairwise";
  accountId: string;
  keyId: string;
  reservationId: string;
  units: number;
}

/**
 * Reserves the most units a request can use (evaluations, or panels) before any work. Refusals become the typed
 * errors of 402 and 429; a ledger that does not answer becomes MeteringUnavailableError
 * (nothing was done, nothing is charged).
 */
export async function reserveUsage(ledger: MeteringLedger, r: Reservation): Promise<{ balance: number; windowRemaining: number }> {
  let reply: Awaited<ReturnType<MeteringLedger["reserve"]>>;
  try {
    reply = await ledger.reserve(r);
  } catch (err) {
    if (isLedgerUnavailable(err)) throw new MeteringUnavailableError({ cause: err });
    throw err;
  }
  if (reply.ok) return reply.value;
  const rejection = reply.rejection;
  switch (rejection.type) {
    case "InsufficientCredits":
      throw new InsufficientCreditsError(rejection.available, rejection.required, r.kind);
    case "RateLimited":
      throw new RateLimitedError(rejection.retryAfter, rejection.resetAt, rejection.remaining, r.kind, rejection.limit);
    default:
      // Any other refusal is our bug (a duplicate reservation id, bad units): a 500 that charged nothing.
      throw new Error(`ledger refused the reservation: ${JSON.stringify(rejection)}`);
  }
}

export interface SettledUsage {
  unitsUsed: number;
  creditsUsed: number;
  balance: number;
  windowRemaining: number;
}

/**
 * Settles what the request used. Never throws: a failed settlement is logged and the open
 * reservation expires in the ledger, which releases its credits (the caller is not charged).
 */
export async function settleUsage(ledger: MeteringLedger, r: { accountId: string; reservationId: string; unitsUsed: number }, log: MeteringLogger): Promise<SettledUsage | null> {
  try {
    const reply = await ledger.settle(r);
    if (reply.ok) return { unitsUsed: r.unitsUsed, creditsUsed: reply.value.creditsUsed, balance: reply.value.balance, windowRemaining: reply.value.windowRemaining };
    log.error({ reservationId: r.reservationId, unitsUsed: r.unitsUsed, rejection: reply.rejection }, "ledger refused the settlement; the reservation will expire");
  } catch (err) {
    log.error({ err, reservationId: r.reservationId, unitsUsed: r.unitsUsed }, "settlement failed; the reservation will expire");
  }
  return null;
}
