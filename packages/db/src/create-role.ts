import { sql, type Kysely } from "kysely";
import { quoteIdent } from "./connect.ts";

/**
 * CREATE ROLE that leaves an existing role alone. Postgres has no CREATE ROLE IF NOT EXISTS,
 * and roles belong to the whole cluster: another migrate run, or a test file beside this one,
 * may create the same role between a look-up and the CREATE, so the error it then raises is
 * swallowed instead. Other errors (no CREATEROLE: 42501) reach the caller.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any database
export async function createRoleUnlessExists(db: Kysely<any>, role: string, login: "login" | "nologin"): Promise<void> {
  await sql.raw(`do $$ begin create role ${quoteIdent(role)} ${login}; exception when duplicate_object or unique_violation then null; end $$`).execute(db);
}
