// Every rank statistic here compares values with < and ===: a NaN would silently corrupt the
// sort orders they rest on, so bad input is refused at the door instead.

/** Throws a RangeError unless x and y have the same length and hold only finite numbers. */
export function assertPairedValues(name: string, x: ArrayLike<number>, y: ArrayLike<number>): void {
  if (x.length !== y.length) throw new RangeError(`${name} needs paired values: ${x.length} x against ${y.length} y`);
  for (let i = 0; i < x.length; i++) {
    if (!Number.isFinite(x[i]) || !Number.isFinite(y[i])) throw new RangeError(`${name} needs finite values: pair ${i} is (${x[i]}, ${y[i]})`);
  }
}
