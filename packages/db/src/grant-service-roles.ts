// Applies SERVICE_GRANTS (service-roles.ts) to one schema: the migrate step runs it after every
// migration run, so a table a migration adds is granted before any release that uses it starts,
// and a right taken out of the list is revoked. Run as the owner of the tables.
import { sql, type Kysely } from "kysely";
import { quoteIdent } from "./connect.ts";
import { createRoleUnlessExists } from "./create-role.ts";
import { resolveSchema } from "./migrate.ts";
import { DATABASE_SERVICES, DEFAULT_ROLE_PREFIX, groupRoleName, OWNER_ONLY_TABLES, SERVICE_GRANTS, type TablePrivilege } from "./service-roles.ts";

export interface GrantReport {
  schema: string;
  /** The group roles granted, in DATABASE_SERVICES order. */
  roles: string[];
  /** Group roles this run created (the first run on a cluster). */
  created: string[];
  /** Tables and views of the schema that are neither granted nor owner-only: no service can use them. */
  unlisted: string[];
}

/**
 * Creates the missing group roles (NOLOGIN, so nobody signs in as one), then gives each exactly
 * its SERVICE_GRANTS on `schema` (default: the connection's current schema): USAGE on the schema,
 * its privileges on its tables, nothing on any other table and no CREATE. Idempotent, and safe
 * beside other runs: role creation tolerates a concurrent creator, and the grants of one schema
 * are serialized by an advisory lock (concurrent GRANTs on one object can fail).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema may be granted
export async function grantServiceRoles(db: Kysely<any>, options: { schema?: string; prefix?: string } = {}): Promise<GrantReport> {
  const schema = await resolveSchema(db, options.schema);
  if (!schema) throw new Error("cannot grant the service roles: no schema on the search_path exists");
  const prefix = options.prefix ?? DEFAULT_ROLE_PREFIX;
  const roles = DATABASE_SERVICES.map((service) => groupRoleName(prefix, service));
  const created = await ensureGroupRoles(db, roles);
  const s = quoteIdent(schema);

  const unlisted = await db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(hashtext('adrank-service-grants'), hashtext(${schema}))`.execute(trx);
    const { rows } = await sql<{ name: string }>`
      select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${schema} and c.relkind in ('r', 'p', 'v', 'm', 'f')`.execute(trx);
    const present = new Set(rows.map((r) => r.name));
    // Postgres before 15 lets everyone create tables in "public".
    await sql.raw(`revoke create on schema ${s} from public`).execute(trx);
    for (const service of DATABASE_SERVICES) {
      const role = quoteIdent(groupRoleName(prefix, service));
      await sql.raw(`revoke all on all tables in schema ${s} from ${role}`).execute(trx);
      await sql.raw(`revoke all on all sequences in schema ${s} from ${role}`).execute(trx);
      await sql.raw(`revoke create on schema ${s} from ${role}`).execute(trx);
      await sql.raw(`grant usage on schema ${s} to ${role}`).execute(trx);
      for (const [table, privileges] of Object.entries(SERVICE_GRANTS[service]) as Array<[string, readonly TablePrivilege[]]>) {
        if (!present.has(table)) throw new Error(`cannot grant ${service} its rights on "${table}": schema "${schema}" has no such table (migrate first, or fix packages/db/src/service-roles.ts)`);
        await sql.raw(`grant ${privileges.join(", ")} on ${s}.${quoteIdent(table)} to ${role}`).execute(trx);
      }
    }
    const granted = new Set([...OWNER_ONLY_TABLES, ...Object.values(SERVICE_GRANTS).flatMap((g) => Object.keys(g))]);
    return [...present].filter((t) => !granted.has(t)).sort();
  });
  return { schema, roles, created, unlisted };
}

/** Creates each missing role as NOLOGIN; an existing role is left as it is (the operator may have made it). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any database
async function ensureGroupRoles(db: Kysely<any>, roles: string[]): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select rolname as name from pg_roles where rolname in (${sql.join(roles)})`.execute(db);
  const missing = roles.filter((r) => !rows.some((row) => row.name === r));
  for (const role of missing) {
    try {
      await createRoleUnlessExists(db, role, "nologin");
    } catch (err) {
      if ((err as { code?: string }).code !== "42501") throw err;
      const { rows: who } = await sql<{ name: string }>`select current_user as name`.execute(db);
      throw new Error(
        `the group role "${role}" does not exist, and "${who[0]?.name ?? "?"}" may not create roles: create the missing roles once as an administrator ` +
          `(${missing.map((m) => `CREATE ROLE ${m} NOLOGIN;`).join(" ")}), then run the migrate step again (docs/deploy.md, "Database roles")`,
        { cause: err },
      );
    }
  }
  return missing;
}
