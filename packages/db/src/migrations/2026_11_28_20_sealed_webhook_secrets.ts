import { sql, type Kysely } from "kysely";

// Webhook signing secrets sealed at rest (issue 31). SQL has no key, so this migration cannot
// seal the existing rows: it only pins down the two forms a value may take. `v1.…` is sealed
// under ADRANK_SECRETS_KEY (AES-256-GCM, the account id authenticated with it); `whsec_…` is
// a plain secret from before. Every gateway seals the plain rows when it starts, and seals a
// plain value it meets when it signs a delivery with it (a console of the previous release
// may still write one during a rolling update), so plain values do not outlive the upgrade.

const FORMS = `'^(v1\\.|whsec_)'`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function up(db: Kysely<any>): Promise<void> {
  await sql`alter table webhook_secrets add constraint webhook_secrets_secret_form check (secret ~ ${sql.raw(FORMS)})`.execute(db);
  await sql`alter table webhook_secrets add constraint webhook_secrets_previous_secret_form check (previous_secret is null or previous_secret ~ ${sql.raw(FORMS)})`.execute(db);
  await sql`comment on column webhook_secrets.secret is 'v1.… sealed under ADRANK_SECRETS_KEY; a plain whsec_… (before 2026_11_28_20) is sealed by the gateway'`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run before the typed schema exists
export async function down(db: Kysely<any>): Promise<void> {
  await sql`comment on column webhook_secrets.secret is null`.execute(db);
  await sql`alter table webhook_secrets drop constraint webhook_secrets_previous_secret_form`.execute(db);
  await sql`alter table webhook_secrets drop constraint webhook_secrets_secret_form`.execute(db);
}
