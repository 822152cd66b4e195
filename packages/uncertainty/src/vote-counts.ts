/** Throws unless both vote counts are finite and not negative. */
export function assertVoteCounts(caller: string, first: number, second: number): void {
  if (!(first >= 0 && first < Infinity) || !(second >= 0 && second < Infinity)) {
    throw new RangeError(`${caller}: vote counts must be finite and not negative, got ${first} and ${second}`);
  }
}
