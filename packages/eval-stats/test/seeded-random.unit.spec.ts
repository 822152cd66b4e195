import { describe, expect, it } from "vitest";
import { seededRandom } from "../src/index.ts";

describe("seededRandom", () => {
  it("repeats its sequence for a seed and differs between seeds", () => {
    const draw = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from({ length: 20 }, () => random());
    };
    expect(draw(5)).toEqual(draw(5));
    expect(draw(5)).not.toEqual(draw(6));
  });

  it("draws uniformly in [0, 1): every tenth of the range gets about a tenth of 100,000 draws", () => {
    const random = seededRandom(123);
    const bins = new Array<number>(10).fill(0);
    let outside = 0;
    for (let i = 0; i < 100_000; i++) {
      const u = random();
      if (u < 0 || u >= 1) outside++;
      else bins[Math.floor(u * 10)]!++;
    }
    expect(outside).toBe(0);
    // Binomial(100000, 0.1): sd ≈ 95, so 10,000 ± 500 is over 5 sd.
    for (const count of bins) expect(Math.abs(count - 10_000)).toBeLessThan(500);
  });
});
