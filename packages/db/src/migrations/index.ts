import type { Migration } from "kysely/migration";
import * as accounts from "./2026_11_22_10_accounts.ts";
import * as ledgerProjection from "./2026_11_23_01_ledger_projection.ts";
import * as dashboardUsers from "./2026_11_23_20_dashboard_users.ts";
import * as ledgerMirrorIdentity from "./2026_11_24_10_ledger_mirror_identity.ts";
import * as consoleLimits from "./2026_11_24_20_console_limits.ts";
import * as ledgerModelUsage from "./2026_11_25_10_ledger_model_usage.ts";
import * as durableRequests from "./2026_11_26_10_durable_requests.ts";
import * as outcomes from "./2026_11_27_10_outcomes.ts";
import * as sealedWebhookSecrets from "./2026_11_28_20_sealed_webhook_secrets.ts";
import * as fairWebhookClaims from "./2026_11_28_21_fair_webhook_claims.ts";
import * as settlementOutbox from "./2026_11_29_10_settlement_outbox.ts";
import * as driftRuns from "./2026_11_30_10_drift_runs.ts";
import * as outcomeProbabilities from "./2026_11_30_20_outcome_probabilities.ts";
import * as rankAudiencesRequests from "./2026_12_01_10_rank_audiences_requests.ts";
import * as modelUsageCacheTokens from "./2026_12_02_10_model_usage_cache_tokens.ts";
import * as keptEvaluations from "./2026_12_02_20_kept_evaluations.ts";

/**
 * Every migration in order. Names sort by their date prefix; kysely refuses to run when an
 * applied migration is missing from this list, so a migration once shipped is never renamed.
 * Add a migration as a new file and a new entry here.
 */
export const migrations: Record<string, Migration> = {
  "2026_11_22_10_accounts": accounts,
  "2026_11_23_01_ledger_projection": ledgerProjection,
  "2026_11_23_20_dashboard_users": dashboardUsers,
  "2026_11_24_10_ledger_mirror_identity": ledgerMirrorIdentity,
  "2026_11_24_20_console_limits": consoleLimits,
  "2026_11_25_10_ledger_model_usage": ledgerModelUsage,
  "2026_11_26_10_durable_requests": durableRequests,
  "2026_11_27_10_outcomes": outcomes,
  "2026_11_28_20_sealed_webhook_secrets": sealedWebhookSecrets,
  "2026_11_28_21_fair_webhook_claims": fairWebhookClaims,
  "2026_11_29_10_settlement_outbox": settlementOutbox,
  "2026_11_30_10_drift_runs": driftRuns,
  "2026_11_30_20_outcome_probabilities": outcomeProbabilities,
  "2026_12_01_10_rank_audiences_requests": rankAudiencesRequests,
  "2026_12_02_10_model_usage_cache_tokens": modelUsageCacheTokens,
  "2026_12_02_20_kept_evaluations": keptEvaluations,
};
