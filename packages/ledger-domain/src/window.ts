import type { UsageKind } from "./events.ts";
import { WINDOW_MS } from "./limits.ts";

/** One reservation's weight in its key's window: reserved units until settled, then used units. */
export interface WindowEntry {
  reservationId: string;
  /** Reservation time (epoch ms); the units age out at at + WINDOW_MS. */
  at: number;
  units: number;
}

export type Windows = ReadonlyMap<string, readonly WindowEntry[]>;

// The kind contains no ":", so the key cannot collide whatever the key id holds.
export const windowKey = (kind: UsageKind, keyId: string): string => `${kind}:${keyId}`;

/** Entries still counted at `now`. Entries stamped after `now` (a writer with a clock ahead) count too. */
export function entriesInWindow(entries: readonly WindowEntry[] | undefined, now: number): WindowEntry[] {
  return (entries ?? []).filter((e) => e.at > now - WINDOW_MS && e.units > 0);
}

export function countInWindow(entries: readonly WindowEntry[] | undefined, now: number): number {
  return entriesInWindow(entries, now).reduce((n, e) => n + e.units, 0);
}

export interface WindowVerdict {
  counted: number;
  /** null when `units` fit now; otherwise the epoch ms at which they will. */
  fitsAt: number | null;
}

/**
 * Whether `units` more fit under `limit` at `now`, and if not, the first moment they will:
 * the oldest entries age out one by one (exactly WINDOW_MS after their reservation) until
 * enough units are free. Assumes units <= limit.
 */
export function windowVerdict(entries: readonly WindowEntry[] | undefined, units: number, limit: number, now: number): WindowVerdict {
  const live = entriesInWindow(entries, now).sort((a, b) => a.at - b.at);
  const counted = live.reduce((n, e) => n + e.units, 0);
  const excess = counted + units - limit;
  if (excess <= 0) return { counted, fitsAt: null };
  let freed = 0;
  for (const e of live) {
    freed += e.units;
    if (freed >= excess) return { counted, fitsAt: e.at + WINDOW_MS };
  }
  // Unreachable while units <= limit; be safe rather than admit.
  return { counted, fitsAt: now + WINDOW_MS };
}

/** Keeps entries newer than `cutoff` that still weigh something; returns undefined when none remain. */
export function pruneEntries(entries: readonly WindowEntry[], cutoff: number): readonly WindowEntry[] | undefined {
  const kept = entries.every((e) => e.at >= cutoff && e.units > 0) ? entries : entries.filter((e) => e.at >= cutoff && e.units > 0);
  return kept.length ? kept : undefined;
}
