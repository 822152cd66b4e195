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

/** A new account with credits and `keys` API keys, through the admin CLI inside the gateway container. */
export function createAccount(name: string, credits: number, keys: number): { accountId: string; keys: string[] } {
  const admin = (...args: string[]) => compose(["exec", "-T", "gateway", "node", "services/gateway/src/admin/main.ts", ...args]);
  const accountId = lastWord(admin("create-account", "--name", name));
  admin("grant", "--account", accountId, "--credits", String(credits));
  const raw = Array.from({ length: keys }, (_, i) => lastWord(admin("create-key", "--account", accountId, "--name", `${name}-${i}`)));
  return { accountId, keys: raw };
}

function lastWord(output: string): string {
  const word = output.split(/\s+/).filter(Boolean).at(-1);
  if (!word) throw new Error(`the admin CLI printed nothing: ${JSON.stringify(output)}`);
  return word;
}
