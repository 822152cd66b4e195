import { PANEL_SIZE } from "./panel-orders.ts";

/**
 * Which of a mixed panel's models sits in a seat. The seats alternate presentation orders
 * (ab, ba, ab, ba, ab), so the models take consecutive blocks of seats, the first ones one
 * seat more when the panel does not divide evenly: two models sit 3 + 2, three 2 + 2 + 1. Any
 * block of two or more seats sees both orders, so a model's own first-position bias never
 * lands on one side only. (A round-robin would give two models one order each.)
 *
 * @example
 * [0, 1, 2, 3, 4].map((seat) => modelIndexForSeat(seat, 2)); // [0, 0, 0, 1, 1]
 */
export function modelIndexForSeat(seat: number, models: number): number {
  if (!Number.isInteger(models) || models < 1) throw new RangeError("a panel needs at least one voter model");
  if (!Number.isInteger(seat) || seat < 0) throw new RangeError(`seat ${seat} is not a seat`);
  if (seat >= PANEL_SIZE) return seat % models;
  const base = Math.floor(PANEL_SIZE / models);
  const larger = PANEL_SIZE % models;
  // The first `larger` blocks hold base + 1 seats, the rest base.
  const inLarger = larger * (base + 1);
  return seat < inLarger ? Math.floor(seat / (base + 1)) : larger + Math.floor((seat - inLarger) / base);
}
