import type { UsageKind } from "./events.ts";

/**
 * Length of the trailing rate window. A settled unit reserved at t counts for now in
 * [t, t + WINDOW_MS); an open reservation counts until it is settled or expires.
 */
export const WINDOW_MS = 60_000;

/**
 * The retryAfter estimate for an open reservation that has outlived the window: it frees
 * the moment its request settles or expires, which cannot be foreseen, so a 429 waiting on
 * it says "try again in 1 s" (a lower bound) rather than inventing a later moment.
 */
export const OPEN_RESERVATION_RETRY_MS = 1_000;

/** Units one API key may have counted in any trailing window, per kind (DESIGN.md, "Contract decisions"); the account window (below) bounds all keys together. */
export const RATE_LIMITS: Readonly<Record<UsageKind, number>> = { scoring: 60, pairwise: 60 };

/** Units per kind that all keys of one account may have counted together in any trailing window. */
export type AccountRateLimits = Readonly<Record<UsageKind, number>>;

/**
 * The default account window (the ledger's LEDGER_ACCOUNT_RATE_LIMIT_SCORING / _PAIRWISE
 * override it): three keys' worth. Without it every new key was another 60 units a minute.
 * Three keeps the per-key limit the one a caller meets in practice (production, staging and
 * the console's playground key can each run at full speed at once) while an account with
 * many keys gets 180 a minute, not 60 per key. Never below the key limit: a request the key
 * window admits must be able to fit the account's.
 */
export const ACCOUNT_RATE_LIMITS: AccountRateLimits = { scoring: 180, pairwise: 180 };

/** Requests, and the image URLs they make the gateway fetch, that all keys of one account may make together in any trailing window. */
export interface AccountRequestLimits {
  /** Reservations admitted, whatever they are later settled for (0 included). */
  readonly requests: number;
  /** Image URLs those reservations said they would fetch. */
  readonly fetches: number;
}

/**
 * The default request and fetch windows (the ledger's LEDGER_ACCOUNT_REQUEST_LIMIT /
 * LEDGER_ACCOUNT_FETCH_LIMIT override them). The unit windows count only what is charged, so
 * a request that costs nothing (every asset failed intake) took no room and could be repeated
 * without end, each one making the gateway fetch up to 20 URLs of the caller's choosing.
 * 240 requests a minute (4 a second) is far above any script's honest use of an API of 1 to
 * 20 assets a request, yet bounds them; 600 fetches (30 requests of 20 URLs) caps the
 * fetches an attacker can make us do.
 */
export const ACCOUNT_REQUEST_LIMITS: AccountRequestLimits = { requests: 240, fetches: 600 };

/** Upper bound of one reservation's fetches, as the RPC contract has it: the fetch limit normally binds first. */
export const MAX_FETCHES_PER_RESERVATION = 1_000;

/**
 * Window entries are dropped once they are this much older than the newest event of the
 * account. The slack above WINDOW_MS keeps an entry while a replica whose clock lags the
 * writer's by up to 5 s may still count it.
 */
export const WINDOW_RETENTION_MS = WINDOW_MS + 5_000;

/**
 * How long a closed (settled or expired) reservation is remembered, so that a late retry of
 * a settle answers AlreadySettled instead of UnknownReservation. Beyond this (event time) a
 * settle of that id is UnknownReservation and its id could be reserved again: request ids
 * are uuids, so only a client retrying a day later could notice.
 */
export const CLOSED_RESERVATION_MEMORY_MS = 24 * 60 * 60 * 1_000;

/** Upper bound of one command's units: larger numbers are certainly a caller bug. */
export const MAX_CREDITS_PER_GRANT = 1_000_000_000;
