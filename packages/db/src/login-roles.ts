// The roles services sign in with: one LOGIN role per service, a member of its group role
// (grant-service-roles.ts), named with its password by the service's own connection string.
// Where the deployment lets the migrate step create roles (compose), `migrate-cli.ts
// --login-roles` makes them from the <SERVICE>_DATABASE_URL variables; elsewhere an
// administrator does (docs/deploy.md, "Database roles").
import { createHash, createHmac, pbkdf2Sync, randomBytes } from "node:crypto";
import { sql, type Kysely } from "kysely";
import { quoteIdent } from "./connect.ts";
import { createRoleUnlessExists } from "./create-role.ts";
import { DATABASE_SERVICES, databaseUrlVariable, groupRoleName, type DatabaseService } from "./service-roles.ts";

export interface LoginRole {
  service: DatabaseService;
  user: string;
  /** null: set no password (a cluster that trusts local connections, as in tests). */
  password: string | null;
}

/**
 * The login roles the environment names: one per <SERVICE>_DATABASE_URL that is set. Throws
 * when one is unusable: two services sharing a user, a service given the migrate step's own
 * user (`ownerUrl`), a user name that needs quoting, or a password outside printable ASCII.
 */
export function loginRolesFromEnv(env: Record<string, string | undefined>, ownerUrl: string): LoginRole[] {
  const owner = decodeURIComponent(new URL(ownerUrl).username);
  const roles: LoginRole[] = [];
  for (const service of DATABASE_SERVICES) {
    const variable = databaseUrlVariable(service);
    const value = env[variable];
    if (!value) continue;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      throw new Error(`${variable} is not a connection string (postgres://user:password@host/database)`);
    }
    const user = decodeURIComponent(url.username);
    const password = url.password ? decodeURIComponent(url.password) : null;
    if (!/^[a-z_][a-z0-9_]{0,62}$/.test(user)) throw new Error(`${variable} names the user ${JSON.stringify(user)}: use lower-case letters, digits and _`);
    if (user === owner) throw new Error(`${variable} names "${user}", the migrate step's own role (DATABASE_URL): give each service a user of its own`);
    const twin = roles.find((r) => r.user === user);
    if (twin) throw new Error(`${variable} and ${databaseUrlVariable(twin.service)} both name "${user}": give each service a user of its own`);
    if (password !== null && !/^[\x21-\x7e]+$/.test(password)) throw new Error(`${variable}: use a password of printable ASCII characters (e.g. openssl rand -hex 24)`);
    roles.push({ service, user, password });
  }
  return roles;
}

/**
 * Creates the login role, or brings an existing one in line: LOGIN, the password (stored as a
 * SCRAM verifier made here, so the statement never carries the password itself), and
 * membership of its service's group role. Refuses a superuser or the connection's own role:
 * either would carry every right.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any database
export async function ensureLoginRole(db: Kysely<any>, role: LoginRole, prefix: string): Promise<"created" | "updated"> {
  const group = groupRoleName(prefix, role.service);
  const user = quoteIdent(role.user);
  const before = await roleState(db, role.user, group);
  if (!before) {
    try {
      await createRoleUnlessExists(db, role.user, "login");
    } catch (err) {
      if ((err as { code?: string }).code !== "42501") throw err;
      throw new Error(`cannot create the login role "${role.user}" (${databaseUrlVariable(role.service)}): this user may not create roles; an administrator creates it (docs/deploy.md, "Database roles"), or run without --login-roles`, { cause: err });
    }
  }
  const state = before ?? (await roleState(db, role.user, group));
  if (!state) throw new Error(`the login role "${role.user}" vanished while it was being created`);
  if (state.isCurrentUser || state.superuser) throw new Error(`"${role.user}" (${databaseUrlVariable(role.service)}) is ${state.superuser ? "a superuser" : "the migrate step's own role"}: give the ${role.service} an ordinary user of its own`);
  if (role.password !== null || !state.canLogin || !state.inherits) {
    const password = role.password === null ? "" : ` password '${scramSha256Verifier(role.password)}'`;
    await sql.raw(`alter role ${user} with login inherit${password}`).execute(db);
  }
  if (!state.member) await sql.raw(`do $$ begin grant ${quoteIdent(group)} to ${user}; exception when unique_violation then null; end $$`).execute(db);
  return before ? "updated" : "created";
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any database
async function roleState(db: Kysely<any>, user: string, group: string) {
  const { rows } = await sql<{ superuser: boolean; canLogin: boolean; inherits: boolean; isCurrentUser: boolean; member: boolean }>`
    select r.rolsuper as "superuser", r.rolcanlogin as "canLogin", r.rolinherit as "inherits", r.rolname = current_user as "isCurrentUser",
      exists (select 1 from pg_auth_members m join pg_roles g on g.oid = m.roleid where m.member = r.oid and g.rolname = ${group}) as "member"
    from pg_roles r where r.rolname = ${user}`.execute(db);
  return rows[0] ?? null;
}

/**
 * The verifier Postgres stores for a SCRAM-SHA-256 password (RFC 5802, RFC 7677): what
 * `ALTER ROLE … PASSWORD` would store for this password, computed here so that the password
 * never appears in a statement (nor in the server's statement log). ASCII passwords only:
 * Postgres would SASLprep other characters first.
 */
export function scramSha256Verifier(password: string, salt: Buffer = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(password, salt, iterations, 32, "sha256");
  const clientKey = createHmac("sha256", salted).update("Client Key").digest();
  const storedKey = createHash("sha256").update(clientKey).digest("base64");
  const serverKey = createHmac("sha256", salted).update("Server Key").digest("base64");
  return `SCRAM-SHA-256$${iterations}:${salt.toString("base64")}$${storedKey}:${serverKey}`;
}
