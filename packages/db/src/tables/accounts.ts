import type { ColumnType, Generated, Insertable, Selectable } from "kysely";

// Accounts, API keys and saved audiences. Owned by services/gateway (the dashboard adds users).

export interface AccountsTable {
  id: string;
  name: string;
  created_at: Generated<Date>;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  name: string;
  /** Non-secret look-up handle (`agk_live_` + 12 chars); the raw key is never stored. */
  lookup: string;
  /** sha256 hex of the raw key. */
  hash: string;
  last_four: string;
  created_at: Generated<Date>;
  revoked_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  last_used_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

export interface AudiencesTable {
  id: string;
  account_id: string;
  name: string;
  description: string | null;
  demographics: ColumnType<Record<string, string>, string, string>;
  created_at: Generated<Date>;
  updated_at: Generated<Date>;
}

export interface AccountTables {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  audiences: AudiencesTable;
}

export type Account = Selectable<AccountsTable>;
export type ApiKeyRow = Selectable<ApiKeysTable>;
export type NewApiKey = Insertable<ApiKeysTable>;
export type AudienceRow = Selectable<AudiencesTable>;
