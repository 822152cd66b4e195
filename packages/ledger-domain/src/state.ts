import { closedAdd, closedPrune, emptyClosedIndex, type ClosedIndex } from "./closed-index.ts";
import type { LedgerEvent, UsageKind } from "./events.ts";
import { CLOSED_RESERVATION_MEMORY_MS, WINDOW_MS, WINDOW_RETENTION_MS } from "./limits.ts";
import { pruneRequests, recordRequest, type RequestWindow } from "./request-window.ts";
import { pruneEntries, windowKey, type WindowEntry, type Windows } from "./window.ts";

export interface OpenReservation {
  reservationId: string;
  keyId: string;
  kind: UsageKind;
  units: number;
  reservedAt: number;
}

/**
 * One account, folded from its events. Treat it as immutable: evolve returns a new state and
 * shares unchanged parts with the old one.
 */
export interface AccountState {
  /** Credits ever granted. */
  granted: number;
  /** Credits charged by settled reservations. */
  used: number;
  /** Credits held by open reservations. */
  reserved: number;
  open: ReadonlyMap<string, OpenReservation>;
  closed: ClosedIndex;
  /** grantId -> credits, so a retried grant is recognised at any age. */
  grants: ReadonlyMap<string, number>;
  /** Rate windows per kind and key; see window.ts. */
  windows: Windows;
  /** Every reservation of the account's last minute or so, settled or not; see request-window.ts. */
  requests: RequestWindow;
  /** Newest event time seen: the clock that pruning follows, so replay prunes identically. */
  latestAt: number;
  /** When every window was last pruned (event time). */
  windowsPrunedAt: number;
}

export const initialState = (): AccountState => ({
  granted: 0,
  used: 0,
  reserved: 0,
  open: new Map(),
  closed: emptyClosedIndex,
  grants: new Map(),
  windows: new Map(),
  requests: [],
  latestAt: 0,
  windowsPrunedAt: 0,
});

export function evolve(state: AccountState, event: LedgerEvent): AccountState {
  const next = apply(state, event);
  return maintain(next, Math.max(state.latestAt, event.at));
}

function apply(state: AccountState, event: LedgerEvent): AccountState {
  switch (event.type) {
    case "CreditsGranted":
      return { ...state, granted: state.granted + event.credits, grants: new Map(state.grants).set(event.grantId, event.credits) };
    case "UsageReserved": {
      const { reservationId, keyId, kind, units, at } = event;
      const key = windowKey(kind, keyId);
      const entries = [...(state.windows.get(key) ?? []), { reservationId, at, units, open: true }];
      return {
        ...state,
        reserved: state.reserved + units,
        open: new Map(state.open).set(reservationId, { reservationId, keyId, kind, units, reservedAt: at }),
        windows: new Map(state.windows).set(key, entries),
        requests: recordRequest(state.requests, { at, fetches: event.fetches ?? 0 }),
      };
    }
    case "UsageSettled":
    case "ReservationExpired": {
      const r = state.open.get(event.reservationId);
      // The decider never emits a close for a reservation that is not open; should such an
      // event ever be in a stream, it changes nothing and reconcile shows it.
      if (!r) return state;
      const unitsUsed = event.type === "UsageSettled" ? event.unitsUsed : 0;
      const open = new Map(state.open);
      open.delete(r.reservationId);
      return {
        ...state,
        reserved: state.reserved - r.units,
        used: state.used + unitsUsed,
        open,
        closed: closedAdd(state.closed, r.reservationId, {
          status: event.type === "UsageSettled" ? "settled" : "expired",
          keyId: r.keyId,
          kind: r.kind,
          units: r.units,
          unitsUsed,
          closedAt: event.at,
        }),
        // Settled: the window keeps the used units at the reservation time, aging out from
        // there (at once when that is over 60 s ago). Expired: nothing.
        windows: reweigh(state.windows, windowKey(r.kind, r.keyId), r.reservationId, unitsUsed),
      };
    }
    default: {
      const unknown: never = event;
      throw new Error(`unknown ledger event: ${JSON.stringify(unknown)}`);
    }
  }
}

function reweigh(windows: Windows, key: string, reservationId: string, units: number): Windows {
  const entries = windows.get(key);
  if (!entries?.some((e) => e.reservationId === reservationId)) return windows;
  const changed: WindowEntry[] = [];
  for (const e of entries) {
    if (e.reservationId !== reservationId) changed.push(e);
    else if (units > 0) changed.push({ ...e, units, open: false });
  }
  const next = new Map(windows);
  if (changed.length) next.set(key, changed);
  else next.delete(key);
  return next;
}

/**
 * Pruning by event time keeps the state small and is identical on replay. Open entries are
 * never pruned (they count until closed): their number is bounded by the open reservations.
 */
function maintain(state: AccountState, latestAt: number): AccountState {
  let windows = state.windows;
  let requests = state.requests;
  let windowsPrunedAt = state.windowsPrunedAt;
  if (latestAt - windowsPrunedAt >= WINDOW_MS) {
    const cutoff = latestAt - WINDOW_RETENTION_MS;
    const pruned = new Map<string, readonly WindowEntry[]>();
    for (const [key, entries] of windows) {
      const kept = pruneEntries(entries, cutoff);
      if (kept) pruned.set(key, kept);
    }
    windows = pruned;
    requests = pruneRequests(requests, cutoff);
    windowsPrunedAt = latestAt;
  }
  const closed = closedPrune(state.closed, latestAt - CLOSED_RESERVATION_MEMORY_MS);
  return { ...state, windows, requests, windowsPrunedAt, closed, latestAt };
}
