import type { UsageKind } from "./events.ts";

/**
 * Closed reservations, remembered so a late settle is answered precisely. A hot account
 * closes many reservations a day, and evolve must not copy all of them per event: entries
 * go into a small tail map (copied per change); a full tail is sealed as an immutable
 * segment and shared by every later state. Whole segments are dropped once all their
 * entries are older than the memory limit.
 */
export interface ClosedReservation {
  status: "settled" | "expired";
  keyId: string;
  kind: UsageKind;
  units: number;
  /** 0 for an expired reservation. */
  unitsUsed: number;
  closedAt: number;
}

interface Segment {
  readonly entries: ReadonlyMap<string, ClosedReservation>;
  readonly newestAt: number;
}

export interface ClosedIndex {
  readonly sealed: readonly Segment[];
  readonly tail: ReadonlyMap<string, ClosedReservation>;
  readonly tailNewestAt: number;
}

const SEGMENT_SIZE = 256;

export const emptyClosedIndex: ClosedIndex = { sealed: [], tail: new Map(), tailNewestAt: 0 };

export function closedGet(index: ClosedIndex, reservationId: string): ClosedReservation | undefined {
  const hit = index.tail.get(reservationId);
  if (hit) return hit;
  for (let i = index.sealed.length - 1; i >= 0; i--) {
    const found = index.sealed[i]!.entries.get(reservationId);
    if (found) return found;
  }
  return undefined;
}

export function closedAdd(index: ClosedIndex, reservationId: string, entry: ClosedReservation): ClosedIndex {
  const tail = new Map(index.tail).set(reservationId, entry);
  const tailNewestAt = Math.max(index.tailNewestAt, entry.closedAt);
  if (tail.size < SEGMENT_SIZE) return { sealed: index.sealed, tail, tailNewestAt };
  return { sealed: [...index.sealed, { entries: tail, newestAt: tailNewestAt }], tail: new Map(), tailNewestAt: 0 };
}

/** Drops sealed segments whose newest entry closed before `cutoff`. */
export function closedPrune(index: ClosedIndex, cutoff: number): ClosedIndex {
  let drop = 0;
  while (drop < index.sealed.length && index.sealed[drop]!.newestAt < cutoff) drop++;
  return drop === 0 ? index : { ...index, sealed: index.sealed.slice(drop) };
}

export function closedSize(index: ClosedIndex): number {
  return index.sealed.reduce((n, s) => n + s.entries.size, index.tail.size);
}
