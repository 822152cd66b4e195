import type { Kysely } from "kysely";

// What a ranking said about an asset's place (issue 34), copied with its outcome like the score:
// its rank and p_above_next, the probability it gave that the asset outranks the next one. The
// calibration's reliability table compares those probabilities with the outcomes. Null for
// outcomes recorded before this, and for rankings answered before p_above_next existed.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("outcomes").addColumn("rank", "integer").addColumn("p_above_next", "double precision").execute();
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("outcomes").dropColumn("rank").dropColumn("p_above_next").execute();
}
