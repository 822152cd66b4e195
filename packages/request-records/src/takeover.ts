/**
 * When a request's owner died (its lease ran out) and another gateway takes it over, the new
 * attempt first asks the ledger to reserve the previous attempt's reservation id again. What
 * the ledger answers decides the reservation the new attempt works under:
 * - reserved: the dead owner never got to reserve; the new reservation stands;
 * - open: the dead owner's reservation is still open; the new attempt works under it and
 *   settles it, so the request is billed once;
 * - settled or expired: that reservation is closed; the new attempt reserves under a new id
 *   derived from the request id (`<request_id>-r<attempt>`), so a retried takeover command is
 *   still harmless. (Settled means the dead owner billed and died before storing the
 *   response; the new attempt then settles nothing, see `billAgain`.)
 */
export type PreviousReservation = "reserved" | "open" | "settled" | "expired";

export type TakeoverReservation =
  | { kind: "use"; reservationId: string; billAgain: boolean }
  | { kind: "reserve-new"; reservationId: string; billAgain: boolean };

export function takeoverReservation(requestId: string, attempt: number, previousId: string, previous: PreviousReservation): TakeoverReservation {
  switch (previous) {
    case "reserved":
    case "open":
      return { kind: "use", reservationId: previousId, billAgain: true };
    case "settled":
      // Billed already for work whose answer was lost: the new attempt reruns it for free.
      return { kind: "reserve-new", reservationId: `${requestId}-r${attempt}`, billAgain: false };
    case "expired":
      return { kind: "reserve-new", reservationId: `${requestId}-r${attempt}`, billAgain: true };
  }
}
