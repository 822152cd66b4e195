import { createHash, randomBytes } from "node:crypto";
import type { Kysely } from "kysely";
import type { Database } from "../tables/index.ts";

/** The signed-in person a session cookie stands for. */
export interface SessionUser {
  userId: string;
  email: string;
  accountId: string;
  csrfToken: string;
}

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Console sessions, found by the sha256 of the cookie's random token: a stolen table holds no
 * usable session. `now` is the clock expiry is judged by (tests move it).
 */
export function dashboardSessionsRepository(db: Kysely<Database>, ttlMs: number, now: () => Date = () => new Date()) {
  return {
    async create(userId: string): Promise<{ token: string; expiresAt: Date }> {
      const token = randomBytes(32).toString("base64url");
      const expiresAt = new Date(now().getTime() + ttlMs);
      await db.insertInto("dashboard_sessions").values({ token_hash: hashToken(token), user_id: userId, csrf_token: randomBytes(24).toString("base64url"), expires_at: expiresAt }).execute();
      return { token, expiresAt };
    },

    /** null for an unknown or expired token. */
    async find(token: string): Promise<SessionUser | null> {
      const row = await db
        .selectFrom("dashboard_sessions as s")
        .innerJoin("dashboard_users as u", "u.id", "s.user_id")
        .select(["u.id as userId", "u.email", "u.account_id as accountId", "s.csrf_token as csrfToken"])
        .where("s.token_hash", "=", hashToken(token))
        .where("s.expires_at", ">", now())
        .executeTakeFirst();
      return row ?? null;
    },

    async destroy(token: string): Promise<void> {
      await db.deleteFrom("dashboard_sessions").where("token_hash", "=", hashToken(token)).execute();
    },

    /** Old sessions are useless; removed on each sign-in so the table does not grow. */
    async prune(): Promise<void> {
      await db.deleteFrom("dashboard_sessions").where("expires_at", "<=", now()).execute();
    },
  };
}
export type DashboardSessionsRepository = ReturnType<typeof dashboardSessionsRepository>;
