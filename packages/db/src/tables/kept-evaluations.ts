import type { ColumnType, Generated } from "kysely";

// Evaluations kept for reuse across requests (issue 36): written and read by the gateway.

export interface KeptEvaluationsTable {
  /** ADRANK_NAMESPACE of the gateway that kept it. */
  namespace: string;
  account_id: string;
  /** SHA-256 hex of what the score job asked and the scorer's method key (rank-assembly's keptEvaluationKey). */
  key: string;
  method_key: string;
  /** The scorer's Evaluation as it came back, as JSON text (parsed by the repository). */
  evaluation: string;
  kept_at: Generated<Date>;
  expires_at: ColumnType<Date, Date | string, Date | string>;
}

export interface KeptEvaluationTables {
  kept_evaluations: KeptEvaluationsTable;
}
