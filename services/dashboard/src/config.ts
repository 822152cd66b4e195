import { z } from "zod";
import { BaseEnv, envFlag, envInt } from "@adrank/runtime";

export const DashboardEnv = BaseEnv.extend({
  ADRANK_NAMESPACE: z.string().regex(/^[A-Za-z0-9_-]*$/).default(""),
  DASHBOARD_PORT: envInt(8090, 0, 65535),
  DASHBOARD_HOST: z.string().min(1).default("0.0.0.0"),
  /** Where the playground sends rank and pairwise calls. */
  GATEWAY_URL: z.url().default("http://127.0.0.1:8080"),
  /** Encrypts the playground keys at rest. Required in production; a random one is used otherwise (keys then do not survive a restart). */
  DASHBOARD_SESSION_SECRET: z.string().min(32).optional(),
  /** Credits a new account gets on sign-up, granted through the ledger. */
  DASHBOARD_SIGNUP_CREDITS: envInt(100, 0, 1_000_000),
  DASHBOARD_SESSION_TTL_HOURS: envInt(12, 1, 24 * 30),
  /** Adds Secure to cookies; on whenever the console is served over HTTPS. */
  DASHBOARD_SECURE_COOKIES: envFlag,
  /** Take the client address from X-Forwarded-For (only behind a proxy that sets it): the sign-in limiter counts per address. */
  DASHBOARD_TRUST_PROXY: envFlag,
  NODE_ENV: z.string().default("development"),
});
export type DashboardConfig = z.infer<typeof DashboardEnv>;
