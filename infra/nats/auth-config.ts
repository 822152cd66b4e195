// The NATS users of a deployment, rendered for the servers that enforce them: the
// nats-server `authorization` block (compose, tests) and the values of the NATS Helm chart.
// Who may do what is decided in one place, @adrank/messaging's servicePermissions; this file
// only writes it down in each server's syntax. `npm run nats:auth` writes the checked-in
// files (auth-config-cli.ts); infra/test/nats-auth.unit.spec.ts checks they are current.
import { Document, visit } from "yaml";
import { NATS_USERS, servicePermissions, topology, type NatsUser, type PermissionOptions, type SubjectPermissions } from "@adrank/messaging";

/** The environment variable that holds a user's password on the NATS server (and, in compose, the default of the service's NATS_PASSWORD). */
export const passwordVariable = (user: string) => `NATS_${user.toUpperCase().replaceAll("-", "_")}_PASSWORD`;

/** Passwords as environment variable references resolved by nats-server at start, or literal ones (tests). */
export type Passwords = "environment" | Record<NatsUser, string>;

/** A user outside the deployment's own, e.g. a test harness with every permission. */
export interface ExtraUser {
  user: string;
  password: string;
  permissions?: SubjectPermissions;
}

export interface AuthConfigOptions extends PermissionOptions {
  /** ADRANK_NAMESPACE of the deployment: subjects, streams and buckets are derived from it. Default "". */
  namespace?: string;
  passwords: Passwords;
  extraUsers?: ExtraUser[];
}

interface UserEntry {
  user: string;
  /** A literal password, or `$VARIABLE` for nats-server to read from its environment. */
  password: { literal: string } | { variable: string };
  permissions?: SubjectPermissions;
}

function userEntries({ namespace = "", passwords, extraUsers = [], consoleSignupGrants }: AuthConfigOptions): UserEntry[] {
  const permissions = servicePermissions(topology(namespace), { consoleSignupGrants });
  const own = NATS_USERS.map<UserEntry>((user) => ({
    user,
    password: passwords === "environment" ? { variable: passwordVariable(user) } : { literal: passwords[user] },
    permissions: permissions[user],
  }));
  return [...own, ...extraUsers.map<UserEntry>((u) => ({ user: u.user, password: { literal: u.password }, ...(u.permissions ? { permissions: u.permissions } : {}) }))];
}

/**
 * A list NATS reads as "nothing": an empty `allow` would mean no restriction, so an empty
 * list becomes a deny of everything.
 */
const rule = (subjects: string[]): { allow: string[] } | { deny: string[] } => (subjects.length === 0 ? { deny: [">"] } : { allow: subjects });

const serverPermissions = (p: SubjectPermissions) => ({ publish: rule(p.publish), subscribe: rule(p.subscribe), ...(p.respond ? { allow_responses: true } : {}) });

/** The nats-server configuration block (`authorization { users: [...] }`) of a deployment. */
export function natsAuthorizationConf(options: AuthConfigOptions): string {
  const q = (s: string) => JSON.stringify(s);
  const list = (subjects: string[]) => `[${subjects.map(q).join(", ")}]`;
  const ruleText = (subjects: string[]) => {
    const r = rule(subjects);
    return "allow" in r ? `{ allow: ${list(r.allow)} }` : `{ deny: ${list(r.deny)} }`;
  };
  const users = userEntries(options).map((u) => {
    const password = "variable" in u.password ? `$${u.password.variable}` : q(u.password.literal);
    const lines = [`    {`, `      user: ${q(u.user)}`, `      password: ${password}`];
    if (u.permissions) {
      lines.push(`      permissions: {`, `        publish: ${ruleText(u.permissions.publish)}`, `        subscribe: ${ruleText(u.permissions.subscribe)}`);
      if (u.permissions.respond) lines.push(`        allow_responses: true`);
      lines.push(`      }`);
    }
    lines.push(`    }`);
    return lines.join("\n");
  });
  return ["authorization {", "  users: [", users.join("\n"), "  ]", "}", ""].join("\n");
}

export interface HelmAuthOptions extends PermissionOptions {
  namespace?: string;
  /** The Secret in the NATS release's namespace holding one key per user (the user's name) with its password. */
  secretName: string;
}

/**
 * Values for the NATS Helm chart (1.x) that add the users: the authorization block merged
 * into the server's configuration, each password read from `secretName` into the server's
 * environment (`<< $VAR >>` is the chart's syntax for an unquoted variable reference).
 */
export function natsHelmAuthValues({ secretName, ...options }: HelmAuthOptions): object {
  const users = userEntries({ ...options, passwords: "environment" }).map((u) => ({
    user: u.user,
    password: `<< $${(u.password as { variable: string }).variable} >>`,
    permissions: serverPermissions(u.permissions!),
  }));
  const env = Object.fromEntries(NATS_USERS.map((user) => [passwordVariable(user), { valueFrom: { secretKeyRef: { name: secretName, key: user } } }]));
  return { config: { merge: { authorization: { users } } }, container: { env } };
}

/** natsHelmAuthValues as a YAML document under a header comment; the `<< $VAR >>` references quoted, so no YAML reader takes `<<` for a merge key. */
export function natsHelmAuthValuesYaml(options: HelmAuthOptions, header: string): string {
  const doc = new Document(natsHelmAuthValues(options));
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === "string" && node.value.startsWith("<< ")) node.type = "QUOTE_DOUBLE";
    },
  });
  return `${header}${doc.toString({ lineWidth: 0 })}`;
}

const GENERATED = "# Generated by `npm run nats:auth` (infra/nats/auth-config-cli.ts) from @adrank/messaging's\n# servicePermissions: edit the permissions there, not here.\n";

/** The checked-in files rendered from the permissions, by path from the repository root. */
export function authConfigFiles(namespace = ""): Array<{ path: string; content: string }> {
  const helmHeader = (what: string) =>
    `${GENERATED}# ${what}\n# Passwords come from the Secret \`nats-users\` in the release's namespace, one key per user\n# (docs/deploy.md, "NATS users"). Use with infra/helm/nats-values.yaml:\n#   helm upgrade --install nats nats/nats -n nats -f infra/helm/nats-values.yaml -f <this file>\n`;
  return [
    {
      path: "infra/nats/auth.conf",
      content: `${GENERATED}# The compose deployment's users: nats-server reads each password from its environment\n# (docker-compose.yml). The console may grant sign-up credits here (DASHBOARD_SIGNUP_CREDITS).\n${natsAuthorizationConf({ namespace, passwords: "environment", consoleSignupGrants: true })}`,
    },
    {
      path: "infra/helm/nats-auth-values.yaml",
      content: natsHelmAuthValuesYaml({ namespace, secretName: "nats-users", consoleSignupGrants: false }, helmHeader("Production: only the admin tools may grant credits (the prod overlay sets DASHBOARD_SIGNUP_CREDITS=0).")),
    },
    {
      path: "infra/helm/nats-auth-values-dev.yaml",
      content: natsHelmAuthValuesYaml(
        { namespace, secretName: "nats-users", consoleSignupGrants: true },
        helmHeader("A development cluster whose console grants sign-up credits (the dev overlay keeps DASHBOARD_SIGNUP_CREDITS)."),
      ),
    },
  ];
}
