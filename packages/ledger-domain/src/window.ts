import type { UsageKind } from "./events.ts";
import { OPEN_RESERVATION_RETRY_MS, WINDOW_MS } from "./limits.ts";

/**
 * One reservation's weight in its key's window: reserved units while it is open, then
 * used units. An open entry counts whatever its age, because its request may still be
 * running (up to 120 s, longer than the window); a settled entry's used units age out at
 * at + WINDOW_MS; an expired entry is removed.
 */
export interface WindowEntry {
  reservationId: string;
  /** Reservation time (epoch ms); once settled, the used units age out at at + WINDOW_MS. */
  at: number;
  units: number;
  /** True until UsageSettled re-weighs the entry (ReservationExpired removes it). */
  open: boolean;
}

export type Windows = ReadonlyMap<string, readonly WindowEntry[]>;

/** What the window arithmetic reads of an entry; the request and fetch windows (request-window.ts) weigh theirs the same way. */
export type WeighedEntry = Pick<WindowEntry, "at" | "units" | "open">;

// The kind contains no ":", so the key cannot collide whatever the key id holds.
export const windowKey = (kind: UsageKind, keyId: string): string => `${kind}:${keyId}`;

/**
 * Every entry of `kind`, whichever key made it: the account's window. It is derived from the
 * keys' windows rather than kept beside them, so it is folded from the same events and an
 * old stream replays to the same state.
 */
export function accountEntries(windows: Windows, kind: UsageKind): WindowEntry[] {
  const prefix = `${kind}:`;
  const all: WindowEntry[] = [];
  for (const [key, entries] of windows) if (key.startsWith(prefix)) all.push(...entries);
  return all;
}

/** Whether the entry counts at `now`. Entries stamped after `now` (a writer with a clock ahead) count too. */
const counts = (e: WeighedEntry, now: number): boolean => e.units > 0 && (e.open || e.at > now - WINDOW_MS);

/** Entries still counted at `now`. */
export function entriesInWindow<E extends WeighedEntry>(entries: readonly E[] | undefined, now: number): E[] {
  return (entries ?? []).filter((e) => counts(e, now));
}

export function countInWindow(entries: readonly WindowEntry[] | undefined, now: number): number {
  return entriesInWindow(entries, now).reduce((n, e) => n + e.units, 0);
}

/**
 * The earliest moment an entry can stop counting. A settled entry ages out at at + WINDOW_MS.
 * An open entry cannot free before that either (settling keeps its used units until then);
 * once that moment has passed, it frees as soon as its request settles or expires, which
 * nothing here can foresee, so the estimate is OPEN_RESERVATION_RETRY_MS from now: a lower
 * bound, never a promise.
 */
export function earliestFreeAt(e: WeighedEntry, now: number): number {
  const ageOut = e.at + WINDOW_MS;
  return e.open ? Math.max(ageOut, now + OPEN_RESERVATION_RETRY_MS) : ageOut;
}

export interface WindowVerdict {
  counted: number;
  /** null when `units` fit now; otherwise the earliest epoch ms at which they may. */
  fitsAt: number | null;
}

/**
 * Whether `units` more fit under `limit` at `now`, and if not, the first moment they may:
 * entries free one by one at their earliest free time (see earliestFreeAt) until enough
 * units are free. With only settled entries in the way that moment is exact; with open
 * ones it is a lower bound, so a retry then may be refused again. Assumes units <= limit.
 */
export function windowVerdict(entries: readonly WeighedEntry[] | undefined, units: number, limit: number, now: number): WindowVerdict {
  const counting = entriesInWindow(entries, now);
  const counted = counting.reduce((n, e) => n + e.units, 0);
  const excess = counted + units - limit;
  if (excess <= 0) return { counted, fitsAt: null };
  // Sorted only when refused: a hot account's window holds thousands of entries, and most requests fit.
  const live = counting.map((e) => ({ units: e.units, freeAt: earliestFreeAt(e, now) })).sort((a, b) => a.freeAt - b.freeAt);
  let freed = 0;
  for (const e of live) {
    freed += e.units;
    if (freed >= excess) return { counted, fitsAt: e.freeAt };
  }
  // Unreachable while units <= limit; be safe rather than admit.
  return { counted, fitsAt: now + WINDOW_MS };
}

/**
 * Keeps open entries whatever their age, and settled entries newer than `cutoff` that still
 * weigh something; returns undefined when none remain.
 */
export function pruneEntries(entries: readonly WindowEntry[], cutoff: number): readonly WindowEntry[] | undefined {
  const keep = (e: WindowEntry) => e.units > 0 && (e.open || e.at >= cutoff);
  const kept = entries.every(keep) ? entries : entries.filter(keep);
  return kept.length ? kept : undefined;
}
