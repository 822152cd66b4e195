import { z } from "zod";
import { DEFAULT_MAX_ACTIVE_KEYS_PER_ACCOUNT } from "@adrank/db/repositories";
import { BaseEnv, envFlag, envInt, secretsKeySetting, trustProxyHops } from "@adrank/runtime";
import { DEFAULT_BODY_LIMIT_BYTES, DEFAULT_PLAYGROUND_BODY_LIMIT_BYTES } from "./body-limits.ts";
import { DEVICE_TOKEN_DAYS } from "./sign-in-limiter.ts";
import { DEFAULT_UNAUTHENTICATED_LIMITS } from "./unauthenticated-limiter.ts";

export const DashboardEnv = BaseEnv.extend({
  ADRANK_NAMESPACE: z.string().regex(/^[A-Za-z0-9_-]*$/).default(""),
  DASHBOARD_PORT: envInt(8090, 0, 65535),
  DASHBOARD_HOST: z.string().min(1).default("0.0.0.0"),
  /** Where the playground sends rank and pairwise calls. */
  GATEWAY_URL: z.url().default("http://127.0.0.1:8080"),
  /**
   * Where the console's "/docs" links send a browser when the console is reached on its own
   * port; behind the ingress /docs goes to the gateway and never reaches the console. Default:
   * GATEWAY_URL's /docs (right for `npm start`; compose must name the published port).
   */
  DASHBOARD_API_DOCS_URL: z.url().optional(),
  /** Encrypts the playground keys at rest and signs the known-device cookies. Required in production; a random one is used otherwise (keys and device cookies then do not survive a restart). */
  DASHBOARD_SESSION_SECRET: z.string().min(32).optional(),
  /** Seals the webhook signing secrets at rest; the gateway must have the same value. Required in production; a public development key is used otherwise. */
  ADRANK_SECRETS_KEY: secretsKeySetting,
  /** Credits a new account gets on sign-up, granted through the ledger (0 in the production overlay). */
  DASHBOARD_SIGNUP_CREDITS: envInt(100, 0, 1_000_000),
  /** Active (not revoked) API keys one account may hold; the admin command line reads the same setting. */
  MAX_ACTIVE_KEYS_PER_ACCOUNT: envInt(DEFAULT_MAX_ACTIVE_KEYS_PER_ACCOUNT, 1, 1_000),
  /** Sign-ups one client address (an IPv6 /64) may attempt per window, across all replicas. */
  DASHBOARD_SIGNUP_LIMIT_PER_ADDRESS: envInt(5, 1, 100_000),
  /** Sign-ups everyone together may attempt per window: bounds accounts made and passwords hashed. */
  DASHBOARD_SIGNUP_LIMIT_GLOBAL: envInt(200, 1, 10_000_000),
  DASHBOARD_SIGNUP_WINDOW_MINUTES: envInt(60, 1, 24 * 60),
  /** Failed sign-ins per email from one client address, and per known device, per window; an address gets four times as many across emails. */
  DASHBOARD_SIGNIN_MAX_FAILURES: envInt(5, 1, 1_000),
  /** Failed sign-ins per email per window from all clients without its known-device cookie together (sign-in-limiter.ts). */
  DASHBOARD_SIGNIN_MAX_FAILURES_PER_EMAIL: envInt(20, 1, 100_000),
  /** How long a browser stays a known device of the email it signed in with. */
  DASHBOARD_DEVICE_COOKIE_DAYS: envInt(DEVICE_TOKEN_DAYS, 1, 400),
  /** 401s one client address may get from the console's API per window (per replica) before it gets 429s. */
  DASHBOARD_UNAUTHENTICATED_LIMIT_PER_ADDRESS: envInt(DEFAULT_UNAUTHENTICATED_LIMITS.perAddress, 1, 1_000_000),
  DASHBOARD_UNAUTHENTICATED_WINDOW_SECONDS: envInt(DEFAULT_UNAUTHENTICATED_LIMITS.windowMs / 1000, 1, 3_600),
  /** Largest body of every console API route but the playground's. */
  DASHBOARD_BODY_LIMIT_BYTES: envInt(DEFAULT_BODY_LIMIT_BYTES, 1024, 25 * 1024 * 1024),
  /** Largest body of the playground's routes (images as data URIs), read only for a signed-in user. */
  DASHBOARD_PLAYGROUND_BODY_LIMIT_BYTES: envInt(DEFAULT_PLAYGROUND_BODY_LIMIT_BYTES, 1024, 25 * 1024 * 1024),
  DASHBOARD_SIGNIN_WINDOW_MINUTES: envInt(15, 1, 24 * 60),
  DASHBOARD_SESSION_TTL_HOURS: envInt(12, 1, 24 * 30),
  /** Adds Secure to cookies; on whenever the console is served over HTTPS. */
  DASHBOARD_SECURE_COOKIES: envFlag,
  /** Proxies in front of the console whose X-Forwarded-For entry is trusted (0: none); the limits count per client address. */
  DASHBOARD_TRUST_PROXY: trustProxyHops("console"),
  NODE_ENV: z.string().default("development"),
});
export type DashboardConfig = z.infer<typeof DashboardEnv>;
