/**
 * How much a persona marks a creative down (positive) or up (negative), in score points.
 * Sceptical, distrustful, price-sensitive and ad-fatigued people are harder to win over;
 * someone ready to buy is easier. Unknown or omitted values count as neutral.
 */
const SHIFTS: Record<string, Record<string, number>> = {
  adSkepticism: { "very-low": -0.15, low: -0.05, moderate: 0, high: 0.2, "very-high": 0.4 },
  trustBaseline: { "very-low": 0.2, low: 0.1, moderate: 0, high: -0.05, "very-high": -0.1 },
  priceSensitivity: { "very-low": -0.05, low: 0, moderate: 0, high: 0.1, "very-high": 0.2 },
  platformFatigue: { low: 0, medium: 0.05, high: 0.1, "very-high": 0.2 },
  shoppingIntent: { browsing: 0.05, researching: 0, comparing: 0.05, "ready-to-buy": -0.1 },
  urgency: { none: 0.05, low: 0, moderate: 0, high: -0.05, urgent: -0.1 },
};

export function personaHarshness(demographics: Record<string, string>): number {
  let total = 0;
  for (const [field, shifts] of Object.entries(SHIFTS)) {
    const value = demographics[field];
    // Own keys only: a value such as "constructor" must not read the table's prototype.
    if (value !== undefined && Object.hasOwn(shifts, value)) total += shifts[value]!;
  }
  return Math.min(0.8, Math.max(-0.3, total));
}
