import type { UsageKind } from "@adrank/contracts";
import type { ColumnType } from "kysely";

// Tables of the ledger's Postgres projection. Owned by services/ledger, written only by its
// projection (one durable consumer of the LEDGER stream); the stream stays the system of
// record and `reconcile` compares the two.

/**
 * The identity of the stream a mirror follows: a stream recreated under the same name has
 * another creation time. `halted` stops every replica's projection until an operator
 * rebuilds the mirror or re-seeds the stream (docs/ledger-mirror.md).
 */
export interface LedgerMirrorsTable {
  stream: string;
  stream_created: Date;
  /** Highest stream sequence projected. */
  last_seq: ColumnType<number, number | undefined, number>;
  status: "projecting" | "halted";
  /** Why the mirror halted, in a sentence an operator can act on; null while projecting. */
  problem: string | null;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** Every ledger event once, keyed by its stream's name and sequence: the audit mirror. */
export interface LedgerEventsTable {
  stream: string;
  stream_seq: number;
  account_id: string;
  type: string;
  payload: ColumnType<Record<string, unknown>, string, never>;
  at: ColumnType<Date, Date, never>;
  projected_at: ColumnType<Date, Date | undefined, never>;
}

/** Running totals per stream and account, updated in the transaction that inserts the event. */
export interface LedgerAccountsTable {
  stream: string;
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
  stream: string;
  account_id: string;
  reservation_id: string;
  key_id: string;
  kind: UsageKind;
  units: number;
  units_used: number | null;
  status: "open" | "settled" | "expired";
  reserved_at: Date;
  closed_at: Date | null;
}

/**
 * Model spend: calls and tokens that settled requests reported per model, summed per account,
 * UTC day of settlement, model and usage kind. Written by the projection with the event.
 */
export interface LedgerModelUsageTable {
  stream: string;
  account_id: string;
  /** Written as `YYYY-MM-DD`; pg reads a date back as a Date at local midnight, so read it with to_char. */
  day: ColumnType<Date, string, never>;
  /** "provider:model". */
  model: string;
  kind: UsageKind;
  calls: number;
  /** Every prompt token, cached or not. */
  input_tokens: number;
  output_tokens: number;
  /** Of input_tokens, read from the provider's prompt cache (0 before it was recorded). */
  cached_input_tokens: ColumnType<number, number | undefined, number>;
  /** Of input_tokens, written to the provider's prompt cache. */
  cache_write_input_tokens: ColumnType<number, number | undefined, number>;
}

/** View: balance per account (available = granted - used - reserved). */
export interface AccountBalancesView {
  stream: ColumnType<string, never, never>;
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
  stream: ColumnType<string, never, never>;
  account_id: ColumnType<string, never, never>;
  day: ColumnType<Date, never, never>;
  kind: ColumnType<UsageKind, never, never>;
  units_used: ColumnType<number, never, never>;
  reservations: ColumnType<number, never, never>;
}

/** Events an operator command took out of a mirror or a stream; kept for audit. */
export interface LedgerEventsArchiveTable {
  archived_at: ColumnType<Date, Date | undefined, never>;
  reason: "rebuild" | "reseed-discarded-stream-events";
  stream: string;
  stream_created: Date | null;
  stream_seq: number;
  account_id: string;
  payload: ColumnType<Record<string, unknown>, string, never>;
}

export interface LedgerTables {
  ledger_mirrors: LedgerMirrorsTable;
  ledger_events: LedgerEventsTable;
  ledger_events_archive: LedgerEventsArchiveTable;
  ledger_accounts: LedgerAccountsTable;
  ledger_reservations: LedgerReservationsTable;
  ledger_model_usage: LedgerModelUsageTable;
  account_balances: AccountBalancesView;
  usage_per_day: UsagePerDayView;
}
