export { startLedger, type Ledger, type LedgerDeps } from "./ledger.ts";
export { LedgerEnv } from "./config.ts";
export { createAccountStore, msgIdOf, ContentionError, type AccountStore, type AccountSnapshot, type Executed, type AccountStoreOptions, type AccountStoreStats } from "./account-store.ts";
export { createEventLog, type EventLog, type StoredEvent, type AppendOutcome } from "./event-log.ts";
export { startRpcHandlers, type RpcHandlers } from "./handlers.ts";
export { startProjection, applyEvents, PROJECTION_CONSUMER, type Projection, type ProjectionOptions } from "./projection.ts";
export { startSweeper, type Sweeper, type SweeperOptions } from "./sweeper.ts";
export { reconcile, type ReconcileReport, type Difference } from "./reconcile.ts";
export { silentLogger, type LedgerLogger } from "./logger.ts";
