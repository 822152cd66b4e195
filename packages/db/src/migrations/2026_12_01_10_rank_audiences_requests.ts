import { sql, type Kysely } from "kysely";

// Audiences side by side (issue 35): POST /api/v1/rank/audiences is a durable request like rank
// and pairwise (Idempotency-Keys, async, GET by request_id), stored as operation 'rank_audiences'.

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table api_requests drop constraint api_requests_operation_check`.execute(db);
  await sql`alter table api_requests add constraint api_requests_operation_check check (operation in ('rank', 'pairwise', 'rank_audiences'))`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see up()
export async function down(db: Kysely<any>): Promise<void> {
  // Rows of the new operation cannot stay under the old rule: they go with it.
  await sql`delete from api_requests where operation = 'rank_audiences'`.execute(db);
  await sql`alter table api_requests drop constraint api_requests_operation_check`.execute(db);
  await sql`alter table api_requests add constraint api_requests_operation_check check (operation in ('rank', 'pairwise'))`.execute(db);
}
