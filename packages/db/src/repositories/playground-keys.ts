import type { Kysely } from "kysely";
import type { Database } from "../tables/index.ts";

/** An account's console playground key as stored: sealed by the console, which alone can open it. */
export interface StoredPlaygroundKey {
  encryptedKey: string;
  /** The user revoked the key in the key list: the console must issue another. */
  revoked: boolean;
}

/**
 * The console's own API key per account, used by the playground to call the public API. The
 * raw key is kept (encrypted) because the console must send it; the key itself is an ordinary
 * row of api_keys, billed, rate-limited and revocable like any other.
 */
export function playgroundKeysRepository(db: Kysely<Database>) {
  return {
    async findForAccount(accountId: string): Promise<StoredPlaygroundKey | null> {
      const row = await db
        .selectFrom("dashboard_playground_keys as p")
        .innerJoin("api_keys as k", "k.id", "p.key_id")
        .select(["p.encrypted_key", "k.revoked_at"])
        .where("p.account_id", "=", accountId)
        .executeTakeFirst();
      return row ? { encryptedKey: row.encrypted_key, revoked: row.revoked_at !== null } : null;
    },

    /** The id (in api_keys) of the account's playground key, so the key list can say which one it is. */
    async keyIdForAccount(accountId: string): Promise<string | null> {
      const row = await db.selectFrom("dashboard_playground_keys").select("key_id").where("account_id", "=", accountId).executeTakeFirst();
      return row?.key_id ?? null;
    },

    /** Makes `keyId` the account's playground key, replacing the one it had. */
    async save(accountId: string, keyId: string, encryptedKey: string): Promise<void> {
      await db
        .insertInto("dashboard_playground_keys")
        .values({ account_id: accountId, key_id: keyId, encrypted_key: encryptedKey })
        .onConflict((oc) => oc.column("account_id").doUpdateSet({ key_id: keyId, encrypted_key: encryptedKey }))
        .execute();
    },
  };
}
export type PlaygroundKeysRepository = ReturnType<typeof playgroundKeysRepository>;
