/**
 * The billing figures an answer reports, for any operation: the units billed, the credits
 * they cost and the balance after. When the ledger could not confirm the settlement the
 * gateway reports the units used, 0 credits and an unknown balance (null): its reservation
 * expires unsettled, which charges nothing.
 */
export interface Settlement {
  units: number;
  creditsUsed: number;
  creditsRemaining: number | null;
}
