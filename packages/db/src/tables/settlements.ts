import type { ColumnType, Generated } from "kysely";

// The settlement outbox (issue 33): written by the gateway when the ledger did not confirm a
// settle at once, and applied by the gateway's relay; the ledger's sweeper reads it.

export type SettlementState = "pending" | "applied" | "refused";

export interface SettlementOutboxTable {
  stream: string;
  reservation_id: string;
  request_id: string;
  account_id: string;
  units_used: number;
  /** The settle's model usage as sent to the ledger (ModelUsage[]), or null. */
  model_usage: ColumnType<unknown, string | null | undefined, string | null>;
  state: Generated<SettlementState>;
  /** What the ledger charged, once applied. */
  credits_used: number | null;
  /** The account's available credits right after, once applied. */
  balance: number | null;
  attempts: Generated<number>;
  last_error: string | null;
  created_at: Generated<Date>;
  settled_at: Date | null;
  /** When the stored answer of the request was brought up to date. */
  result_updated_at: Date | null;
  next_attempt_at: Generated<Date>;
}

export interface SettlementTables {
  settlement_outbox: SettlementOutboxTable;
}
