import type { LedgerTables } from "./ledger.ts";
import type { AccountTables } from "./accounts.ts";
import type { DashboardTables } from "./dashboard.ts";
import type { RequestTables } from "./requests.ts";
import type { OutcomeTables } from "./outcomes.ts";
import type { SettlementTables } from "./settlements.ts";
import type { DriftTables } from "./drift.ts";
import type { KeptEvaluationTables } from "./kept-evaluations.ts";

/**
 * The whole schema as kysely sees it: one interface per area, each in its own file, so the
 * ledger projection and the gateway's accounts can change without touching each other.
 */
export interface Database extends LedgerTables, AccountTables, DashboardTables, RequestTables, OutcomeTables, SettlementTables, DriftTables, KeptEvaluationTables {}
