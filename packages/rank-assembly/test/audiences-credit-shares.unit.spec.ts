import { describe, expect, it } from "vitest";
import { creditShares } from "../src/index.ts";

const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);

describe("creditShares", () => {
  it("gives each audience its exact share when the credits divide evenly", () => {
    expect(creditShares(7, [3, 2, 2])).toEqual([3, 2, 2]);
  });

  it("hands the rounding remainder to the largest remainders, adding up to the charge", () => {
    // Quotas 4.29, 2.86, 2.86.
    expect(creditShares(10, [3, 2, 2])).toEqual([4, 3, 3]);
    // Quotas 2.33 each: the one credit left goes to the earliest.
    expect(creditShares(7, [1, 1, 1])).toEqual([3, 2, 2]);
  });

  it("gives nothing to an audience billed nothing", () => {
    expect(creditShares(7, [3, 0, 4])).toEqual([3, 0, 4]);
    expect(creditShares(5, [1, 0, 1])).toEqual([3, 0, 2]);
  });

  it("always adds up to exactly the credits charged", () => {
    for (const [credits, units] of [
      [7, [3, 2, 2]],
      [13, [5, 0, 3, 1]],
      [1, [2, 2, 2, 2, 2]],
      [100, [7, 11, 13]],
      [0, [4, 4]],
    ] as const) {
      const shares = creditShares(credits, units);
      expect(sum(shares)).toBe(credits);
      expect(shares.every((s) => Number.isInteger(s) && s >= 0)).toBe(true);
    }
  });

  it("splits credits evenly when no evaluation was billed at all", () => {
    expect(creditShares(0, [0, 0])).toEqual([0, 0]);
    expect(creditShares(3, [0, 0])).toEqual([2, 1]);
  });

  it("refuses fractional or negative figures", () => {
    expect(() => creditShares(1.5, [1, 1])).toThrow(RangeError);
    expect(() => creditShares(2, [1, -1])).toThrow(RangeError);
  });
});
