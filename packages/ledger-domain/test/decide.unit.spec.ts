import { describe, expect, it } from "vitest";
import type { LedgerCommand } from "../src/index.ts";
import { balance, expire, expired, given, grant, granted, reserve, reserved, settle, settled, T0 } from "./decider-spec.ts";

describe("GrantCredits", () => {
  it("adds the credits to the balance", () => {
    const state = given([]).when(grant("g1", 100, "welcome"), T0).then([{ type: "CreditsGranted", grantId: "g1", credits: 100, reason: "welcome", at: T0 }]);
    expect(balance(state)).toEqual({ available: 100, reserved: 0, granted: 100, used: 0 });
  });

  it("adds up grants", () => {
    const state = given([granted(100, T0 - 1, "g1")]).when(grant("g2", 50), T0).then([{ type: "CreditsGranted", grantId: "g2", credits: 50, at: T0 }]);
    expect(balance(state).available).toBe(150);
  });

  it("recognises a retried grant instead of granting twice", () => {
    given([granted(100, T0 - 1, "g1")]).when(grant("g1", 100), T0).thenRejects({ type: "DuplicateGrant", grantId: "g1", credits: 100 });
  });

  it.each([0, -5, 1.5, Number.NaN])("refuses %s credits", (credits) => {
    const { decision } = given([]).when(grant("g1", credits), T0);
    expect(decision).toMatchObject({ rejection: { type: "InvalidCommand" } });
  });

  it("refuses an empty grant id", () => {
    expect(given([]).when(grant("", 5), T0).decision).toMatchObject({ rejection: { type: "InvalidCommand" } });
  });
});

describe("ReserveUsage", () => {
  it("holds the units against the balance", () => {
    const state = given([granted(10)]).when(reserve("r1", 4), T0).then([reserved("r1", 4, T0)]);
    expect(balance(state)).toEqual({ available: 6, reserved: 4, granted: 10, used: 0 });
  });

  it("may take the last credit", () => {
    const state = given([granted(10), reserved("r1", 6, T0 - 5)]).when(reserve("r2", 4), T0).then([reserved("r2", 4, T0)]);
    expect(balance(state).available).toBe(0);
  });

  it("is refused with InsufficientCredits when open reservations and usage leave too little", () => {
    given([granted(10), reserved("r1", 5, T0 - 9), settled("r1", 5, 3, T0 - 9, T0 - 8), reserved("r2", 4, T0 - 7)])
      .when(reserve("r3", 4), T0)
      .thenRejects({ type: "InsufficientCredits", available: 3, required: 4 });
  });

  it("is refused with InsufficientCredits on an account without credits", () => {
    given([]).when(reserve("r1", 1), T0).thenRejects({ type: "InsufficientCredits", available: 0, required: 1 });
  });

  it("refuses a reservation id already used, open or closed", () => {
    given([granted(10), reserved("r1", 1, T0 - 5)]).when(reserve("r1", 1), T0).thenRejects({ type: "DuplicateReservation", reservationId: "r1", status: "open" });
    given([granted(10), reserved("r1", 1, T0 - 5), settled("r1", 1, 1, T0 - 5, T0 - 4)])
      .when(reserve("r1", 1), T0)
      .thenRejects({ type: "DuplicateReservation", reservationId: "r1", status: "settled" });
  });

  it.each([0, -1, 2.5, 61])("refuses %s units as malformed", (units) => {
    expect(given([granted(1_000)]).when(reserve("r1", units), T0).decision).toMatchObject({ rejection: { type: "InvalidCommand" } });
  });

  it("refuses an unknown kind", () => {
    const command = { type: "ReserveUsage", reservationId: "r1", keyId: "k1", kind: "video", units: 1 } as unknown as LedgerCommand;
    expect(given([granted(10)]).when(command, T0).decision).toMatchObject({ rejection: { type: "InvalidCommand" } });
  });
});

describe("SettleUsage", () => {
  const open = [granted(10), reserved("r1", 5, T0 - 1_000)];

  it("charges the used units and releases the rest", () => {
    const state = given(open).when(settle("r1", 3), T0).then([settled("r1", 5, 3, T0 - 1_000, T0)]);
    expect(balance(state)).toEqual({ available: 7, reserved: 0, granted: 10, used: 3 });
  });

  it("with 0 units used releases everything", () => {
    const state = given(open).when(settle("r1", 0), T0).then([settled("r1", 5, 0, T0 - 1_000, T0)]);
    expect(balance(state)).toEqual({ available: 10, reserved: 0, granted: 10, used: 0 });
  });

  it("refuses to charge more than was reserved", () => {
    given(open).when(settle("r1", 6), T0).thenRejects({ type: "SettleExceedsReservation", reservationId: "r1", reserved: 5, unitsUsed: 6 });
  });

  it("answers a second settle with AlreadySettled and the units of the first", () => {
    given([...open, settled("r1", 5, 3, T0 - 1_000, T0 - 10)]).when(settle("r1", 3), T0).thenRejects({ type: "AlreadySettled", reservationId: "r1", unitsUsed: 3 });
    given([...open, settled("r1", 5, 3, T0 - 1_000, T0 - 10)]).when(settle("r1", 5), T0).thenRejects({ type: "AlreadySettled", reservationId: "r1", unitsUsed: 3 });
  });

  it("refuses an unknown reservation", () => {
    given(open).when(settle("nope", 1), T0).thenRejects({ type: "UnknownReservation", reservationId: "nope" });
  });

  it("refuses a reservation that expired, and charges nothing", () => {
    const history = [...open, expired("r1", 5, T0 - 1_000, T0 - 10)];
    given(history).when(settle("r1", 5), T0).thenRejects({ type: "ReservationAlreadyExpired", reservationId: "r1", expiredAt: T0 - 10 });
    expect(balance(given(history).state)).toEqual({ available: 10, reserved: 0, granted: 10, used: 0 });
  });

  it("refuses negative or fractional units", () => {
    expect(given(open).when(settle("r1", -1), T0).decision).toMatchObject({ rejection: { type: "InvalidCommand" } });
    expect(given(open).when(settle("r1", 0.5), T0).decision).toMatchObject({ rejection: { type: "InvalidCommand" } });
  });
});

describe("ExpireReservation", () => {
  const open = [granted(10), reserved("r1", 5, T0 - 300_000)];

  it("releases the reserved credits without charging", () => {
    const state = given(open).when(expire("r1"), T0).then([expired("r1", 5, T0 - 300_000, T0)]);
    expect(balance(state)).toEqual({ available: 10, reserved: 0, granted: 10, used: 0 });
  });

  it("refuses an unknown reservation", () => {
    given(open).when(expire("r2"), T0).thenRejects({ type: "UnknownReservation", reservationId: "r2" });
  });

  it("refuses a reservation already settled or expired", () => {
    given([...open, settled("r1", 5, 2, T0 - 300_000, T0 - 5)]).when(expire("r1"), T0).thenRejects({ type: "ReservationClosed", reservationId: "r1", status: "settled" });
    given([...open, expired("r1", 5, T0 - 300_000, T0 - 5)]).when(expire("r1"), T0).thenRejects({ type: "ReservationClosed", reservationId: "r1", status: "expired" });
  });
});
