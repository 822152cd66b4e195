import { describe, expect, it } from "vitest";
import { takeoverReservation } from "../src/index.ts";

// A gateway takes over a request whose owner died. It first asks the ledger to reserve the
// previous attempt's reservation id again; the ledger's answer says whether the new attempt
// works under that reservation or reserves under an id of its own, and whether it bills.

const REQUEST = "7f3c2a91-5b6e-4d08-9c4a-1e2f8b7d6a35";

describe("takeoverReservation", () => {
  it("keeps the reservation the ledger just made: the dead owner never reserved", () => {
    expect(takeoverReservation(REQUEST, 2, REQUEST, "reserved")).toEqual({ kind: "use", reservationId: REQUEST, billAgain: true });
  });

  it("continues under the dead owner's reservation while it is still open: one reservation, one bill", () => {
    expect(takeoverReservation(REQUEST, 2, REQUEST, "open")).toEqual({ kind: "use", reservationId: REQUEST, billAgain: true });
  });

  it("reserves again as <request id>-r<attempt> once the old reservation expired", () => {
    expect(takeoverReservation(REQUEST, 2, REQUEST, "expired")).toEqual({ kind: "reserve-new", reservationId: `${REQUEST}-r2`, billAgain: true });
  });

  it("reruns without billing again when the dead owner had already settled (billed) and lost the answer", () => {
    expect(takeoverReservation(REQUEST, 2, REQUEST, "settled")).toEqual({ kind: "reserve-new", reservationId: `${REQUEST}-r2`, billAgain: false });
  });

  it("names each attempt's new reservation apart", () => {
    const third = takeoverReservation(REQUEST, 3, `${REQUEST}-r2`, "expired");
    expect(third).toEqual({ kind: "reserve-new", reservationId: `${REQUEST}-r3`, billAgain: true });
    // Continuing keeps whichever id the previous attempt worked under.
    expect(takeoverReservation(REQUEST, 3, `${REQUEST}-r2`, "open")).toEqual({ kind: "use", reservationId: `${REQUEST}-r2`, billAgain: true });
  });
});
