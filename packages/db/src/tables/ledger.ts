import type { ColumnType } from "kysely";

// Tables of the ledger's Postgres projection. Owned by services/ledger, written only by its
// projection (one durable consumer of the LEDGER stream); the stream stays the system of
// record and `reconcile` compares the two.

/** Every ledger event once, keyed by its LEDGER stream sequence: the audit mirror. */
export interface LedgerEventsTable {
  stream_seq: number;
  account_id: string;
  type: string;
  payload: ColumnType<Record<string, unknown>, string, never>;
  at: ColumnType<Date, Date, never>;
  projected_at: ColumnType<Date, Date | undefined, never>;
}

/** Running totals per account, updated in the transaction that inserts the event. */
export interface LedgerAccountsTable {
  account_id: string;
  granted: number;
  used: number;
  reserved: number;
  /** Highest stream sequence applied for this account. */
  last_seq: number;
  event_count: number;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface LedgerReservationsTable {
  account_id: string;
  reservation_id: string;
  key_id: string;
  kind: "scoring" | "pairwise";
  units: number;
  units_used: number | null;
  status: "open" | "settled" | "expired";
  reserved_at: Date;
  closed_at: Date | null;
}

/** View: balance per account (available = granted - used - reserved). */
export interface AccountBalancesView {
  account_id: ColumnType<string, never, never>;
  granted: ColumnType<number, never, never>;
  used: ColumnType<number, never, never>;
  reserved: ColumnType<number, never, never>;
  available: ColumnType<number, never, never>;
  last_seq: ColumnType<number, never, never>;
  updated_at: ColumnType<Date, never, never>;
}

/** View: settled units per account, UTC day (of settlement) and kind, for the dashboard. */
export interface UsagePerDayView {
  account_id: ColumnType<string, never, never>;
  day: ColumnType<Date, never, never>;
  kind: ColumnType<"scoring" | "pairwise", never, never>;
  units_used: ColumnType<number, never, never>;
  reservations: ColumnType<number, never, never>;
}

export interface LedgerTables {
  ledger_events: LedgerEventsTable;
  ledger_accounts: LedgerAccountsTable;
  ledger_reservations: LedgerReservationsTable;
  account_balances: AccountBalancesView;
  usage_per_day: UsagePerDayView;
}
