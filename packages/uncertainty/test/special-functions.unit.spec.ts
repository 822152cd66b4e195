import { describe, expect, it } from "vitest";
import { betaCdf, betaQuantile, fDistributionSurvival, logGamma, normalCdf, regularizedIncompleteBeta, studentTCdf } from "../src/index.ts";

describe("logGamma", () => {
  it("matches factorials and Γ(½) = √π", () => {
    expect(logGamma(1)).toBeCloseTo(0, 14);
    expect(logGamma(2)).toBeCloseTo(0, 14);
    expect(logGamma(5)).toBeCloseTo(Math.log(24), 13);
    expect(logGamma(0.5)).toBeCloseTo(0.5 * Math.log(Math.PI), 13);
    // ln 99! summed term by term, independent of the series.
    let log99Factorial = 0;
    for (let i = 2; i <= 99; i++) log99Factorial += Math.log(i);
    expect(logGamma(100)).toBeCloseTo(log99Factorial, 10);
    // Γ(x) ≈ 1/x − γ near 0, so ln Γ(x) + ln x ≈ −γx (to 1e-13: ln Γ(1e-8) ≈ 18.4 carries 1e-15 rounding).
    expect(logGamma(1e-8) + Math.log(1e-8)).toBeCloseTo(-0.5772156649e-8, 13);
  });

  it("keeps Γ(x + 1) = x·Γ(x) across the switch to the asymptotic series", () => {
    for (const x of [0.3, 7.5, 14.2, 14.9, 15, 40.25]) expect(logGamma(x + 1) - logGamma(x)).toBeCloseTo(Math.log(x), 12);
  });

  it("is NaN outside x > 0", () => {
    expect(logGamma(0)).toBeNaN();
    expect(logGamma(-2.5)).toBeNaN();
    expect(logGamma(Number.NaN)).toBeNaN();
  });
});

describe("regularizedIncompleteBeta", () => {
  it("matches the closed forms I_x(1, 1) = x, I_x(a, 1) = xᵃ, I_x(1, b) = 1 − (1 − x)ᵇ", () => {
    for (const x of [0.01, 0.2, 0.5, 0.77, 0.999]) {
      expect(regularizedIncompleteBeta(x, 1, 1)).toBeCloseTo(x, 12);
      expect(regularizedIncompleteBeta(x, 3.5, 1)).toBeCloseTo(x ** 3.5, 12);
      expect(regularizedIncompleteBeta(x, 1, 6)).toBeCloseTo(1 - (1 - x) ** 6, 12);
    }
  });

  it("matches the binomial tail for integer shapes to 1e-10, also for larger shapes", () => {
    // For integers, I_x(a, b) = P(Binomial(a + b − 1, x) ≥ a), summed here term by term.
    const binomialTail = (trials: number, x: number, atLeast: number) => {
      let probability = (1 - x) ** trials;
      let tail = 0;
      for (let successes = 0; successes <= trials; successes++) {
        if (successes >= atLeast) tail += probability;
        probability *= ((trials - successes) / (successes + 1)) * (x / (1 - x));
      }
      return tail;
    };
    expect(regularizedIncompleteBeta(0.5, 5, 2)).toBeCloseTo(7 / 64, 14);
    for (const [x, a, b] of [
      [0.6, 30, 20],
      [0.3, 12, 40],
      [0.45, 60, 70],
      [0.9, 3, 2],
    ] as const) {
      expect(Math.abs(regularizedIncompleteBeta(x, a, b) - binomialTail(a + b - 1, x, a))).toBeLessThan(1e-10);
    }
  });

  it("is symmetric, I_x(a, b) = 1 − I_{1−x}(b, a), and 0 and 1 at the ends", () => {
    expect(regularizedIncompleteBeta(0.3, 2.5, 7) + regularizedIncompleteBeta(0.7, 7, 2.5)).toBeCloseTo(1, 13);
    expect(regularizedIncompleteBeta(0, 2, 3)).toBe(0);
    expect(regularizedIncompleteBeta(1, 2, 3)).toBe(1);
    expect(regularizedIncompleteBeta(1.2, 2, 3)).toBeNaN();
    expect(regularizedIncompleteBeta(0.5, 0, 3)).toBeNaN();
  });
});

describe("studentTCdf", () => {
  it("matches the closed forms at df 1 (Cauchy) and df 2", () => {
    // T_2(1) = ½ + 1/(2√3) ≈ 0.788675, from T_2(t) = ½ + t / (2√(t² + 2)).
    expect(studentTCdf(1, 2)).toBeCloseTo(0.5 + 1 / (2 * Math.sqrt(3)), 12);
    expect(studentTCdf(1, 2)).toBeCloseTo(0.788675, 6);
    for (const t of [-30, -2, -0.1, 0, 1e-9, 0.4, 3, 250]) {
      expect(studentTCdf(t, 2)).toBeCloseTo(0.5 + t / (2 * Math.sqrt(t * t + 2)), 12);
      expect(studentTCdf(t, 1)).toBeCloseTo(0.5 + Math.atan(t) / Math.PI, 12);
    }
  });

  it("matches the textbook 97.5 % point of t with 8 df, 2.306", () => {
    expect(studentTCdf(2.306004, 8)).toBeCloseTo(0.975, 6);
    expect(studentTCdf(-2.306004, 8)).toBeCloseTo(0.025, 6);
  });

  it("handles infinite t, infinite df, and very large df", () => {
    expect(studentTCdf(Number.POSITIVE_INFINITY, 3)).toBe(1);
    expect(studentTCdf(Number.NEGATIVE_INFINITY, 3)).toBe(0);
    expect(studentTCdf(1.5, Number.POSITIVE_INFINITY)).toBe(normalCdf(1.5));
    expect(studentTCdf(1.5, 1e12)).toBeCloseTo(normalCdf(1.5), 10);
    expect(studentTCdf(1, 0)).toBeNaN();
  });
});

describe("fDistributionSurvival", () => {
  it("matches the closed forms for 2 numerator or 2 denominator degrees of freedom", () => {
    // d1 = 2: I_x(d2/2, 1) = x^(d2/2) with x = d2/(d2 + 2f), so P(F ≥ f) = (1 + 2f/d2)^(−d2/2).
    // d2 = 2: I_x(1, d1/2) = 1 − (1 − x)^(d1/2) with 1 − x = d1·f/(2 + d1·f).
    for (const f of [0.1, 1, 3.7, 20]) {
      expect(fDistributionSurvival(f, 2, 2)).toBeCloseTo(1 / (1 + f), 12);
      expect(fDistributionSurvival(f, 2, 7)).toBeCloseTo((1 + (2 * f) / 7) ** -3.5, 12);
      expect(fDistributionSurvival(f, 5, 2)).toBeCloseTo(1 - ((5 * f) / (2 + 5 * f)) ** 2.5, 12);
    }
  });

  it("matches the textbook 5 % point of F(3, 8), 4.066", () => {
    expect(fDistributionSurvival(4.0662, 3, 8)).toBeCloseTo(0.05, 5);
  });

  it("is 1 at or below 0 and 0 at infinity", () => {
    expect(fDistributionSurvival(0, 3, 8)).toBe(1);
    expect(fDistributionSurvival(-1, 3, 8)).toBe(1);
    expect(fDistributionSurvival(Number.POSITIVE_INFINITY, 3, 8)).toBe(0);
  });
});

describe("betaCdf and betaQuantile", () => {
  it("round-trips the quantile through the CDF to 1e-10", () => {
    for (const [a, b] of [
      [1, 1],
      [0.5, 0.5],
      [5, 2],
      [2.5, 7],
      [40, 60],
    ] as const) {
      for (const p of [0.001, 0.025, 0.3, 0.5, 0.9, 0.975]) {
        const x = betaQuantile(p, a, b);
        expect(Math.abs(betaCdf(x, a, b) - p)).toBeLessThan(1e-10);
      }
    }
  });

  it("matches closed-form quantiles: Beta(1, 1) is p, Beta(2, 1) is √p, Beta(1, 3) is 1 − (1 − p)^(1/3)", () => {
    for (const p of [0.025, 0.4, 0.975]) {
      expect(betaQuantile(p, 1, 1)).toBeCloseTo(p, 10);
      expect(betaQuantile(p, 2, 1)).toBeCloseTo(Math.sqrt(p), 10);
      expect(betaQuantile(p, 1, 3)).toBeCloseTo(1 - (1 - p) ** (1 / 3), 10);
    }
  });

  it("clamps the CDF outside [0, 1] and answers the quantile's ends exactly", () => {
    expect(betaCdf(-0.5, 2, 3)).toBe(0);
    expect(betaCdf(1.5, 2, 3)).toBe(1);
    expect(betaQuantile(0, 2, 3)).toBe(0);
    expect(betaQuantile(1, 2, 3)).toBe(1);
    expect(betaQuantile(1.1, 2, 3)).toBeNaN();
  });
});

describe("normalCdf", () => {
  it("matches the textbook values Φ(1.96) = 0.9750, Φ(1) = 0.8413, Φ(0) = ½", () => {
    expect(normalCdf(1.96)).toBeCloseTo(0.9750021048517795, 13);
    expect(normalCdf(-1.96)).toBeCloseTo(0.0249978951482205, 13);
    expect(normalCdf(1)).toBeCloseTo(0.8413447460685429, 13);
    expect(normalCdf(0)).toBe(0.5);
  });

  it("is continuous where the series hands over to the continued fraction, and keeps the far tail", () => {
    // Across z = 3 the step must be the density's slope, φ(3)·1e-9 ≈ 4.4e-12, not a seam.
    expect(normalCdf(3) - normalCdf(3 - 1e-9)).toBeCloseTo(0.004431848411938 * 1e-9, 15);
    expect(normalCdf(-3)).toBeCloseTo(0.0013498980316301, 14);
    // Φ(−8) ≈ 6.221e-16 keeps its relative accuracy instead of rounding to 0.
    expect(normalCdf(-8) / 6.22096057427178e-16).toBeCloseTo(1, 9);
    expect(normalCdf(Number.POSITIVE_INFINITY)).toBe(1);
    expect(normalCdf(Number.NEGATIVE_INFINITY)).toBe(0);
  });
});
