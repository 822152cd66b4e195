import {
  apiKeysRepository,
  audiencesRepository,
  dashboardSessionsRepository,
  dashboardUsersRepository,
  outcomesRepository,
  playgroundKeysRepository,
  requestsRepository,
  usageRepository,
  webhooksRepository,
  type RepositoryDb,
} from "@adrank/db/repositories";
import type { LedgerClient } from "@adrank/ledger-client";
import type { Logger, SecretBox } from "@adrank/runtime";
import type { SignInLimiter } from "./sign-in-limiter.ts";
import type { SignUpLimiter } from "./sign-up-limiter.ts";
import type { UnauthenticatedLimits } from "./unauthenticated-limiter.ts";

// What the console is built from, in a file of its own: app.ts registers the routes and the
// routes need these types, so neither imports the other.

export interface DashboardDeps {
  db: RepositoryDb;
  ledger: Pick<LedgerClient, "grant" | "balance">;
  /** The LEDGER stream of this namespace: the ledger's Postgres mirror may hold other namespaces' too. */
  ledgerStream: string;
  logger: Logger;
  /** Seals the playground keys (under DASHBOARD_SESSION_SECRET). */
  box: SecretBox;
  /** Seals the webhook signing secrets (under ADRANK_SECRETS_KEY, which the gateway shares to sign with them). */
  webhookSecretBox: SecretBox;
  /** Failed sign-ins and sign-up attempts, both counted in Postgres so every replica shares them. */
  signInLimiter: SignInLimiter;
  signUpLimiter: SignUpLimiter;
  gatewayUrl: string;
  /** The API reference a browser can open; `${gatewayUrl}/docs` when not given. */
  apiDocsUrl?: string;
  signupCredits: number;
  /** Active (not revoked) API keys one account may hold, the playground's included (MAX_ACTIVE_KEYS_PER_ACCOUNT). Default 20. */
  maxActiveKeysPerAccount?: number;
  sessionTtlMs: number;
  secureCookies: boolean;
  /**
   * Proxies in front of the console (0: none). The client address is taken that many hops from
   * the right of X-Forwarded-For, where the nearest trusted proxy put it; an entry further left
   * is whatever the caller wrote, so trusting every hop would let it pick its own address.
   */
  trustProxyHops?: number;
  /** Largest body of a console API route but the playground's (default 64 KiB, body-limits.ts). */
  bodyLimitBytes?: number;
  /** Largest body of a playground route, for a signed-in user only (default 25 MiB). */
  playgroundBodyLimitBytes?: number;
  /** 401s one client address may get per window before 429s (default 60 a minute). */
  unauthenticatedLimits?: UnauthenticatedLimits;
  /** The built front end; the API works without it (tests). */
  webRoot?: string;
  isReady?: () => Promise<string | null>;
}

/** Every query the console makes goes through one of these; usage is bound to this namespace's stream. */
export function createRepos(deps: Pick<DashboardDeps, "db" | "sessionTtlMs" | "ledgerStream" | "webhookSecretBox" | "maxActiveKeysPerAccount">) {
  return {
    apiKeys: apiKeysRepository(deps.db, { maxActiveKeys: deps.maxActiveKeysPerAccount }),
    audiences: audiencesRepository(deps.db),
    sessions: dashboardSessionsRepository(deps.db, deps.sessionTtlMs),
    users: dashboardUsersRepository(deps.db),
    playgroundKeys: playgroundKeysRepository(deps.db),
    usage: usageRepository(deps.db, deps.ledgerStream),
    requests: requestsRepository(deps.db),
    webhooks: webhooksRepository(deps.db, deps.webhookSecretBox),
    outcomes: outcomesRepository(deps.db),
  };
}
export type Repos = ReturnType<typeof createRepos>;
