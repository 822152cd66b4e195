// Which tables each process that connects to Postgres may read and write: the one list of the
// services' database rights. The migrate step (migrate-cli.ts, the owner of the tables) applies
// it after every run (grant-service-roles.ts): a NOLOGIN group role per service gets exactly
// these privileges and nothing else, and each service logs in as a member of its group. No
// service may create, alter, drop or truncate a table; only the migrate step's owner role can.
//
// Worked out from the repositories each process uses (packages/db/src/repositories) and the
// queries it makes itself. Postgres needs SELECT wherever a statement reads a column: an UPDATE
// or DELETE with a WHERE, a RETURNING, any `on conflict (columns)`, even `do nothing`.
// Foreign-key checks and ON DELETE CASCADE run as the table's owner and need nothing here.
import type { MIGRATION_TABLE } from "./migrate.ts";
import type { Database } from "./tables/index.ts";

export type TablePrivilege = "SELECT" | "INSERT" | "UPDATE" | "DELETE";
type GrantedTable = keyof Database | typeof MIGRATION_TABLE;
type TableGrants = Partial<Record<GrantedTable, readonly TablePrivilege[]>>;

const READ = ["SELECT"] as const;
const ALL = ["SELECT", "INSERT", "UPDATE", "DELETE"] as const;

export const SERVICE_GRANTS = {
  // Internet-facing: authenticates keys, runs and stores requests, delivers webhooks. It
  // cannot create accounts or keys, nor read the console's users, sessions or playground keys.
  gateway: {
    kysely_migration: READ, // the schema check at start
    api_keys: ["SELECT", "UPDATE"], // find by look-up handle; last_used_at
    audiences: ["SELECT", "INSERT"],
    api_requests: ALL, // durable requests: start, lease, finish, abandon, purge
    idempotency_keys: ALL,
    stored_images: ["SELECT", "INSERT", "DELETE"], // the purge drops unreferenced images
    api_request_images: ["SELECT", "INSERT"],
    webhook_secrets: ["SELECT", "UPDATE"], // signs deliveries, seals a plain secret; the console creates and rotates them
    webhook_deliveries: ["SELECT", "INSERT", "UPDATE"],
    webhook_attempts: ["SELECT", "INSERT"], // `on conflict (delivery_id, attempt) do nothing` reads the target
    webhook_account_turns: ["SELECT", "INSERT", "UPDATE"], // fair claiming: when each account was last served
    outcomes: ["SELECT", "INSERT", "UPDATE"],
    settlement_outbox: ["SELECT", "INSERT", "UPDATE"], // settles the ledger has not confirmed: recorded, relayed, reported
    drift_runs: ["SELECT", "INSERT"], // the drift watch (admin/drift), which runs with the gateway's role: append a run, read the last
    kept_evaluations: ALL, // evaluations kept for reuse: upserted, looked up, expired ones swept
  },
  // The ledger's Postgres mirror, and its operator commands (mirror-cli, reconcile, model-usage)
  // that run with the ledger's environment: rebuild and reseed delete and renumber mirrored rows.
  ledger: {
    kysely_migration: READ,
    ledger_mirrors: ["SELECT", "INSERT", "UPDATE"],
    ledger_events: ALL,
    ledger_accounts: ALL,
    ledger_reservations: ALL,
    ledger_model_usage: ALL,
    ledger_events_archive: ["INSERT"],
    settlement_outbox: READ, // the sweeper never expires a reservation whose settle is still being relayed
    api_requests: READ, // reconcile compares what stored answers told their callers about credits with the stream
  },
  // The account console: sign-up and sign-in, its limits, keys, audiences, webhooks, usage,
  // and the history of requests and outcomes (read only).
  dashboard: {
    kysely_migration: READ,
    accounts: ["INSERT"], // a sign-up creates the account
    dashboard_users: ["SELECT", "INSERT"],
    dashboard_sessions: ["SELECT", "INSERT", "DELETE"],
    dashboard_playground_keys: ["SELECT", "INSERT", "UPDATE"],
    dashboard_limit_counters: ALL,
    api_keys: ["SELECT", "INSERT", "UPDATE"], // create, list, revoke
    audiences: ALL,
    api_requests: READ,
    stored_images: READ,
    webhook_secrets: ["SELECT", "INSERT", "UPDATE"], // create and rotate
    webhook_deliveries: READ,
    webhook_attempts: READ,
    outcomes: READ,
    account_balances: READ,
    usage_per_day: READ,
  },
  // The admin command (services/gateway/src/admin): accounts and keys from an operator's shell.
  admin: {
    kysely_migration: READ,
    accounts: ["SELECT", "INSERT"],
    api_keys: ["SELECT", "INSERT", "UPDATE"],
  },
} as const satisfies Record<string, TableGrants>;

export type DatabaseService = keyof typeof SERVICE_GRANTS;
export const DATABASE_SERVICES = Object.keys(SERVICE_GRANTS) as DatabaseService[];

/**
 * Tables no service touches: only the owner reads them. Every table and view of the schema is
 * either granted above or named here, so a migration that adds a table must decide (a test
 * checks it).
 */
export const OWNER_ONLY_TABLES: readonly string[] = [
  "kysely_migration_lock", // held by the migrate step only
  "ledger_events_v1", // events from before the mirror knew its stream, kept for the record
];

/** Group roles are `<prefix>_<service>`: one prefix per deployment sharing a Postgres cluster. */
export const DEFAULT_ROLE_PREFIX = "adrank";
const PREFIX = /^[a-z_][a-z0-9_]{0,40}$/;

export function groupRoleName(prefix: string, service: DatabaseService): string {
  if (!PREFIX.test(prefix)) throw new Error(`not a usable role prefix: ${JSON.stringify(prefix)} (lower-case letters, digits and _, at most 41)`);
  return `${prefix}_${service}`;
}

/** The environment variable that holds a service's connection string in a deployment's secrets (GATEWAY_DATABASE_URL, …). */
export function databaseUrlVariable(service: DatabaseService): string {
  return `${service.toUpperCase()}_DATABASE_URL`;
}
