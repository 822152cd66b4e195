import type { UsageKind } from "./events.ts";

/**
 * Why a command changed nothing. Rejections are values, never exceptions, so that every edge
 * (RPC reply, HTTP status) maps them in one exhaustive switch.
 */
export interface InsufficientCredits {
  type: "InsufficientCredits";
  available: number;
  required: number;
}

/**
 * Which rate window refused: the key's units, the units all keys of the account share, the
 * account's requests (counted whatever they cost), or the image fetches those requests make.
 */
export type RateWindow = "key" | "account" | "requests" | "fetches";

export interface RateLimited {
  type: "RateLimited";
  kind: UsageKind;
  /** The window that refused; when several are full, the one that frees last (the request waits for all). */
  window: RateWindow;
  /** That window's limit: units for "key" and "account", requests for "requests", image URLs for "fetches". */
  limit: number;
  /**
   * Whole seconds (>= 1) until enough room may have freed for this request to fit: exact
   * when settled units are in the way; a lower bound when open reservations are (see
   * earliestFreeAt in window.ts).
   */
  retryAfter: number;
  /** That moment as Unix epoch seconds (rounded up). */
  resetAt: number;
  /** Units the key may still reserve now, the smaller of its window's and its account's room (the request needs more). */
  remaining: number;
}

/** The reservation was settled before; a retried settle with the same units may be treated as success. */
export interface AlreadySettled {
  type: "AlreadySettled";
  reservationId: string;
  unitsUsed: number;
}

export interface UnknownReservation {
  type: "UnknownReservation";
  reservationId: string;
}

/** The reservation expired (its credits were released) before this settle arrived. */
export interface ReservationAlreadyExpired {
  type: "ReservationAlreadyExpired";
  reservationId: string;
  expiredAt: number;
}

export interface SettleExceedsReservation {
  type: "SettleExceedsReservation";
  reservationId: string;
  reserved: number;
  unitsUsed: number;
}

/** A reservation with this id exists already (reservation ids are request ids: one per request). */
export interface DuplicateReservation {
  type: "DuplicateReservation";
  reservationId: string;
  status: "open" | "settled" | "expired";
}

/** Expiring a reservation that is already settled or expired. */
export interface ReservationClosed {
  type: "ReservationClosed";
  reservationId: string;
  status: "settled" | "expired";
}

/** The grant was applied before; a retried grant with the same credits may be treated as success. */
export interface DuplicateGrant {
  type: "DuplicateGrant";
  grantId: string;
  credits: number;
}

/** The command itself is malformed (e.g. units not a positive integer, or above the window limit). */
export interface InvalidCommand {
  type: "InvalidCommand";
  reason: string;
}

export type Rejection =
  | InsufficientCredits
  | RateLimited
  | AlreadySettled
  | UnknownReservation
  | ReservationAlreadyExpired
  | SettleExceedsReservation
  | DuplicateReservation
  | ReservationClosed
  | DuplicateGrant
  | InvalidCommand;

export type RejectionType = Rejection["type"];
