import { closedGet } from "./closed-index.ts";
import { USAGE_KINDS, type LedgerEvent, type ModelUsage, type UsageKind } from "./events.ts";
import { ACCOUNT_RATE_LIMITS, ACCOUNT_REQUEST_LIMITS, MAX_CREDITS_PER_GRANT, MAX_FETCHES_PER_RESERVATION, RATE_LIMITS, type AccountRateLimits, type AccountRequestLimits } from "./limits.ts";
import { normalizeModelUsage } from "./model-usage.ts";
import { availableCredits, windowRemaining } from "./queries.ts";
import type { RateLimited, RateWindow, Rejection } from "./rejections.ts";
import { fetchesFitAt, requestFitsAt } from "./request-window.ts";
import type { AccountState } from "./state.ts";
import { accountEntries, windowKey, windowVerdict } from "./window.ts";

export interface GrantCredits {
  type: "GrantCredits";
  grantId: string;
  credits: number;
  reason?: string;
}

export interface ReserveUsage {
  type: "ReserveUsage";
  /** The API request id: one reservation per request. */
  reservationId: string;
  keyId: string;
  kind: UsageKind;
  units: number;
  /** Image URLs the request makes the gateway fetch (the fetch window); absent is 0, as from callers that predate it. */
  fetches?: number;
}

export interface SettleUsage {
  type: "SettleUsage";
  reservationId: string;
  /** Successful evaluations (or completed panels); the rest of the reservation is released. */
  unitsUsed: number;
  /** Calls and tokens per model the request spent (cost accounting; charges nothing). */
  modelUsage?: readonly ModelUsage[];
}

export interface ExpireReservation {
  type: "ExpireReservation";
  reservationId: string;
}

export type LedgerCommand = GrantCredits | ReserveUsage | SettleUsage | ExpireReservation;
export type LedgerCommandType = LedgerCommand["type"];

export type Decision = { events: LedgerEvent[] } | { rejection: Rejection };

/**
 * Decides one command against an account's state at `now` (epoch ms). Pure: the clock, the
 * ids and the account windows' limits (the ledger's configuration: units per kind, requests
 * and fetches) come in; nothing is read or changed. The limits only shape decisions, never
 * the state, so replay needs none.
 *
 * @example
 * const d = decide({ type: "GrantCredits", grantId: "g1", credits: 100 }, initialState(), Date.now());
 * if ("events" in d) state = d.events.reduce(evolve, state);
 */
export function decide(
  command: LedgerCommand,
  state: AccountState,
  now: number,
  accountLimits: AccountRateLimits = ACCOUNT_RATE_LIMITS,
  requestLimits: AccountRequestLimits = ACCOUNT_REQUEST_LIMITS,
): Decision {
  switch (command.type) {
    case "GrantCredits":
      return grant(command, state, now);
    case "ReserveUsage":
      return reserve(command, state, now, accountLimits, requestLimits);
    case "SettleUsage":
      return settle(command, state, now);
    case "ExpireReservation":
      return expire(command, state, now);
    default: {
      const unknown: never = command;
      return invalid(`unknown command ${JSON.stringify((unknown as { type?: unknown }).type)}`);
    }
  }
}

const invalid = (reason: string): Decision => ({ rejection: { type: "InvalidCommand", reason } });
const isId = (v: unknown): v is string => typeof v === "string" && v.length > 0;
const isCount = (v: unknown, min: number, max: number): v is number => Number.isSafeInteger(v) && (v as number) >= min && (v as number) <= max;

function grant(c: GrantCredits, state: AccountState, now: number): Decision {
  if (!isId(c.grantId)) return invalid("grantId must be a non-empty string");
  if (!isCount(c.credits, 1, MAX_CREDITS_PER_GRANT)) return invalid(`credits must be an integer from 1 to ${MAX_CREDITS_PER_GRANT}`);
  const earlier = state.grants.get(c.grantId);
  if (earlier !== undefined) return { rejection: { type: "DuplicateGrant", grantId: c.grantId, credits: earlier } };
  return { events: [{ type: "CreditsGranted", grantId: c.grantId, credits: c.credits, ...(c.reason ? { reason: c.reason } : {}), at: now }] };
}

function reserve(c: ReserveUsage, state: AccountState, now: number, accountLimits: AccountRateLimits, requestLimits: AccountRequestLimits): Decision {
  if (!isId(c.reservationId)) return invalid("reservationId must be a non-empty string");
  if (!isId(c.keyId)) return invalid("keyId must be a non-empty string");
  if (!USAGE_KINDS.includes(c.kind)) return invalid(`kind must be one of ${USAGE_KINDS.join(", ")}`);
  const limit = Math.min(RATE_LIMITS[c.kind], accountLimits[c.kind]);
  // More units than a window holds could never be admitted: that is a malformed request, not a 429.
  if (!isCount(c.units, 1, limit)) return invalid(`units must be an integer from 1 to ${limit}`);
  // Likewise more fetches than the fetch window holds.
  const maxFetches = Math.min(MAX_FETCHES_PER_RESERVATION, requestLimits.fetches);
  const fetches = c.fetches ?? 0;
  if (!isCount(fetches, 0, maxFetches)) return invalid(`fetches must be an integer from 0 to ${maxFetches}`);

  const open = state.open.get(c.reservationId);
  const closed = open ? undefined : closedGet(state.closed, c.reservationId);
  if (open || closed) return { rejection: { type: "DuplicateReservation", reservationId: c.reservationId, status: open ? "open" : closed!.status } };

  // Credits before the window: a 402 does not go away by waiting, a 429 does.
  const available = availableCredits(state);
  if (available < c.units) return { rejection: { type: "InsufficientCredits", available: Math.max(0, available), required: c.units } };

  const limited = rateLimited(c, fetches, state, now, accountLimits, requestLimits);
  if (limited) return { rejection: limited };
  // `fetches` only when there are some, so events of callers that send none stay as they were.
  return { events: [{ type: "UsageReserved", reservationId: c.reservationId, keyId: c.keyId, kind: c.kind, units: c.units, ...(fetches > 0 ? { fetches } : {}), at: now }] };
}

/**
 * The reservation must fit every window it weighs on: the key's units, the account's units
 * (all its keys together), the account's requests and, when it fetches any, the account's
 * fetches. When one is full, retryAfter is when it has room; when several are, when the last
 * of them has (the request needs all), and that window is named.
 */
function rateLimited(c: ReserveUsage, fetches: number, state: AccountState, now: number, accountLimits: AccountRateLimits, requestLimits: AccountRequestLimits): RateLimited | null {
  const keyLimit = RATE_LIMITS[c.kind];
  const windows: Array<{ window: RateWindow; limit: number; fitsAt: number | null }> = [
    { window: "key", limit: keyLimit, fitsAt: windowVerdict(state.windows.get(windowKey(c.kind, c.keyId)), c.units, keyLimit, now).fitsAt },
    { window: "account", limit: accountLimits[c.kind], fitsAt: windowVerdict(accountEntries(state.windows, c.kind), c.units, accountLimits[c.kind], now).fitsAt },
    { window: "requests", limit: requestLimits.requests, fitsAt: requestFitsAt(state.requests, requestLimits.requests, now) },
    { window: "fetches", limit: requestLimits.fetches, fitsAt: fetchesFitAt(state.requests, fetches, requestLimits.fetches, now) },
  ];
  let refused: { window: RateWindow; limit: number; fitsAt: number } | null = null;
  for (const { window, limit, fitsAt } of windows) {
    // Strictly later: on a tie the earlier window in the list is named (the key's first, as before the others existed).
    if (fitsAt !== null && (refused === null || fitsAt > refused.fitsAt)) refused = { window, limit, fitsAt };
  }
  if (refused === null) return null;
  return {
    type: "RateLimited",
    kind: c.kind,
    window: refused.window,
    limit: refused.limit,
    retryAfter: Math.max(1, Math.ceil((refused.fitsAt - now) / 1_000)),
    resetAt: Math.ceil(refused.fitsAt / 1_000),
    remaining: windowRemaining(state, c.keyId, c.kind, now, accountLimits),
  };
}

function settle(c: SettleUsage, state: AccountState, now: number): Decision {
  if (!isId(c.reservationId)) return invalid("reservationId must be a non-empty string");
  if (!isCount(c.unitsUsed, 0, Number.MAX_SAFE_INTEGER)) return invalid("unitsUsed must be an integer >= 0");
  const modelUsage = c.modelUsage === undefined ? [] : normalizeModelUsage(c.modelUsage);
  if (typeof modelUsage === "string") return invalid(modelUsage);
  const r = state.open.get(c.reservationId);
  if (r) {
    if (c.unitsUsed > r.units) return { rejection: { type: "SettleExceedsReservation", reservationId: r.reservationId, reserved: r.units, unitsUsed: c.unitsUsed } };
    const { reservationId, keyId, kind, units: unitsReserved, reservedAt } = r;
    return {
      events: [{ type: "UsageSettled", reservationId, keyId, kind, unitsReserved, unitsUsed: c.unitsUsed, reservedAt, ...(modelUsage.length > 0 ? { modelUsage } : {}), at: now }],
    };
  }
  // A repeat is refused before anything is recorded, so the first settlement's model usage is the only one counted.
  const closed = closedGet(state.closed, c.reservationId);
  if (closed?.status === "settled") return { rejection: { type: "AlreadySettled", reservationId: c.reservationId, unitsUsed: closed.unitsUsed } };
  if (closed?.status === "expired") return { rejection: { type: "ReservationAlreadyExpired", reservationId: c.reservationId, expiredAt: closed.closedAt } };
  return { rejection: { type: "UnknownReservation", reservationId: c.reservationId } };
}

function expire(c: ExpireReservation, state: AccountState, now: number): Decision {
  if (!isId(c.reservationId)) return invalid("reservationId must be a non-empty string");
  const r = state.open.get(c.reservationId);
  if (r) {
    return { events: [{ type: "ReservationExpired", reservationId: r.reservationId, keyId: r.keyId, kind: r.kind, unitsReserved: r.units, reservedAt: r.reservedAt, at: now }] };
  }
  const closed = closedGet(state.closed, c.reservationId);
  if (closed) return { rejection: { type: "ReservationClosed", reservationId: c.reservationId, status: closed.status } };
  return { rejection: { type: "UnknownReservation", reservationId: c.reservationId } };
}
