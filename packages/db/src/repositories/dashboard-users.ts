import type { Kysely } from "kysely";
import type { Database } from "../tables/index.ts";
import { accountsRepository } from "./accounts.ts";
import { newId } from "./ids.ts";

const UNIQUE_VIOLATION = "23505";

/** What signing in needs of a console user: the scrypt hash, never compared here. */
export interface DashboardCredentials {
  userId: string;
  passwordHash: string;
}

/** People who sign in to the account console; emails are stored lower-cased by the caller. */
export function dashboardUsersRepository(db: Kysely<Database>) {
  return {
    /** Whether the email is taken: checked before hashing a password, so a known email is refused cheaply. */
    async exists(email: string): Promise<boolean> {
      const row = await db.selectFrom("dashboard_users").select("id").where("email", "=", email).executeTakeFirst();
      return row !== undefined;
    },

    async findCredentials(email: string): Promise<DashboardCredentials | null> {
      const row = await db.selectFrom("dashboard_users").select(["id", "password_hash"]).where("email", "=", email).executeTakeFirst();
      return row ? { userId: row.id, passwordHash: row.password_hash } : null;
    },

    /**
     * Creates the account (named after the email) and its first user in one transaction, so
     * two sign-ups racing with one email leave one account, not an orphan. null when a unique
     * constraint refused it (the email was taken in the meantime); nothing is then created.
     */
    async createWithAccount(input: { email: string; passwordHash: string }): Promise<{ userId: string; accountId: string } | null> {
      const userId = newId("usr");
      try {
        return await db.transaction().execute(async (trx) => {
          const account = await accountsRepository(trx).create(input.email);
          await trx.insertInto("dashboard_users").values({ id: userId, email: input.email, password_hash: input.passwordHash, account_id: account.id }).execute();
          return { userId, accountId: account.id };
        });
      } catch (err) {
        if ((err as { code?: string }).code === UNIQUE_VIOLATION) return null;
        throw err;
      }
    },
  };
}
export type DashboardUsersRepository = ReturnType<typeof dashboardUsersRepository>;
