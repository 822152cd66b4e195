export function mean(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** Element-wise mean of equally long rows. */
export function meanRow(rows: ReadonlyArray<readonly number[]>, width: number): number[] {
  return Array.from({ length: width }, (_, i) => mean(rows.map((row) => row[i]!)));
}
