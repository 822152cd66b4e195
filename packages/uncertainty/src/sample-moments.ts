/**
 * The mean of a non-empty list, computed as x₀ + Σ(xᵢ − x₀)/n.
 *
 * Shifting by the first value makes the mean of identical values exactly that value (a
 * plain Σxᵢ/n can be one rounding off), so "no spread" and "equal means" stay exact zeros.
 */
export function sampleMean(values: readonly number[]): number {
  const first = values[0]!;
  let shifted = 0;
  for (const value of values) shifted += value - first;
  return first + shifted / values.length;
}

/** Σ(xᵢ − m)² about the list's own mean m; 0 for fewer than two values. */
export function sumOfSquaredDeviations(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const mean = sampleMean(values);
  let sum = 0;
  for (const value of values) sum += (value - mean) ** 2;
  return sum;
}
