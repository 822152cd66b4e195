import type { ColumnType, Generated } from "kysely";

// Observed outcomes (issue 19). Owned by services/gateway; the dashboard reads them.

export interface OutcomesTable {
  account_id: string;
  request_id: string;
  asset_id: string;
  metric: string;
  value: number;
  /** bigint: pg returns it as text, so it is read as a string and converted where read. */
  impressions: ColumnType<string | null, number | null | undefined, number | null>;
  /** Copied from the ranking when the outcome was first recorded. */
  goal: string;
  score: number;
  score_before_refine: number;
  simulated: boolean;
  /** The asset's rank and p_above_next in its ranking (issue 34); null before they were copied. */
  rank: number | null;
  p_above_next: number | null;
  request_created_at: Date;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface OutcomeTables {
  outcomes: OutcomesTable;
}
