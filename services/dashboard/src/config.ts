import { z } from "zod";
import { BaseEnv, envFlag, envInt } from "@adrank/runtime";

/**
 * A number of proxy hops, 0 to 10. `false` (and empty) still read as 0. `true` is refused: it
 * used to trust every X-Forwarded-For entry, the leftmost of which the caller writes itself.
 */
export const trustProxyHops = z
  .string()
  .default("0")
  .transform((raw, ctx) => {
    const value = raw.trim().toLowerCase();
    if (value === "" || value === "false") return 0;
    if (/^\d+$/.test(value) && Number(value) <= 10) return Number(value);
    ctx.addIssue({
      code: "custom",
      message:
        value === "true"
          ? "is now the number of proxies in front of the console, not a flag: set 1 behind one ingress or load balancer (2 behind a CDN and an ingress), 0 for none; `true` trusted every X-Forwarded-For entry, which lets a caller pick its own address"
          : `must be a number of proxy hops from 0 to 10, got "${raw}"`,
    });
    return z.NEVER;
  });

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
  /** Encrypts the playground keys at rest. Required in production; a random one is used otherwise (keys then do not survive a restart). */
  DASHBOARD_SESSION_SECRET: z.string().min(32).optional(),
  /** Credits a new account gets on sign-up, granted through the ledger (0 in the production overlay). */
  DASHBOARD_SIGNUP_CREDITS: envInt(100, 0, 1_000_000),
  /** Sign-ups one client address (an IPv6 /64) may attempt per window, across all replicas. */
  DASHBOARD_SIGNUP_LIMIT_PER_ADDRESS: envInt(5, 1, 100_000),
  /** Sign-ups everyone together may attempt per window: bounds accounts made and passwords hashed. */
  DASHBOARD_SIGNUP_LIMIT_GLOBAL: envInt(200, 1, 10_000_000),
  DASHBOARD_SIGNUP_WINDOW_MINUTES: envInt(60, 1, 24 * 60),
  /** Failed sign-ins per email per window; an address gets four times as many. */
  DASHBOARD_SIGNIN_MAX_FAILURES: envInt(5, 1, 1_000),
  DASHBOARD_SIGNIN_WINDOW_MINUTES: envInt(15, 1, 24 * 60),
  DASHBOARD_SESSION_TTL_HOURS: envInt(12, 1, 24 * 30),
  /** Adds Secure to cookies; on whenever the console is served over HTTPS. */
  DASHBOARD_SECURE_COOKIES: envFlag,
  /** Proxies in front of the console whose X-Forwarded-For entry is trusted (0: none); the limits count per client address. */
  DASHBOARD_TRUST_PROXY: trustProxyHops,
  NODE_ENV: z.string().default("development"),
});
export type DashboardConfig = z.infer<typeof DashboardEnv>;
