import type { Kysely } from "kysely";
import type { Database } from "../tables/index.ts";
import { newId } from "./ids.ts";

export function accountsRepository(db: Kysely<Database>) {
  return {
    async create(name: string): Promise<{ id: string; name: string }> {
      const id = newId("acct");
      await db.insertInto("accounts").values({ id, name }).execute();
      return { id, name };
    },

    async find(id: string): Promise<{ id: string; name: string } | null> {
      return (await db.selectFrom("accounts").select(["id", "name"]).where("id", "=", id).executeTakeFirst()) ?? null;
    },
  };
}
export type AccountsRepository = ReturnType<typeof accountsRepository>;
