// Data access of accounts, API keys, saved audiences, the console's users, sessions, limits,
// playground keys and observed outcomes, the drift watch's runs, and the ledger mirror's
// usage, shared by the gateway, its admin commands and the dashboard so each rule
// (ownership, hashing only, one ledger stream) is written once.
import type { Kysely } from "kysely";
import type { Database } from "../tables/index.ts";

/** What every repository is made from: the pool, or a transaction on it. Callers need no kysely import. */
export type RepositoryDb = Kysely<Database>;

export { accountsRepository, type AccountsRepository } from "./accounts.ts";
export { apiKeysRepository, DEFAULT_MAX_ACTIVE_KEYS_PER_ACCOUNT, KeyLimitReachedError, type ApiKeysRepository, type KeySummary, type StoredKey } from "./api-keys.ts";
export { audiencesRepository, type AudiencesRepository, type NewAudience, type SavedAudienceRecord } from "./audiences.ts";
export { consoleLimitsRepository, type ConsoleLimitsRepository, type CounterWindow } from "./console-limits.ts";
export { dashboardSessionsRepository, type DashboardSessionsRepository, type SessionUser } from "./dashboard-sessions.ts";
export { dashboardUsersRepository, type DashboardCredentials, type DashboardUsersRepository } from "./dashboard-users.ts";
export { driftRunsRepository, type DriftAssetScore, type DriftRunRecord, type DriftRunsRepository, type NewDriftRun } from "./drift-runs.ts";
export { healthRepository, type HealthRepository } from "./health.ts";
export { keptEvaluationsRepository, type KeptEvaluationsRepository, type KeptEvaluation, type KeptEvaluationQuery } from "./kept-evaluations.ts";
export { newId } from "./ids.ts";
export { outcomesRepository, OutcomeQuotaExceeded, type OutcomeQuota, type OutcomesRead, type OutcomesRepository, type OutcomeRecord, type NewOutcome, type OutcomeChange, type RecordedOutcomeRecord, type StoredRequestResult } from "./outcomes.ts";
export { playgroundKeysRepository, type PlaygroundKeysRepository, type StoredPlaygroundKey } from "./playground-keys.ts";
export { usageRepository, type CreditBalance, type DailyModelSpend, type ModelSpend, type ModelSpendQuery, type RequestSettlement, type SettledModelUsage, type UsageDay, type UsageRepository } from "./usage.ts";
export { requestsRepository, type RequestsRepository, type NewRequest, type FinishedRequest, type Claim, type FinishedResponse, type RequestView, type TakenOver, type RequestSummary } from "./requests.ts";
export { settlementsRepository, type SettlementsRepository, type PendingSettlement, type ClaimedSettlement, type SettlementEnd } from "./settlements.ts";
export { storeWithImages, loadWithImages } from "./stored-images.ts";
export { webhooksRepository, newDeliveryId, PREVIOUS_SECRET_GRACE_HOURS, type WebhooksRepository, type ClaimedDelivery, type ClaimOptions, type DeliverySummary, type DeliveryAttempt, type SecretSealer } from "./webhooks.ts";
