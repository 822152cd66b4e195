/**
 * A number with a fixed count of decimals that never reads "-0.00": a value that rounds to
 * zero is zero, whatever side of it it was on.
 *
 * @example
 * fixed(-0.004, 2); // "0.00"
 * fixed(4.2, 2); // "4.20"
 */
export function fixed(n: number, digits: number): string {
  const text = n.toFixed(digits);
  return /^-0(\.0*)?$/.test(text) ? text.slice(1) : text;
}

/** The same with a "+" before a positive value, as a lift or a change reads: "+0.35", "-0.20", "0.00". */
export function signedFixed(n: number, digits: number): string {
  const text = fixed(n, digits);
  return Number(text) > 0 ? `+${text}` : text;
}
