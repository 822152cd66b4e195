import { randomBytes } from "node:crypto";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createDb, quoteIdent } from "../src/connect.ts";
import { grantServiceRoles } from "../src/grant-service-roles.ts";
import { migrateToLatest } from "../src/migrate.ts";
import { ensureLoginRole, loginRolesFromEnv, scramSha256Verifier } from "../src/login-roles.ts";
import { schemaChangingRole } from "../src/role-check.ts";
import { DATABASE_SERVICES, groupRoleName, OWNER_ONLY_TABLES, SERVICE_GRANTS, type DatabaseService } from "../src/service-roles.ts";
import { createTestDatabase, type TestDatabase } from "../src/testing.ts";

const CONNECTION = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/test";
const PRIVILEGES = ["SELECT", "INSERT", "UPDATE", "DELETE", "TRUNCATE", "REFERENCES", "TRIGGER"] as const;

// Roles belong to the whole cluster: these tests use a prefix of their own, so the roles they
// create race only with each other, and drop them at the end.
describe("service roles", () => {
  const prefix = `rt${randomBytes(4).toString("hex")}`;
  const logins: string[] = [];
  let a: TestDatabase;
  let b: TestDatabase;
  let admin: ReturnType<typeof createDb>;

  beforeAll(async () => {
    [a, b] = await Promise.all([createTestDatabase("roles"), createTestDatabase("roles")]);
    admin = createDb({ connectionString: CONNECTION, max: 2 });
  });

  afterAll(async () => {
    await Promise.allSettled([a?.destroy(), b?.destroy()]);
    // Their grants went with the schemas: the roles can go now.
    for (const role of [...logins, ...DATABASE_SERVICES.map((s) => groupRoleName(prefix, s))]) await sql.raw(`drop role if exists ${quoteIdent(role)}`).execute(admin);
    await admin?.destroy();
  });

  /** What a role may do on every table and view of a schema: table → privileges, only the granted ones. */
  async function effectiveGrants(schema: string, role: string): Promise<Record<string, string[]>> {
    const { rows } = await sql<{ name: string }>`
      select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = ${schema} and c.relkind in ('r', 'v')`.execute(admin);
    const out: Record<string, string[]> = {};
    for (const { name } of rows) {
      const held = [];
      for (const p of PRIVILEGES) {
        const { rows: r } = await sql<{ ok: boolean }>`select has_table_privilege(${role}, ${`${quoteIdent(schema)}.${quoteIdent(name)}`}, ${p}) as ok`.execute(admin);
        if (r[0]!.ok) held.push(p);
      }
      if (held.length > 0) out[name] = held;
    }
    return out;
  }

  it("grants each group role exactly its tables and privileges, on two schemas at once, creating each role once", async () => {
    const runs = await Promise.all([grantServiceRoles(a.db, { schema: a.schema, prefix }), grantServiceRoles(b.db, { schema: b.schema, prefix }), grantServiceRoles(a.db, { schema: a.schema, prefix })]);
    expect(runs.map((r) => r.roles)).toEqual(Array(3).fill(DATABASE_SERVICES.map((s) => `${prefix}_${s}`)));
    // Every table of the schema has an owner who decided who may use it.
    for (const r of runs) expect(r.unlisted).toEqual([]);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_roles where rolname like ${`${prefix}\\_%`}`.execute(admin);
    expect(rows[0]!.n).toBe(DATABASE_SERVICES.length);

    for (const service of DATABASE_SERVICES) {
      const role = groupRoleName(prefix, service);
      const expected = Object.fromEntries(Object.entries(SERVICE_GRANTS[service]).map(([t, p]) => [t, [...p].sort()]));
      for (const schema of [a.schema, b.schema]) {
        const held = await effectiveGrants(schema, role);
        expect(Object.fromEntries(Object.entries(held).map(([t, p]) => [t, p.sort()])), `${service} on ${schema}`).toEqual(expected);
        const { rows: s } = await sql<{ usage: boolean; create: boolean; login: boolean }>`
          select has_schema_privilege(${role}, ${schema}, 'USAGE') as usage, has_schema_privilege(${role}, ${schema}, 'CREATE') as create,
                 (select rolcanlogin from pg_roles where rolname = ${role}) as login`.execute(admin);
        expect(s[0]).toEqual({ usage: true, create: false, login: false });
      }
    }
  });

  it("takes back a right given by hand, and covers a table named in the list", async () => {
    const gateway = groupRoleName(prefix, "gateway");
    await sql.raw(`grant select, truncate on ${quoteIdent(a.schema)}.dashboard_users to ${quoteIdent(gateway)}`).execute(admin);
    await sql.raw(`grant create on schema ${quoteIdent(a.schema)} to ${quoteIdent(gateway)}`).execute(admin);
    await grantServiceRoles(a.db, { schema: a.schema, prefix });
    expect((await effectiveGrants(a.schema, gateway)).dashboard_users).toBeUndefined();
    const { rows } = await sql<{ create: boolean }>`select has_schema_privilege(${gateway}, ${a.schema}, 'CREATE') as create`.execute(admin);
    expect(rows[0]!.create).toBe(false);
  });

  it("says which table of the schema no service may use: a migration must decide", async () => {
    await sql.raw(`create table ${quoteIdent(b.schema)}.forgotten (id int)`).execute(admin);
    const report = await grantServiceRoles(b.db, { schema: b.schema, prefix });
    expect(report.unlisted).toEqual(["forgotten"]);
    await sql.raw(`drop table ${quoteIdent(b.schema)}.forgotten`).execute(admin);
    expect(OWNER_ONLY_TABLES).not.toContain("forgotten");
  });

  it("makes a login role a member of its group, which signs in with its rights only and is not reported as able to change the schema", async () => {
    const user = `${prefix}_gw_login`;
    logins.push(user);
    expect(await ensureLoginRole(a.db, { service: "gateway", user, password: null }, prefix)).toBe("created");
    expect(await ensureLoginRole(a.db, { service: "gateway", user, password: null }, prefix)).toBe("updated");
    const asGateway = createDb({ connectionString: CONNECTION.replace("postgres@", `${user}@`), schema: a.schema, max: 1 });
    try {
      await expect(sql`select count(*) from api_keys`.execute(asGateway)).resolves.toBeDefined();
      await expect(sql`select count(*) from dashboard_users`.execute(asGateway)).rejects.toMatchObject({ code: "42501" });
      await expect(sql`create table mine (id int)`.execute(asGateway)).rejects.toMatchObject({ code: "42501" });
      expect(await schemaChangingRole(asGateway)).toBeNull();
    } finally {
      await asGateway.destroy();
    }
    // The owner (here a superuser, as every test runs) is reported.
    expect(await schemaChangingRole(a.db)).toMatch(/^the database role "postgres" is a superuser, owns tables in "roles_[0-9a-f]+", may create tables in "roles_[0-9a-f]+": /);
  });

  it("an owner who may not create roles (a managed database's) grants once the roles exist, and says which to create until then", async () => {
    const owner = `${prefix}_owner`;
    const schema = `owned_${randomBytes(5).toString("hex")}`;
    logins.push(owner);
    await sql.raw(`create role ${quoteIdent(owner)} login`).execute(admin);
    await sql.raw(`create schema ${quoteIdent(schema)} authorization ${quoteIdent(owner)}`).execute(admin);
    const asOwner = createDb({ connectionString: CONNECTION.replace("postgres@", `${owner}@`), schema, max: 1, queryTimeoutMs: 0 });
    try {
      await migrateToLatest(asOwner, schema);
      const other = `${prefix}x`;
      await expect(grantServiceRoles(asOwner, { schema, prefix: other })).rejects.toThrow(
        `the group role "${other}_gateway" does not exist, and "${owner}" may not create roles: create the missing roles once as an administrator (CREATE ROLE ${other}_gateway NOLOGIN; CREATE ROLE ${other}_ledger NOLOGIN;`,
      );
      const report = await grantServiceRoles(asOwner, { schema, prefix });
      expect(report).toMatchObject({ schema, created: [], unlisted: [] });
      const { rows } = await sql<{ ok: boolean }>`select has_table_privilege(${groupRoleName(prefix, "gateway")}, ${`${quoteIdent(schema)}.api_keys`}, 'SELECT') as ok`.execute(admin);
      expect(rows[0]!.ok).toBe(true);
      await expect(ensureLoginRole(asOwner, { service: "admin", user: `${prefix}_nobody`, password: "x1" }, prefix)).rejects.toThrow(/cannot create the login role ".*_nobody" \(ADMIN_DATABASE_URL\): this user may not create roles/);
    } finally {
      await asOwner.destroy();
      await sql.raw(`drop schema ${quoteIdent(schema)} cascade`).execute(admin);
    }
  });

  it("refuses to make a login role of a superuser or of the migrate step's own role", async () => {
    await expect(ensureLoginRole(a.db, { service: "ledger", user: "postgres", password: null }, prefix)).rejects.toThrow(/"postgres" \(LEDGER_DATABASE_URL\) is a superuser/);
  });

  it("reads the login roles from the services' connection strings, and refuses shared or owner users", () => {
    const owner = "postgres://adrank:pw@postgres:5432/adrank";
    const env = (over: Partial<Record<`${Uppercase<DatabaseService>}_DATABASE_URL`, string>>) => loginRolesFromEnv(over, owner);
    expect(env({ GATEWAY_DATABASE_URL: "postgres://adrank_gateway_login:s3cret%21@postgres:5432/adrank", ADMIN_DATABASE_URL: "postgres://adm@postgres/adrank" })).toEqual([
      { service: "gateway", user: "adrank_gateway_login", password: "s3cret!" },
      { service: "admin", user: "adm", password: null },
    ]);
    expect(() => env({ GATEWAY_DATABASE_URL: "postgres://one:a@h/d", DASHBOARD_DATABASE_URL: "postgres://one:b@h/d" })).toThrow("DASHBOARD_DATABASE_URL and GATEWAY_DATABASE_URL both name \"one\"");
    expect(() => env({ LEDGER_DATABASE_URL: "postgres://adrank:pw@postgres:5432/adrank" })).toThrow(/LEDGER_DATABASE_URL names "adrank", the migrate step's own role/);
    expect(() => env({ LEDGER_DATABASE_URL: "postgres://Ledger:pw@h/d" })).toThrow(/lower-case/);
    expect(() => env({ LEDGER_DATABASE_URL: "postgres://ledger:p%C3%A4ss@h/d" })).toThrow(/printable ASCII/);
    expect(() => env({ LEDGER_DATABASE_URL: "not a url" })).toThrow(/LEDGER_DATABASE_URL is not a connection string/);
  });

  it("stores the password as the very SCRAM verifier Postgres makes of it", async () => {
    const user = `${prefix}_scram`;
    logins.push(user);
    const password = "c0rrect-horse_battery";
    await sql.raw(`create role ${quoteIdent(user)} login password '${password}'`).execute(admin);
    const stored = async () => (await sql<{ p: string }>`select rolpassword as p from pg_authid where rolname = ${user}`.execute(admin)).rows[0]!.p;
    const theirs = await stored();
    const [, iterations, salt] = /^SCRAM-SHA-256\$(\d+):([^$]+)\$/.exec(theirs)!;
    expect(scramSha256Verifier(password, Buffer.from(salt!, "base64"), Number(iterations))).toBe(theirs);
    // And ensureLoginRole sets one of its own that checks the same password.
    await ensureLoginRole(a.db, { service: "dashboard", user, password: "an0ther-one" }, prefix);
    const ours = await stored();
    const [, i2, s2] = /^SCRAM-SHA-256\$(\d+):([^$]+)\$/.exec(ours)!;
    expect(ours).not.toBe(theirs);
    expect(scramSha256Verifier("an0ther-one", Buffer.from(s2!, "base64"), Number(i2))).toBe(ours);
  });
});
