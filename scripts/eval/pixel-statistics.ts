import type { RgbImage } from "./png.ts";

/** The two statistics the synthetic outcome is a function of. */
export interface FixtureStatistics {
  /** Standard deviation of Rec. 601 luma (0.299 R + 0.587 G + 0.114 B), 0..~128. */
  lumaContrast: number;
  /** Mean Rec. 601 luma, 0..255 (kept in a good exposure range; not part of the outcome). */
  meanLuma: number;
  /**
   * Hasler and Süsstrunk (2003): sqrt(σ_rg² + σ_yb²) + 0.3 · sqrt(μ_rg² + μ_yb²) with
   * rg = R − G and yb = (R + G) / 2 − B. 0 is grey; ~33 moderately, ~59 highly colourful.
   */
  colourfulness: number;
}

/** Measured from the generator's own pixels (population moments over every pixel). */
export function fixtureStatistics({ width, height, rgb }: RgbImage): FixtureStatistics {
  const n = width * height;
  let sumL = 0, sumL2 = 0, sumRg = 0, sumRg2 = 0, sumYb = 0, sumYb2 = 0;
  for (let i = 0; i < n; i++) {
    const r = rgb[i * 3]!;
    const g = rgb[i * 3 + 1]!;
    const b = rgb[i * 3 + 2]!;
    const l = 0.299 * r + 0.587 * g + 0.114 * b;
    const rg = r - g;
    const yb = 0.5 * (r + g) - b;
    sumL += l;
    sumL2 += l * l;
    sumRg += rg;
    sumRg2 += rg * rg;
    sumYb += yb;
    sumYb2 += yb * yb;
  }
  const mean = (s: number) => s / n;
  const std = (s: number, s2: number) => Math.sqrt(Math.max(0, s2 / n - (s / n) ** 2));
  return {
    lumaContrast: std(sumL, sumL2),
    meanLuma: mean(sumL),
    colourfulness: Math.hypot(std(sumRg, sumRg2), std(sumYb, sumYb2)) + 0.3 * Math.hypot(mean(sumRg), mean(sumYb)),
  };
}
