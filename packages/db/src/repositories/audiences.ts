import type { Kysely } from "kysely";
import type { Database } from "../tables/index.ts";
import { newId } from "./ids.ts";

export interface SavedAudienceRecord {
  id: string;
  name: string;
  description: string | null;
  demographics: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
}

export interface NewAudience {
  name: string;
  description?: string | undefined;
  demographics?: Record<string, string> | undefined;
}

/** Saved audiences, always read through their owner: another account's audience does not exist. */
export function audiencesRepository(db: Kysely<Database>) {
  const columns = ["id", "name", "description", "demographics", "created_at", "updated_at"] as const;
  const toRecord = (r: { id: string; name: string; description: string | null; demographics: Record<string, string>; created_at: Date; updated_at: Date }): SavedAudienceRecord => ({
    id: r.id,
    name: r.name,
    description: r.description,
    demographics: r.demographics,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  });

  return {
    /** null when the id does not exist or belongs to another account; the route turns it into 404. */
    async findOwned(accountId: string, id: string): Promise<SavedAudienceRecord | null> {
      const row = await db.selectFrom("audiences").select(columns).where("id", "=", id).where("account_id", "=", accountId).executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    async listOwned(accountId: string): Promise<SavedAudienceRecord[]> {
      const rows = await db.selectFrom("audiences").select(columns).where("account_id", "=", accountId).orderBy("created_at").orderBy("id").execute();
      return rows.map(toRecord);
    },

    async create(accountId: string, input: NewAudience): Promise<SavedAudienceRecord> {
      const row = await db
        .insertInto("audiences")
        .values({
          id: newId("aud"),
          account_id: accountId,
          name: input.name,
          description: input.description ?? null,
          demographics: JSON.stringify(input.demographics ?? {}),
        })
        .returning(columns)
        .executeTakeFirstOrThrow();
      return toRecord(row);
    },

    /** Replaces name, description and demographics; null when the account has no such audience. */
    async updateOwned(accountId: string, id: string, input: NewAudience): Promise<SavedAudienceRecord | null> {
      const row = await db
        .updateTable("audiences")
        .set({ name: input.name, description: input.description ?? null, demographics: JSON.stringify(input.demographics ?? {}), updated_at: new Date() })
        .where("id", "=", id)
        .where("account_id", "=", accountId)
        .returning(columns)
        .executeTakeFirst();
      return row ? toRecord(row) : null;
    },

    /** false when the account has no such audience. */
    async deleteOwned(accountId: string, id: string): Promise<boolean> {
      const result = await db.deleteFrom("audiences").where("id", "=", id).where("account_id", "=", accountId).executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
  };
}
export type AudiencesRepository = ReturnType<typeof audiencesRepository>;
