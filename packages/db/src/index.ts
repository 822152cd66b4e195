export { createDb, type DbOptions } from "./connect.ts";
export { migrateToLatest } from "./migrate.ts";
export { migrations } from "./migrations/index.ts";
export { assertSchemaCurrent, schemaProblem, describeSchemaStatus, isSchemaCurrent, schemaStatus, SchemaNotCurrentError, type SchemaStatus } from "./schema-status.ts";
export type { Database } from "./tables/index.ts";
export type { LedgerTables } from "./tables/ledger.ts";
export type { AccountTables, Account, ApiKeyRow, NewApiKey, AudienceRow } from "./tables/accounts.ts";
export type { DashboardTables, DashboardUser } from "./tables/dashboard.ts";
export type { RequestTables, ApiRequestRow, WebhookDeliveryRow } from "./tables/requests.ts";
