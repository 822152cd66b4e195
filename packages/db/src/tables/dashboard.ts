import type { Generated, Selectable } from "kysely";

// The account console's people and sessions (services/dashboard).

export interface DashboardUsersTable {
  id: string;
  /** Lower-cased. */
  email: string;
  /** scrypt, with its parameters and salt: `scrypt$N$r$p$salt$hash`. */
  password_hash: string;
  account_id: string;
  created_at: Generated<Date>;
}

export interface DashboardSessionsTable {
  /** sha256 of the cookie's token: a stolen table holds no usable session. */
  token_hash: string;
  user_id: string;
  csrf_token: string;
  expires_at: Date;
  created_at: Generated<Date>;
}

export interface DashboardPlaygroundKeysTable {
  account_id: string;
  key_id: string;
  /** AES-256-GCM under a key derived from DASHBOARD_SESSION_SECRET. */
  encrypted_key: string;
}

/**
 * One fixed window of one sign-up or sign-in limit, shared by every console replica. `key`
 * names the limit and hashes its subject (`signup:address:<sha256>`): no email or client
 * address is stored in clear.
 */
export interface DashboardLimitCountersTable {
  key: string;
  window_start: Date;
  /** When the window ends: the Retry-After of a refusal, and when the row may be pruned. */
  window_end: Date;
  count: number;
}

export interface DashboardTables {
  dashboard_users: DashboardUsersTable;
  dashboard_sessions: DashboardSessionsTable;
  dashboard_playground_keys: DashboardPlaygroundKeysTable;
  dashboard_limit_counters: DashboardLimitCountersTable;
}

export type DashboardUser = Selectable<DashboardUsersTable>;
