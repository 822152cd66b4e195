import type { UsageKind } from "./events.ts";
import { RATE_LIMITS } from "./limits.ts";
import type { AccountState, OpenReservation } from "./state.ts";
import { countInWindow, windowKey } from "./window.ts";

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

/** Units the key may still reserve of `kind` at `now` (the X-RateLimit-Remaining header). */
export function windowRemaining(state: AccountState, keyId: string, kind: UsageKind, now: number): number {
  return Math.max(0, RATE_LIMITS[kind] - countInWindow(state.windows.get(windowKey(kind, keyId)), now));
}

/** Open reservations reserved at least `ageMs` before `now`, oldest first: candidates for expiry. */
export function openReservationsOlderThan(state: AccountState, now: number, ageMs: number): OpenReservation[] {
  const due: OpenReservation[] = [];
  for (const r of state.open.values()) if (now - r.reservedAt >= ageMs) due.push(r);
  return due.sort((a, b) => a.reservedAt - b.reservedAt);
}
