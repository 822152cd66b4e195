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

export interface DashboardTables {
  dashboard_users: DashboardUsersTable;
  dashboard_sessions: DashboardSessionsTable;
  dashboard_playground_keys: DashboardPlaygroundKeysTable;
}

export type DashboardUser = Selectable<DashboardUsersTable>;
