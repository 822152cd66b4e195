import { execFileSync } from "node:child_process";
import { REPO_ROOT } from "../support/paths.ts";

// The compose project scripts/deploy-smoke.sh brought up, driven with the same command line
// (its variables come from the script's environment: DOCKER_HOST, Debian's docker first on
// PATH, COMPOSE_PROJECT_NAME, the published ports). Everything here reaches containers only through 127.0.0.1.

const COMPOSE = "docker-compose";
const DOCKER = "docker";
const ENV_FILE = process.env.COMPOSE_ENV_FILE ?? "infra/offline/images.env";

const run = (bin: string, args: string[], env: Record<string, string> = {}) =>
  execFileSync(bin, args, { cwd: REPO_ROOT, encoding: "utf8", env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 }).trim();

export const compose = (args: string[], env: Record<string, string> = {}) => run(COMPOSE, ["--compatibility", "--env-file", ENV_FILE, ...args], env);
export const docker = (args: string[]) => run(DOCKER, args);

export const gatewayUrl = () => `http://127.0.0.1:${process.env.GATEWAY_PORT ?? "8080"}`;
export const dashboardUrl = () => `http://127.0.0.1:${process.env.DASHBOARD_PORT ?? "8090"}`;
export const tracesUrl = () => `http://127.0.0.1:${process.env.JAEGER_UI_PORT ?? "16686"}`;

/** Ids of the running containers of one service. */
export const containersOf = (service: string): string[] => compose(["ps", "-q", service]).split("\n").filter(Boolean);

/** Waits until every container of the service reports healthy (its image's health check). */
export async function waitHealthy(service: string, expected: number, timeoutMs = 120_000): Promise<string[]> {
  const deadline = Date.now() + timeoutMs;
  let states: string[] = [];
  while (Date.now() < deadline) {
    const ids = containersOf(service);
    states = ids.length === 0 ? [] : docker(["inspect", "-f", "{{.State.Health.Status}}", ...ids]).split("\n");
    if (ids.length === expected && states.every((s) => s === "healthy")) return ids;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`${service}: expected ${expected} healthy containers, have [${states.join(", ")}] after ${timeoutMs / 1000} s`);
}

/**
 * The password of a NATS user of the stack: the smoke's own (scripts/deploy-smoke.sh exports
 * random ones), else the compose file's laptop default.
 */
export const natsPassword = (user: string) => process.env[`NATS_${user.toUpperCase().replaceAll("-", "_")}_PASSWORD`] ?? `compose-local-only-${user}`;

/**
 * The admin command's own Postgres login (docker-compose.yml, x-database-urls): the smoke's
 * password (scripts/deploy-smoke.sh exports random ones), else the compose file's laptop default.
 */
export const adminDatabaseUrl = () => `postgres://adrank_admin_login:${process.env.POSTGRES_ADMIN_PASSWORD ?? "compose-local-only-admin"}@postgres:5432/adrank`;

const ADMIN_CLI = "services/gateway/src/admin/main.ts";
const shellQuote = (word: string) => `'${word.replaceAll("'", `'\\''`)}'`;

/**
 * Admin commands, one after another, as the admin command line signs in (its own database role
 * and NATS user: the gateway's may not create accounts or keys, nor grant credits), run in the
 * gateway's container, which has the command and reaches both. `exec` into the running
 * container, and several commands per exec: a `compose run --rm admin` per command starts a
 * container each, a minute for an account and its keys on a busy machine.
 */
function adminCommands(commands: string[][]): string {
  const script = ["set -e", ...commands.map((args) => ["node", ADMIN_CLI, ...args].map(shellQuote).join(" "))].join("\n");
  const env = ["-e", `DATABASE_URL=${adminDatabaseUrl()}`, "-e", "NATS_USER=admin", "-e", `NATS_PASSWORD=${natsPassword("admin")}`];
  return compose(["exec", "-T", ...env, "gateway", "sh", "-c", script]);
}

/** A new account with credits and `keys` API keys, through the admin command line. */
export function createAccount(name: string, credits: number, keys: number): { accountId: string; keys: string[] } {
  const accountId = lastWord(adminCommands([["create-account", "--name", name]]));
  const out = adminCommands([["grant", "--account", accountId, "--credits", String(credits)], ...Array.from({ length: keys }, (_, i) => ["create-key", "--account", accountId, "--name", `${name}-${i}`])]);
  const raw = [...out.matchAll(/^key: (\S+)$/gm)].map((m) => m[1]!);
  if (raw.length !== keys) throw new Error(`the admin command line made ${raw.length} of ${keys} keys: ${JSON.stringify(out.slice(0, 2_000))}`);
  return { accountId, keys: raw };
}

function lastWord(output: string): string {
  const word = output.split(/\s+/).filter(Boolean).at(-1);
  if (!word) throw new Error(`the admin CLI printed nothing: ${JSON.stringify(output)}`);
  return word;
}
