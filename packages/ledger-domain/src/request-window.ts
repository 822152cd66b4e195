import { WINDOW_MS } from "./limits.ts";
import { windowVerdict, type WeighedEntry } from "./window.ts";

/**
 * The account's request and fetch windows: every reservation admitted, at its reservation
 * time, with the image URLs it makes the gateway fetch. Unlike the unit windows, a settle or
 * an expiry never re-weighs or removes an entry: a request settled for 0 still cost us its
 * intake and its fetches, so it counts until it ages out at `at + WINDOW_MS`. Folded from
 * UsageReserved alone, so an old stream replays to the same state (its fetches read as 0).
 */
export interface RequestEntry {
  /** Reservation time (epoch ms). */
  at: number;
  /** Image URLs the request makes the gateway fetch. */
  fetches: number;
}

export type RequestWindow = readonly RequestEntry[];

export const recordRequest = (window: RequestWindow, entry: RequestEntry): RequestWindow => [...window, entry];

/** Whether the entry counts at `now`: as a settled entry of window.ts does, later stamps included. */
const counts = (e: RequestEntry, now: number): boolean => e.at > now - WINDOW_MS;

/**
 * When one more request fits under `limit`: null when it does now, else the earliest epoch
 * ms (exact: no entry here waits on an open request). Counted in one pass without copying,
 * since every reservation asks and a hot account's window holds thousands of entries.
 */
export function requestFitsAt(window: RequestWindow, limit: number, now: number): number | null {
  let counted = 0;
  for (const e of window) if (counts(e, now)) counted++;
  if (counted + 1 <= limit) return null;
  return windowVerdict(weighed(window, () => 1), 1, limit, now).fitsAt;
}

/** The same for `fetches` more image URLs; a request that fetches nothing asks no room. */
export function fetchesFitAt(window: RequestWindow, fetches: number, limit: number, now: number): number | null {
  if (fetches === 0) return null;
  let counted = 0;
  for (const e of window) if (counts(e, now)) counted += e.fetches;
  if (counted + fetches <= limit) return null;
  return windowVerdict(weighed(window, (e) => e.fetches), fetches, limit, now).fitsAt;
}

/** The entries as window.ts weighs them (never open: nothing here waits for a settle). */
const weighed = (window: RequestWindow, weight: (e: RequestEntry) => number): WeighedEntry[] => window.map((e) => ({ at: e.at, units: weight(e), open: false }));

/** Keeps the entries reserved at or after `cutoff` (event time; see WINDOW_RETENTION_MS for the slack). */
export function pruneRequests(window: RequestWindow, cutoff: number): RequestWindow {
  return window.every((e) => e.at >= cutoff) ? window : window.filter((e) => e.at >= cutoff);
}
