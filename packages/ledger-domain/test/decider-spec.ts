import { expect } from "vitest";
import { balanceOf, decide, evolve, initialState, type AccountState, type Decision, type LedgerCommand, type LedgerEvent, type ModelUsage, type Rejection } from "../src/index.ts";

/**
 * given events / when command / then events or rejection, without I/O.
 *
 * @example
 * given([granted(10)]).when(reserve("r1", 3), T0).then([reserved("r1", 3, T0)]);
 */
export function given(events: LedgerEvent[]) {
  const state: AccountState = events.reduce(evolve, initialState());
  return {
    state,
    when(command: LedgerCommand, now: number) {
      const decision: Decision = decide(command, state, now);
      return {
        decision,
        then(expected: LedgerEvent[]): AccountState {
          expect(decision).toEqual({ events: expected });
          return expected.reduce(evolve, state);
        },
        thenRejects(expected: Rejection): void {
          expect(decision).toEqual({ rejection: expected });
        },
        /** The state after the emitted events (fails when the command was rejected). */
        after(): AccountState {
          if (!("events" in decision)) throw new Error(`expected events, got ${JSON.stringify(decision.rejection)}`);
          return decision.events.reduce(evolve, state);
        },
      };
    },
  };
}

export const T0 = Date.UTC(2026, 10, 22, 12, 0, 0);

export const grant = (grantId: string, credits: number, reason?: string): LedgerCommand => ({ type: "GrantCredits", grantId, credits, ...(reason ? { reason } : {}) });
export const reserve = (reservationId: string, units: number, keyId = "k1", kind: "scoring" | "pairwise" = "scoring", fetches?: number): LedgerCommand => ({
  type: "ReserveUsage",
  reservationId,
  keyId,
  kind,
  units,
  ...(fetches === undefined ? {} : { fetches }),
});
export const settle = (reservationId: string, unitsUsed: number, modelUsage?: ModelUsage[]): LedgerCommand => ({
  type: "SettleUsage",
  reservationId,
  unitsUsed,
  ...(modelUsage ? { modelUsage } : {}),
});
export const expire = (reservationId: string): LedgerCommand => ({ type: "ExpireReservation", reservationId });

export const granted = (credits: number, at = T0 - 10_000, grantId = `g${credits}`): LedgerEvent => ({ type: "CreditsGranted", grantId, credits, at });
export const reserved = (reservationId: string, units: number, at: number, keyId = "k1", kind: "scoring" | "pairwise" = "scoring", fetches?: number): LedgerEvent => ({
  type: "UsageReserved",
  reservationId,
  keyId,
  kind,
  units,
  ...(fetches === undefined ? {} : { fetches }),
  at,
});
export const settled = (
  reservationId: string,
  unitsReserved: number,
  unitsUsed: number,
  reservedAt: number,
  at: number,
  keyId = "k1",
  kind: "scoring" | "pairwise" = "scoring",
): LedgerEvent => ({ type: "UsageSettled", reservationId, keyId, kind, unitsReserved, unitsUsed, reservedAt, at });
export const expired = (reservationId: string, unitsReserved: number, reservedAt: number, at: number, keyId = "k1", kind: "scoring" | "pairwise" = "scoring"): LedgerEvent => ({
  type: "ReservationExpired",
  reservationId,
  keyId,
  kind,
  unitsReserved,
  reservedAt,
  at,
});

export const balance = (state: AccountState) => balanceOf(state);

/** Applies commands one by one at the given times, returning the state and every decision. */
export function run(state: AccountState, steps: Array<[LedgerCommand, number]>): { state: AccountState; decisions: Decision[] } {
  const decisions: Decision[] = [];
  for (const [command, now] of steps) {
    const d = decide(command, state, now);
    decisions.push(d);
    if ("events" in d) state = d.events.reduce(evolve, state);
  }
  return { state, decisions };
}
