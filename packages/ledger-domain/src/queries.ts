import type { UsageKind } from "./events.ts";
import { ACCOUNT_RATE_LIMITS, RATE_LIMITS, type AccountRateLimits } from "./limits.ts";
import type { AccountState, OpenReservation } from "./state.ts";
import { accountEntries, countInWindow, windowKey } from "./window.ts";

export interface Balance {
  /** granted - used - reserved: what a new reservation may take. */
  available: number;
  reserved: number;
  granted: number;
  used: number;
}

export const availableCredits = (state: AccountState): number => state.granted - state.used - state.reserved;

export function balanceOf(state: AccountState): Balance {
  return { available: availableCredits(state), reserved: state.reserved, granted: state.granted, used: state.used };
}

/**
 * Units the key may still reserve of `kind` at `now`: the smaller of the room in its own
 * window and in its account's (the X-RateLimit-Remaining header), so the number never
 * promises what the account window would refuse.
 */
export function windowRemaining(state: AccountState, keyId: string, kind: UsageKind, now: number, accountLimits: AccountRateLimits = ACCOUNT_RATE_LIMITS): number {
  const key = RATE_LIMITS[kind] - countInWindow(state.windows.get(windowKey(kind, keyId)), now);
  const account = accountLimits[kind] - countInWindow(accountEntries(state.windows, kind), now);
  return Math.max(0, Math.min(key, account));
}

/** Open reservations reserved at least `ageMs` before `now`, oldest first: candidates for expiry. */
export function openReservationsOlderThan(state: AccountState, now: number, ageMs: number): OpenReservation[] {
  const due: OpenReservation[] = [];
  for (const r of state.open.values()) if (now - r.reservedAt >= ageMs) due.push(r);
  return due.sort((a, b) => a.reservedAt - b.reservedAt);
}
