import { sql, type Kysely } from "kysely";

/**
 * Why the connection's role could change the schema, as one line a service logs at start, or
 * null. A service should sign in as a member of its group role (service-roles.ts), which can
 * only read and write its tables; a superuser, an owner of the tables, or a role that may
 * CREATE in the schema could alter or drop them, which only the migrate step should do.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any schema may be checked
export async function schemaChangingRole(db: Kysely<any>): Promise<string | null> {
  try {
    const { rows } = await sql<{ role: string; schema: string | null; superuser: boolean; owns: boolean; creates: boolean }>`
      select current_user as role, current_schema() as schema,
        (select rolsuper from pg_roles where rolname = current_user) as superuser,
        exists (select 1 from pg_class c join pg_namespace n on n.oid = c.relnamespace
                where n.nspname = current_schema() and pg_has_role(c.relowner, 'USAGE')) as owns,
        coalesce(has_schema_privilege(current_schema(), 'CREATE'), false) as creates`.execute(db);
    const r = rows[0];
    if (!r) return null;
    const rights = [r.superuser && "is a superuser", r.owns && `owns tables in "${r.schema}"`, r.creates && `may create tables in "${r.schema}"`].filter(Boolean);
    if (rights.length === 0) return null;
    return `the database role "${r.role}" ${rights.join(", ")}: this process could change the schema; give it the role of its service (docs/deploy.md, "Database roles")`;
  } catch {
    // A check that cannot run must not stop the service: the schema check before it already read the database.
    return null;
  }
}
