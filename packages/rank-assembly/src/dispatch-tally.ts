/** What a tally counted: units whose work succeeded, and units handed to workers and not answered yet. */
export interface DispatchCounts {
  succeeded: number;
  inFlight: number;
}

/**
 * The units of a request handed to workers (evaluations, or pairwise panels) and what came
 * back of them, for the rule of a client that leaves (docs/decisions.md, "A client that leaves
 * pays for the work it set going"): what succeeded, and what was dispatched and not answered
 * yet, is billed; what was not dispatched is not. Dispatched work may already be inside a
 * model call that cancellation cannot recall, and a free disconnect would be a way to get the
 * work without paying for it.
 *
 * `freeze()` is called the moment the client leaves: answers that come after it (the results
 * join ends every wait with a failure at once) change nothing.
 */
export function createDispatchTally() {
  const inFlight = new Set<string>();
  let succeeded = 0;
  let frozen: DispatchCounts | null = null;
  const counts = (): DispatchCounts => frozen ?? { succeeded, inFlight: inFlight.size };
  return {
    /** A unit was handed to workers under `id`. */
    dispatched(id: string): void {
      if (frozen === null) inFlight.add(id);
    },
    /** Its answer came back: `ok` when it is billable (an evaluation that succeeded, a panel that completed). */
    answered(id: string, ok: boolean): void {
      if (frozen === null && inFlight.delete(id) && ok) succeeded++;
    },
    freeze(): void {
      frozen ??= counts();
    },
    counts,
    /** Units billed when the client left: those that succeeded and those still running, never more than were reserved. */
    billedWhenClientLeft(reserved: number): number {
      const c = counts();
      return Math.min(reserved, c.succeeded + c.inFlight);
    },
  };
}

export type DispatchTally = ReturnType<typeof createDispatchTally>;
