/**
 * The billing figures an answer reports, for any operation: the units billed, the credits
 * they cost and the balance after, and whether the ledger had confirmed the charge when the
 * answer went. A pending charge reports its units and credits (it is recorded durably and
 * applied later) and an unknown balance (null).
 */
export interface Settlement {
  units: number;
  creditsUsed: number;
  creditsRemaining: number | null;
  status: "confirmed" | "pending";
}
