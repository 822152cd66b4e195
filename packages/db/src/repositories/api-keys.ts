import { sql, type Kysely } from "kysely";
import type { Database } from "../tables/index.ts";
import { newId } from "./ids.ts";

/** What authentication needs of a key: never the raw key, only its hash. */
export interface StoredKey {
  id: string;
  accountId: string;
  hash: string;
  revoked: boolean;
}

export interface KeySummary {
  id: string;
  name: string;
  /** The non-secret start of the key and its last four characters: enough to recognise it. */
  prefix: string;
  lastFour: string;
  createdAt: Date;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/**
 * Active (not revoked) keys one account may hold unless MAX_ACTIVE_KEYS_PER_ACCOUNT says
 * otherwise. The account's rate window bounds what its keys do together; this bounds how many
 * there are to look up, list and leak, and leaves room for production, staging, CI, people
 * and the console's playground key.
 */
export const DEFAULT_MAX_ACTIVE_KEYS_PER_ACCOUNT = 20;

/** The account already holds the most active keys it may: a key must be revoked first. Nothing was created. */
export class KeyLimitReachedError extends Error {
  override name = "KeyLimitReachedError";
  readonly limit: number;
  constructor(accountId: string, limit: number) {
    super(`account ${accountId} already has ${limit} active API keys, the most it may hold`);
    this.limit = limit;
  }
}

/** API keys: only the hash and the non-secret look-up handle are stored. */
export function apiKeysRepository(db: Kysely<Database>, options: { maxActiveKeys?: number | undefined } = {}) {
  const maxActiveKeys = options.maxActiveKeys ?? DEFAULT_MAX_ACTIVE_KEYS_PER_ACCOUNT;
  return {
    async findByLookup(lookup: string): Promise<StoredKey | null> {
      const row = await db.selectFrom("api_keys").select(["id", "account_id", "hash", "revoked_at"]).where("lookup", "=", lookup).executeTakeFirst();
      return row ? { id: row.id, accountId: row.account_id, hash: row.hash, revoked: row.revoked_at !== null } : null;
    },

    /** Skips rows touched in the last minute, so several gateways do not write for one key. */
    async touchLastUsed(keyId: string, at: Date): Promise<void> {
      await db
        .updateTable("api_keys")
        .set({ last_used_at: at })
        .where("id", "=", keyId)
        .where((eb) => eb.or([eb("last_used_at", "is", null), eb("last_used_at", "<", sql<Date>`${at}::timestamptz - interval '1 minute'`)]))
        .execute();
    },

    /**
     * The one place keys are made (console, playground, admin command line). Throws
     * KeyLimitReachedError when the account already holds `maxActiveKeys` active keys. A
     * transaction-scoped advisory lock per account holds the count and the insert together, so
     * creates for one account take turns and two at once cannot both take the last place (a
     * lock needs no privilege on the accounts table, which the console may only insert into).
     */
    async create(input: { accountId: string; name: string; lookup: string; hash: string; lastFour: string }): Promise<{ id: string }> {
      const id = newId("key");
      await db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(hashtextextended(${`api_keys:${input.accountId}`}, 0))`.execute(trx);
        // Counted up to the limit only: an account from before the cap may hold many more.
        const active = await trx.selectFrom("api_keys").select("id").where("account_id", "=", input.accountId).where("revoked_at", "is", null).limit(maxActiveKeys).execute();
        if (active.length >= maxActiveKeys) throw new KeyLimitReachedError(input.accountId, maxActiveKeys);
        await trx
          .insertInto("api_keys")
          .values({ id, account_id: input.accountId, name: input.name, lookup: input.lookup, hash: input.hash, last_four: input.lastFour })
          .execute();
      });
      return { id };
    },

    /** Revokes a key of this account only: false when the account has no such key. */
    async revokeOwned(accountId: string, keyId: string, at: Date): Promise<boolean> {
      const found = await db.selectFrom("api_keys").select("id").where("id", "=", keyId).where("account_id", "=", accountId).executeTakeFirst();
      if (!found) return false;
      await db.updateTable("api_keys").set({ revoked_at: at }).where("id", "=", keyId).where("revoked_at", "is", null).execute();
      return true;
    },

    /** false when there is no such key; revoking twice keeps the first time. */
    async revoke(keyId: string, at: Date): Promise<boolean> {
      const found = await db.selectFrom("api_keys").select("id").where("id", "=", keyId).executeTakeFirst();
      if (!found) return false;
      await db.updateTable("api_keys").set({ revoked_at: at }).where("id", "=", keyId).where("revoked_at", "is", null).execute();
      return true;
    },

    async listForAccount(accountId: string): Promise<KeySummary[]> {
      const rows = await db
        .selectFrom("api_keys")
        .select(["id", "name", "lookup", "last_four", "created_at", "revoked_at", "last_used_at"])
        .where("account_id", "=", accountId)
        .orderBy("created_at")
        .orderBy("id")
        .execute();
      return rows.map((r) => ({ id: r.id, name: r.name, prefix: r.lookup, lastFour: r.last_four, createdAt: r.created_at, revokedAt: r.revoked_at, lastUsedAt: r.last_used_at }));
    },
  };
}
export type ApiKeysRepository = ReturnType<typeof apiKeysRepository>;
